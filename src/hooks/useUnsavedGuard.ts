import { useIntl } from '@umijs/max';
import { type ButtonProps, Modal } from 'antd';
import type { FormInstance } from 'antd/es/form';
import { useCallback, useEffect, useRef } from 'react';

interface Guard {
  /** For the dialog's `onOpenChange`: a close (Esc, a click outside, ×, Cancel) of a changed form asks first. */
  onOpenChange: (open: boolean) => void;
  /** Said by a save that succeeded, so that the close which follows it does not ask. */
  saved: () => void;
}

/**
 * Keeps a form dialog's typed changes from being lost: while it is open with changes, closing it asks whether to
 * discard them, and the browser warns before the page is left. `form` is read when asked (a ref's current form);
 * `close` closes the dialog.
 */
export function useUnsavedGuard(open: boolean, form: () => FormInstance | undefined, close: () => void): Guard {
  const intl = useIntl();
  const savedRef = useRef(false);
  const asking = useRef(false);
  const formRef = useRef(form);
  formRef.current = form;
  const changed = useCallback(() => !savedRef.current && Boolean(formRef.current()?.isFieldsTouched()), []);

  useEffect(() => {
    if (!open) return undefined;
    savedRef.current = false;
    const warn = (event: BeforeUnloadEvent) => {
      if (!changed()) return;
      event.preventDefault();
      // older browsers show the dialog only when returnValue is set
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [open, changed]);

  const onOpenChange = (next: boolean) => {
    if (next) return;
    if (!changed()) {
      close();
      return;
    }
    if (asking.current) return;
    asking.current = true;
    Modal.confirm({
      title: intl.formatMessage({ id: 'resource.unsaved.title' }),
      content: intl.formatMessage({ id: 'resource.unsaved.content' }),
      okText: intl.formatMessage({ id: 'resource.unsaved.discard' }),
      cancelText: intl.formatMessage({ id: 'resource.unsaved.keep' }),
      okButtonProps: { danger: true, 'data-testid': 'unsaved-discard' } as ButtonProps,
      cancelButtonProps: { 'data-testid': 'unsaved-keep' } as ButtonProps,
      // answered, not once its closing animation ends: an Esc pressed meanwhile asks again
      onOk: () => {
        asking.current = false;
        close();
      },
      onCancel: () => {
        asking.current = false;
      },
    });
  };

  return {
    onOpenChange,
    saved: () => {
      savedRef.current = true;
    },
  };
}
