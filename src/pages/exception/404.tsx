import { history, useAccess, useIntl } from '@umijs/max';
import { Button, Result } from 'antd';
import routes from '@/config/routes';
import { HOME_PATH } from '@/constants';
import { firstOpenPath } from '@/utils/navigation';

export default function NotFound() {
  const intl = useIntl();
  const home = firstOpenPath(routes, useAccess()) ?? HOME_PATH;
  return (
    <div data-testid="exception-404">
      <Result
        status="404"
        title={intl.formatMessage({ id: 'exception.404.title' })}
        subTitle={intl.formatMessage({ id: 'exception.404.subTitle' })}
        extra={
          <Button type="primary" onClick={() => history.push(home)}>
            {intl.formatMessage({ id: 'exception.backHome' })}
          </Button>
        }
      />
    </div>
  );
}
