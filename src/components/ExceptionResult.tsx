import { history, useIntl } from '@umijs/max';
import { Button, Result, type ResultProps } from 'antd';
import type { ReactNode } from 'react';

interface Props {
  testId: string;
  status: ResultProps['status'];
  /** i18n prefix of its `.title` and `.subTitle`. */
  messages: string;
  /** Where its one button leaves to, and what the button says (home by default). */
  back?: { path: string; labelId?: string; testId?: string };
  /** Instead of a way back: what the screen offers. */
  extra?: ReactNode;
}

/** A screen that says why there is nothing to show (403, 404, a missing record) and where to go instead. */
export default function ExceptionResult({ testId, status, messages, back, extra }: Props) {
  const intl = useIntl();
  return (
    <div data-testid={testId}>
      <Result
        status={status}
        title={intl.formatMessage({ id: `${messages}.title` })}
        subTitle={intl.formatMessage({ id: `${messages}.subTitle` })}
        extra={
          back ? (
            <Button type="primary" data-testid={back.testId} onClick={() => history.push(back.path)}>
              {intl.formatMessage({ id: back.labelId ?? 'exception.backHome' })}
            </Button>
          ) : (
            extra
          )
        }
      />
    </div>
  );
}
