import { lazy, Suspense } from 'react';
import type { PasswordStrengthInputProps } from './PasswordStrengthInput';

const PasswordStrengthInput = lazy(() => import('./PasswordStrengthInput'));

/** The new-password field of a create form, loaded when the form shows it: the list behind it does not carry it. */
export default function LazyPasswordStrengthInput(props: PasswordStrengthInputProps) {
  return (
    <Suspense fallback={null}>
      <PasswordStrengthInput {...props} />
    </Suspense>
  );
}
