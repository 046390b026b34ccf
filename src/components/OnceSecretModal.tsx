import { useIntl } from '@umijs/max';
import { Alert, Modal, Typography } from 'antd';

interface Props {
  /** The secret and the values of the notice; none: closed. */
  shown?: { secret: string; values: Record<string, string> };
  titleId: string;
  /** i18n id of the warning that it is shown this once. */
  noticeId: string;
  /** `<testId>` is the secret, `<testId>-close` the button. */
  testId: string;
  onClose: () => void;
}

/** A secret the server answers once (a temporary password, a client secret): copy it now, nothing keeps it. */
export default function OnceSecretModal({ shown, titleId, noticeId, testId, onClose }: Props) {
  const intl = useIntl();
  return (
    <Modal
      open={Boolean(shown)}
      title={intl.formatMessage({ id: titleId })}
      onOk={onClose}
      onCancel={onClose}
      okText={intl.formatMessage({ id: 'resource.ok' })}
      okButtonProps={{ 'data-testid': `${testId}-close` }}
      cancelButtonProps={{ style: { display: 'none' } }}
      maskClosable={false}
      destroyOnHidden
    >
      <Alert
        type="warning"
        showIcon
        message={shown && intl.formatMessage({ id: noticeId }, shown.values)}
        style={{ marginBottom: 16 }}
      />
      <Typography.Paragraph copyable={{ text: shown?.secret }} style={{ fontSize: 18 }}>
        <Typography.Text code data-testid={testId}>
          {shown?.secret}
        </Typography.Text>
      </Typography.Paragraph>
    </Modal>
  );
}
