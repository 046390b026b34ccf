import { ModalForm, type ProFormInstance } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { type ReactNode, useRef } from 'react';
import { useUnsavedGuard } from '@/hooks/useUnsavedGuard';
import { fieldErrorsOn } from '@/utils/formErrors';
import message from '@/utils/message';
import type { Options } from '@/utils/request';

interface Props<Values> {
  /** The record the dialog is about; none: closed. */
  record?: { id: string };
  title: string;
  initialValues: Partial<Values>;
  submitTestId: string;
  /** Sends the values; the server's objections to a field show on it. */
  save: (values: Values, options: Pick<Options, 'placeFieldErrors'>) => Promise<unknown>;
  onClose: () => void;
  onSaved: () => void;
  /** What the toast says once saved (the locale id; 已保存 by default): a decision says which. */
  savedId?: (values: Values) => string;
  children: ReactNode;
}

/** A dialog that changes one thing of a record (an account's roles, a role's data scope); a failed save stays open. */
export default function RecordModalForm<Values extends Record<string, unknown>>({
  record,
  title,
  initialValues,
  submitTestId,
  save,
  onClose,
  onSaved,
  savedId = () => 'resource.saved',
  children,
}: Props<Values>) {
  const intl = useIntl();
  const formRef = useRef<ProFormInstance<Values>>();
  const guard = useUnsavedGuard(Boolean(record), () => formRef.current, onClose);
  return (
    <ModalForm<Values>
      key={record?.id}
      open={Boolean(record)}
      title={title}
      formRef={formRef}
      initialValues={initialValues}
      onOpenChange={guard.onOpenChange}
      modalProps={{ destroyOnHidden: true }}
      submitter={{ submitButtonProps: { 'data-testid': submitTestId } }}
      onFinish={async (values) => {
        const saved = await save(values, fieldErrorsOn(formRef.current)).then(
          () => true,
          () => false,
        );
        if (!saved) return false;
        guard.saved();
        message.success(intl.formatMessage({ id: savedId(values) }));
        onSaved();
        return true;
      }}
    >
      {children}
    </ModalForm>
  );
}
