import { LogoutOutlined } from '@ant-design/icons';
import { history, Link, useAccess, useIntl } from '@umijs/max';
import { Button, Result, Space } from 'antd';
import { useSignOut } from '@/components/layout/useSignOut';
import routes from '@/config/routes';
import { firstOpenPath } from '@/utils/navigation';

/** A signed-in user none of whose roles opens a screen: nothing to go back to, so their account and sign-out. */
function NoScreens() {
  const intl = useIntl();
  const signOut = useSignOut();
  return (
    <div data-testid="no-screens">
      <Result
        status="info"
        title={intl.formatMessage({ id: 'exception.noScreens.title' })}
        subTitle={intl.formatMessage({ id: 'exception.noScreens.subTitle' })}
        extra={
          <Space>
            <Link to="/account/center">{intl.formatMessage({ id: 'layout.account' })}</Link>
            <Button type="primary" icon={<LogoutOutlined />} onClick={signOut} data-testid="no-screens-logout">
              {intl.formatMessage({ id: 'layout.logout' })}
            </Button>
          </Space>
        }
      />
    </div>
  );
}

export default function Forbidden() {
  const intl = useIntl();
  const home = firstOpenPath(routes, useAccess());
  if (!home) return <NoScreens />;
  return (
    <div data-testid="exception-403">
      <Result
        status="403"
        title={intl.formatMessage({ id: 'exception.403.title' })}
        subTitle={intl.formatMessage({ id: 'exception.403.subTitle' })}
        extra={
          <Button type="primary" onClick={() => history.push(home)}>
            {intl.formatMessage({ id: 'exception.backHome' })}
          </Button>
        }
      />
    </div>
  );
}
