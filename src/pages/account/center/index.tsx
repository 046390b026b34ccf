import { ProForm, type ProFormInstance, ProFormText } from '@ant-design/pro-components';
import { useIntl, useModel } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Card, Col, Row, Skeleton } from 'antd';
import { useRef } from 'react';
import ChangePasswordForm from '@/components/password/ChangePasswordForm';
import { fetchMe, updateMe } from '@/services/auth';
import { fieldErrorsOn } from '@/utils/formErrors';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';

interface ProfileForm {
  userName: string;
  displayName: string;
  email?: string;
  mobile?: string;
}

/** The signed-in user's own account: profile (optimistic version) and password. */
export default function AccountCenter() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { setInitialState } = useModel('@@initialState');
  const { data: me, mutate, loading } = useRequest(fetchMe, { onError: ignoreShownError });
  const profileForm = useRef<ProFormInstance<ProfileForm>>();

  const saveProfile = async (values: ProfileForm) => {
    if (!me) return false;
    const updated = await updateMe(
      {
        displayName: values.displayName,
        email: values.email || undefined,
        mobile: values.mobile || undefined,
        version: me.version,
      },
      fieldErrorsOn(profileForm.current),
    ).catch(() => undefined);
    if (!updated) return false;
    mutate(updated);
    await setInitialState((s) => ({ ...s, name: updated.displayName, currentUser: updated }));
    message.success(t('account.saved'));
    return true;
  };

  return (
    <Row gutter={16} data-testid="account-center">
      <Col xs={24} lg={12}>
        <Card title={t('account.profile')}>
          {loading && !me ? (
            <Skeleton active />
          ) : (
            <ProForm<ProfileForm>
              formRef={profileForm}
              key={me?.version}
              initialValues={{ ...me, email: me?.email ?? '', mobile: me?.mobile ?? '' }}
              onFinish={saveProfile}
              submitter={{ searchConfig: { submitText: t('account.save') }, resetButtonProps: false }}
            >
              <ProFormText name="userName" label={t('account.userName')} disabled />
              <ProFormText
                name="displayName"
                label={t('account.displayName')}
                rules={[{ required: true }]}
                fieldProps={{ 'data-testid': 'account-display-name' } as object}
              />
              <ProFormText name="email" label={t('account.email')} />
              <ProFormText name="mobile" label={t('account.mobile')} />
            </ProForm>
          )}
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card title={t('account.password')}>
          <ChangePasswordForm onChanged={() => void message.success(t('account.passwordChanged'))} />
        </Card>
      </Col>
    </Row>
  );
}
