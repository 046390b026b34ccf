import { ProForm, type ProFormInstance, ProFormText } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import type { ButtonProps } from 'antd';
import { useRef } from 'react';
import { changePassword } from '@/services/auth';
import { fieldErrorsOn } from '@/utils/formErrors';
import PasswordStrengthInput from './PasswordStrengthInput';

interface PasswordForm {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** Changes the signed-in user's own password; the server's objections show on the fields. */
export default function ChangePasswordForm({ onChanged }: { onChanged: () => void | Promise<void> }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const formRef = useRef<ProFormInstance<PasswordForm>>();

  const save = async (values: PasswordForm) => {
    const done = await changePassword(
      { currentPassword: values.currentPassword, newPassword: values.newPassword },
      fieldErrorsOn(formRef.current),
    )
      .then(() => true)
      .catch(() => false);
    if (done) await onChanged();
    return done;
  };

  return (
    <ProForm<PasswordForm>
      formRef={formRef}
      onFinish={save}
      submitter={{
        searchConfig: { submitText: t('account.changePassword') },
        resetButtonProps: false,
        submitButtonProps: { 'data-testid': 'change-password-submit' } as ButtonProps,
      }}
    >
      <ProFormText.Password
        name="currentPassword"
        label={t('account.currentPassword')}
        rules={[{ required: true }]}
        fieldProps={{ autoComplete: 'current-password', 'data-testid': 'current-password' } as object}
      />
      <ProForm.Item name="newPassword" label={t('account.newPassword')} rules={[{ required: true }]}>
        <PasswordStrengthInput data-testid="new-password" />
      </ProForm.Item>
      <ProFormText.Password
        name="confirmPassword"
        label={t('account.confirmPassword')}
        dependencies={['newPassword']}
        fieldProps={{ autoComplete: 'new-password', 'data-testid': 'confirm-password' } as object}
        rules={[
          { required: true },
          ({ getFieldValue }) => ({
            validator: (_, value) =>
              !value || value === getFieldValue('newPassword')
                ? Promise.resolve()
                : Promise.reject(new Error(t('account.passwordMismatch'))),
          }),
        ]}
      />
    </ProForm>
  );
}
