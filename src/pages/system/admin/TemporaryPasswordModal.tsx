import { useIntl } from '@umijs/max';
import { Alert, Modal, Typography } from 'antd';

/** Shows a reset's temporary password once; it is not kept anywhere after closing. */
export default function TemporaryPasswordModal({
  shown,
  onClose,
}: {
  shown?: { name: string; password: string };
  onClose: () => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  return (
    <Modal
      open={Boolean(shown)}
      title={t('system.admin.password.title')}
      onOk={onClose}
      onCancel={onClose}
      okText={t('resource.ok')}
      okButtonProps={{ 'data-testid': 'temporary-password-close' }}
      cancelButtonProps={{ style: { display: 'none' } }}
      destroyOnHidden
    >
      <Alert
        type="warning"
        showIcon
        message={t('system.admin.password.once', { name: shown?.name ?? '' })}
        style={{ marginBottom: 16 }}
      />
      <Typography.Paragraph copyable={{ text: shown?.password }} style={{ fontSize: 20 }}>
        <Typography.Text code data-testid="temporary-password">
          {shown?.password}
        </Typography.Text>
      </Typography.Paragraph>
    </Modal>
  );
}
