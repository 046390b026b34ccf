import { Input } from 'antd';
import { lazy, Suspense } from 'react';
import type { PasswordStrengthInputProps } from './PasswordStrengthInput';

const PasswordStrengthInput = lazy(() => import('./PasswordStrengthInput'));

/**
 * The new-password field of a create form, its strength meter loaded when the form shows it: the list behind the form
 * does not carry it. Until then the field is already there, a plain password input with the same value.
 */
export default function LazyPasswordStrengthInput(props: PasswordStrengthInputProps) {
  const { value, onChange, userInputs: _userInputs, ...inputProps } = props;
  return (
    <Suspense
      fallback={<Input.Password {...inputProps} value={value} onChange={(event) => onChange?.(event.target.value)} />}
    >
      <PasswordStrengthInput {...props} />
    </Suspense>
  );
}
