import { LockOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { history, useIntl, useModel, useRouteProps, useSearchParams } from '@umijs/max';
import { Alert, Button, Input, theme } from 'antd';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import access from '@/access';
import routes from '@/config/routes';
import { DEFAULT_TENANT } from '@/constants';
import { type SignInForm, signIn } from '@/services/auth';
import { requiredMessage } from '@/utils/i18n';
import message from '@/utils/message';
import { landingPath } from '@/utils/navigation';
import { brandingName, type InitialState, startSession } from '@/utils/session';

/** Where this sign-in lands: `?redirect=` (a page of this app), else the first screen the user may open. */
const landingFor = (state: InitialState) => landingPath(history.location.search, routes, access(state));

/**
 * The sign-in screen; its route carries the login mode parameter `mode: 'login'` (spec.md §2).
 * A signed-in user who comes here goes on to where they would land.
 * A plain form of antd inputs (not antd's Form, whose items bring Tooltip, Grid and the field store; not ProForm's
 * LoginForm; no Card or Typography) keeps the first download within its budget. Its one rule, "required", uses the
 * console's generic validation message.
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
  const [values, setValues] = useState<SignInForm>({ tenant: DEFAULT_TENANT, username: '', password: '' });
  const [missing, setMissing] = useState<(keyof SignInForm)[]>([]);
  const { token } = theme.useToken();

  useEffect(() => {
    if (initialState?.currentUser) history.replace(landingFor(initialState));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const change = (name: keyof SignInForm) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [name]: value }));
    if (value.trim()) setMissing((current) => current.filter((field) => field !== name));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const form = { ...values, tenant: values.tenant.trim(), username: values.username.trim() };
    const empty = (Object.keys(form) as (keyof SignInForm)[]).filter((name) => !form[name]);
    setMissing(empty);
    if (empty.length) return;
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
        <form onSubmit={submit} noValidate>
          <Field label={t('login.tenant')} name="tenant" error={missing.includes('tenant')}>
            <Input
              id="tenant"
              size="large"
              prefix={<TeamOutlined />}
              value={values.tenant}
              onChange={change('tenant')}
              status={missing.includes('tenant') ? 'error' : undefined}
              data-testid="login-tenant"
            />
          </Field>
          <Field label={t('login.username')} name="username" error={missing.includes('username')}>
            <Input
              id="username"
              size="large"
              prefix={<UserOutlined />}
              autoComplete="username"
              value={values.username}
              onChange={change('username')}
              status={missing.includes('username') ? 'error' : undefined}
              data-testid="login-username"
            />
          </Field>
          <Field label={t('login.password')} name="password" error={missing.includes('password')}>
            <Input.Password
              id="password"
              size="large"
              prefix={<LockOutlined />}
              autoComplete="current-password"
              value={values.password}
              onChange={change('password')}
              status={missing.includes('password') ? 'error' : undefined}
              data-testid="login-password"
            />
          </Field>
          <Button type="primary" htmlType="submit" size="large" block loading={submitting} data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </form>
        <Alert type="info" showIcon message={t('login.demoHint')} style={{ marginTop: 16 }} />
      </main>
    </div>
  );
}

/** A labelled field and, when it was left empty, the generic "required" message under it. */
function Field({ label, name, error, children }: { label: string; name: string; error: boolean; children: ReactNode }) {
  const intl = useIntl();
  const { token } = theme.useToken();
  return (
    <div style={{ marginBottom: 24 }}>
      <label htmlFor={name} style={{ display: 'block', paddingBottom: 8, color: token.colorTextHeading }}>
        {label}
      </label>
      {children}
      {error && (
        <div role="alert" style={{ color: token.colorError, marginTop: 4 }} data-testid={`login-${name}-error`}>
          {requiredMessage(intl.locale, label)}
        </div>
      )}
    </div>
  );
}
