import { LogoutOutlined } from '@ant-design/icons';
import { Link, useAccess, useIntl } from '@umijs/max';
import { Button, Space } from 'antd';
import ExceptionResult from '@/components/ExceptionResult';
import { useSignOut } from '@/components/layout/useSignOut';
import routes from '@/config/routes';
import { firstOpenPath } from '@/utils/navigation';

/** A signed-in user none of whose roles opens a screen: nothing to go back to, so their account and sign-out. */
function NoScreens() {
  const intl = useIntl();
  const signOut = useSignOut();
  return (
    <ExceptionResult
      testId="no-screens"
      status="info"
      messages="exception.noScreens"
      extra={
        <Space>
          <Link to="/account/center">{intl.formatMessage({ id: 'layout.account' })}</Link>
          <Button type="primary" icon={<LogoutOutlined />} onClick={signOut} data-testid="no-screens-logout">
            {intl.formatMessage({ id: 'layout.logout' })}
          </Button>
        </Space>
      }
    />
  );
}

export default function Forbidden() {
  const home = firstOpenPath(routes, useAccess());
  if (!home) return <NoScreens />;
  return <ExceptionResult testId="exception-403" status="403" messages="exception.403" back={{ path: home }} />;
}
