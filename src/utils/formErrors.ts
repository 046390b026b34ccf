import type { FormInstance } from 'antd';
import type { NamePath } from 'antd/es/form/interface';
import type { FieldError, Options } from '@/utils/request';

/** The form field a server field path names: `domains.0` is the `domains` field. */
function fieldNameOf(path: string, registered: Map<string, unknown>): string | undefined {
  if (registered.has(path)) return path;
  const head = path.split('.')[0];
  return registered.has(head) ? head : undefined;
}

/**
 * Request options that show a 400's `fields` on the form's own fields; the request layer shows its message only
 * when one of them names no field of the form.
 */
export function fieldErrorsOn(form: FormInstance | undefined): Pick<Options, 'placeFieldErrors'> {
  return {
    placeFieldErrors: (fields: FieldError[]) => {
      if (!form) return false;
      const registered = new Map(form.getFieldsError().map(({ name }) => [name.join('.'), name]));
      const errors = new Map<string, string[]>();
      let unplaced = false;
      for (const { field, message } of fields) {
        const name = fieldNameOf(field, registered);
        if (name) errors.set(name, [...(errors.get(name) ?? []), message]);
        else unplaced = true;
      }
      form.setFields([...errors].map(([name, messages]) => ({ name: registered.get(name)!, errors: messages })));
      return !unplaced;
    },
  };
}

/** Where a refused submit takes the user: its first error, in view and in focus (antd's Form `scrollToFirstError`). */
export const FIRST_ERROR = { block: 'center', focus: true } as const;

/**
 * A form's own check of `names` (all when none) for a screen that saves by hand rather than through antd's submit:
 * true when it passes; else its first error is brought into view, as a submitted form's is.
 */
export const validateOrShow = (form: FormInstance, names?: NamePath[], options?: { recursive?: boolean }) =>
  (names ? form.validateFields(names, options) : form.validateFields()).then(
    () => true,
    (failure: { errorFields?: { name: NamePath }[] }) => {
      const first = failure.errorFields?.[0];
      if (first) form.scrollToField(first.name, FIRST_ERROR);
      return false;
    },
  );
