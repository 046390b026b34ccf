import { history, useIntl } from '@umijs/max';
import { Button, Result } from 'antd';
import { HOME_PATH } from '@/constants';

export default function Forbidden() {
  const intl = useIntl();
  return (
    <div data-testid="exception-403">
      <Result
      status="403"
      title={intl.formatMessage({ id: 'exception.403.title' })}
      subTitle={intl.formatMessage({ id: 'exception.403.subTitle' })}
      extra={
        <Button type="primary" onClick={() => history.push(HOME_PATH)}>
          {intl.formatMessage({ id: 'exception.backHome' })}
        </Button>
      }
      />
    </div>
  );
}
