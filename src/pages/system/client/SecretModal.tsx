import { useIntl } from '@umijs/max';
import { Alert, Modal, Typography } from 'antd';

/** A client secret, shown once after create or rotate; nothing keeps it after closing. */
export default function SecretModal({
  shown,
  onClose,
}: {
  shown?: { clientId: string; secret: string };
  onClose: () => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  return (
    <Modal
      open={Boolean(shown)}
      title={t('system.client.secret.title')}
      onOk={onClose}
      onCancel={onClose}
      okText={t('resource.ok')}
      okButtonProps={{ 'data-testid': 'client-secret-close' }}
      cancelButtonProps={{ style: { display: 'none' } }}
      maskClosable={false}
      destroyOnHidden
    >
      <Alert
        type="warning"
        showIcon
        message={t('system.client.secret.once', { clientId: shown?.clientId ?? '' })}
        style={{ marginBottom: 16 }}
      />
      <Typography.Paragraph copyable={{ text: shown?.secret }} style={{ fontSize: 16 }}>
        <Typography.Text code data-testid="client-secret">
          {shown?.secret}
        </Typography.Text>
      </Typography.Paragraph>
    </Modal>
  );
}
