import { history, useIntl } from '@umijs/max';
import { Button, Result } from 'antd';
import { HOME_PATH } from '@/constants';

export default function NotFound() {
  const intl = useIntl();
  return (
    <div data-testid="exception-404">
      <Result
      status="404"
      title={intl.formatMessage({ id: 'exception.404.title' })}
      subTitle={intl.formatMessage({ id: 'exception.404.subTitle' })}
      extra={
        <Button type="primary" onClick={() => history.push(HOME_PATH)}>
          {intl.formatMessage({ id: 'exception.backHome' })}
        </Button>
      }
      />
    </div>
  );
}
