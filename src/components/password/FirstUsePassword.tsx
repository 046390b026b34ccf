import { history, useIntl, useModel } from '@umijs/max';
import { Alert, Button, Card } from 'antd';
import { LOGIN_PATH } from '@/constants';
import message from '@/utils/message';
import { endSession, loadDictionaries } from '@/utils/session';
import ChangePasswordForm from './ChangePasswordForm';

/**
 * The forced first step of an account whose password someone else chose (a new tenant's administrator, an account an
 * administrator created or reset): nothing else opens until it is changed, and the server refuses everything else too.
 */
export default function FirstUsePassword() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { initialState, setInitialState } = useModel('@@initialState');

  const changed = async () => {
    await loadDictionaries();
    await setInitialState((s) => ({
      ...s,
      currentUser: s?.currentUser && { ...s.currentUser, mustChangePassword: false },
    }));
    message.success(t('account.passwordChanged'));
  };

  const signOut = async () => {
    await endSession();
    await setInitialState((s) => ({ ...s, currentUser: undefined, name: undefined }));
    history.push(LOGIN_PATH);
  };

  return (
    <div
      data-testid="first-use-password"
      style={{ minHeight: '100vh', display: 'flex', justifyContent: 'center', alignItems: 'center', padding: 16 }}
    >
      <Card
        title={t('firstUse.title')}
        style={{ width: 440, maxWidth: '100%' }}
        extra={
          <Button type="link" onClick={signOut} data-testid="first-use-sign-out">
            {t('firstUse.signOut')}
          </Button>
        }
      >
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 24 }}
          message={intl.formatMessage({ id: 'firstUse.why' }, { name: initialState?.name ?? '' })}
        />
        <ChangePasswordForm onChanged={changed} />
      </Card>
    </div>
  );
}
