import { useIntl } from '@umijs/max';
import { Button, Space, Typography } from 'antd';
import { useState } from 'react';
import type { PermissionCode } from '@/access';
import useCan from '@/hooks/useCan';
import { ignoreShownError } from '@/utils/request';

interface Props {
  masked: string | null;
  /** Asks the server for the number in clear (which its audit trail records). */
  reveal: () => Promise<string | null>;
  permission: PermissionCode;
  /** `<testId>` is the number, `<testId>-reveal` the button. */
  testId: string;
}

/** A person's ID number, masked until someone who may asks to see it. */
export default function IdNumber({ masked, reveal, permission, testId }: Props) {
  const intl = useIntl();
  const canReveal = useCan(permission);
  const [shown, setShown] = useState<string | null>();
  if (!masked) return <>-</>;
  return (
    <Space>
      <Typography.Text data-testid={testId} copyable={Boolean(shown)}>
        {shown ?? masked}
      </Typography.Text>
      {canReveal && shown === undefined && (
        <Button
          size="small"
          type="link"
          data-testid={`${testId}-reveal`}
          onClick={() => reveal().then(setShown, ignoreShownError)}
        >
          {intl.formatMessage({ id: 'people.trainee.reveal' })}
        </Button>
      )}
    </Space>
  );
}
