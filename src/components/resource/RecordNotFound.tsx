import { history, useIntl } from '@umijs/max';
import { Button, Result } from 'antd';
import { HOME_PATH } from '@/constants';

/** A profile or edit screen whose record does not exist (deleted, another tenant's, a mistyped link). */
export default function RecordNotFound({ backPath }: { backPath?: string }) {
  const intl = useIntl();
  return (
    <div data-testid="record-not-found">
      <Result
        status="404"
        title={intl.formatMessage({ id: 'resource.notFound.title' })}
        subTitle={intl.formatMessage({ id: 'resource.notFound.subTitle' })}
        extra={
          <Button
            type="primary"
            data-testid="record-not-found-back"
            onClick={() => history.push(backPath ?? HOME_PATH)}
          >
            {intl.formatMessage({ id: backPath ? 'resource.notFound.back' : 'exception.backHome' })}
          </Button>
        }
      />
    </div>
  );
}
