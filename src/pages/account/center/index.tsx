import { ProForm, ProFormText } from '@ant-design/pro-components';
import { useIntl, useModel } from '@umijs/max';
import { useRequest } from 'ahooks';
import { ignoreShownError } from '@/utils/request';
import { Card, Col, message, Row, Skeleton } from 'antd';
import { changePassword, fetchMe, updateMe, type CurrentUser } from '@/services/auth';
import PasswordStrengthInput from '@/components/password/PasswordStrengthInput';

interface ProfileForm {
  userName: string;
  displayName: string;
  email?: string;
  mobile?: string;
}

interface PasswordForm {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** The signed-in user's own account: profile (optimistic version) and password. */
export default function AccountCenter() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { setInitialState } = useModel('@@initialState');
  const { data: me, mutate, loading } = useRequest(fetchMe, { onError: ignoreShownError });

  const saveProfile = async (values: ProfileForm) => {
    if (!me) return false;
    const updated = await updateMe({
      displayName: values.displayName,
      email: values.email || undefined,
      mobile: values.mobile || undefined,
      version: me.version,
    }).catch(() => undefined);
    if (!updated) return false;
    mutate(updated);
    await setInitialState((s) => ({ ...s, name: updated.displayName, currentUser: updated as CurrentUser }));
    message.success(t('account.saved'));
    return true;
  };

  const savePassword = async (values: PasswordForm) => {
    const done = await changePassword({ currentPassword: values.currentPassword, newPassword: values.newPassword })
      .then(() => true)
      .catch(() => false);
    if (done) message.success(t('account.passwordChanged'));
    return done;
  };

  return (
    <Row gutter={16} data-testid="account-center">
      <Col xs={24} lg={12}>
        <Card title={t('account.profile')}>
          {loading && !me ? (
            <Skeleton active />
          ) : (
            <ProForm<ProfileForm>
              key={me?.version}
              initialValues={{ ...me, email: me?.email ?? '', mobile: me?.mobile ?? '' }}
              onFinish={saveProfile}
              submitter={{ searchConfig: { submitText: t('account.save') }, resetButtonProps: false }}
            >
              <ProFormText name="userName" label={t('account.userName')} disabled />
              <ProFormText
                name="displayName"
                label={t('account.displayName')}
                rules={[{ required: true }, { max: 64 }]}
                fieldProps={{ 'data-testid': 'account-display-name' } as object}
              />
              <ProFormText name="email" label={t('account.email')} rules={[{ type: 'email' }, { max: 128 }]} />
              <ProFormText name="mobile" label={t('account.mobile')} rules={[{ max: 32 }]} />
            </ProForm>
          )}
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card title={t('account.password')}>
          <ProForm<PasswordForm>
            onFinish={savePassword}
            submitter={{ searchConfig: { submitText: t('account.changePassword') }, resetButtonProps: false }}
          >
            <ProFormText.Password
              name="currentPassword"
              label={t('account.currentPassword')}
              rules={[{ required: true }]}
            />
            <ProForm.Item name="newPassword" label={t('account.newPassword')} rules={[{ required: true }, { min: 8, max: 128 }]}>
              <PasswordStrengthInput userInputs={me ? [me.userName] : []} />
            </ProForm.Item>
            <ProFormText.Password
              name="confirmPassword"
              label={t('account.confirmPassword')}
              dependencies={['newPassword']}
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
        </Card>
      </Col>
    </Row>
  );
}
