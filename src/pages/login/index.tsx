import { LockOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { history, useIntl, useModel, useRouteProps, useSearchParams } from '@umijs/max';
import { Alert, Button, Form, Input, message, theme } from 'antd';
import { useEffect, useState } from 'react';
import access from '@/access';
import routes from '@/config/routes';
import { DEFAULT_TENANT } from '@/constants';
import { type SignInForm, signIn } from '@/services/auth';
import { landingPath } from '@/utils/navigation';
import { brandingName, type InitialState, startSession } from '@/utils/session';

/** Where this sign-in lands: `?redirect=` (a page of this app), else the first screen the user may open. */
const landingFor = (state: InitialState) => landingPath(history.location.search, routes, access(state));

/**
 * The sign-in screen; its route carries the login mode parameter `mode: 'login'` (spec.md §2).
 * A signed-in user who comes here goes on to where they would land.
 * Plain antd Form (not ProForm's LoginForm; no Card or Typography, which bring Tabs and Menu)
 * keeps the first download within its budget.
 */
export default function Login() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const routeProps = useRouteProps() as { mode?: string };
  const [search] = useSearchParams();
  const mode = search.get('mode') ?? routeProps.mode ?? 'login';
  const { initialState, setInitialState } = useModel('@@initialState');
  const title = brandingName(initialState?.settings, intl.locale) ?? t('app.name');
  const [submitting, setSubmitting] = useState(false);
  const { token } = theme.useToken();

  useEffect(() => {
    if (initialState?.currentUser) history.replace(landingFor(initialState));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const submit = async (form: SignInForm) => {
    setSubmitting(true);
    try {
      // failures are shown by the request layer; the form only stops its spinner
      const answer = await signIn(form).catch(() => undefined);
      if (!answer) return;
      const next = await startSession(answer).catch(() => undefined);
      if (!next) return;
      await setInitialState(next);
      message.success(t('login.success'));
      history.replace(landingFor(next));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div
      data-testid="login-page"
      data-mode={mode}
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: 16,
        background: token.colorBgLayout,
      }}
    >
      <main
        style={{
          width: 380,
          maxWidth: '100%',
          padding: 32,
          borderRadius: token.borderRadiusLG,
          background: token.colorBgContainer,
          boxShadow: token.boxShadowTertiary,
        }}
      >
        <div style={{ textAlign: 'center', marginBottom: 24 }}>
          <img src="/logo.svg" alt="" width={48} height={48} />
          <h1 style={{ margin: '12px 0 4px', fontSize: 24, color: token.colorTextHeading }} data-testid="login-title">
            {title}
          </h1>
          <span style={{ color: token.colorTextSecondary }}>{t('login.subtitle')}</span>
        </div>
        <Form<SignInForm>
          layout="vertical"
          initialValues={{ tenant: DEFAULT_TENANT }}
          onFinish={submit}
          requiredMark={false}
        >
          <Form.Item name="tenant" label={t('login.tenant')} rules={[{ required: true }]}>
            <Input size="large" prefix={<TeamOutlined />} data-testid="login-tenant" />
          </Form.Item>
          <Form.Item name="username" label={t('login.username')} rules={[{ required: true }]}>
            <Input size="large" prefix={<UserOutlined />} autoComplete="username" data-testid="login-username" />
          </Form.Item>
          <Form.Item name="password" label={t('login.password')} rules={[{ required: true }]}>
            <Input.Password
              size="large"
              prefix={<LockOutlined />}
              autoComplete="current-password"
              data-testid="login-password"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" size="large" block loading={submitting} data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </Form>
        <Alert type="info" showIcon message={t('login.demoHint')} style={{ marginTop: 16 }} />
      </main>
    </div>
  );
}
