import { InboxOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { Modal, Space, Tag, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { fetchUploadPolicy, type UploadPolicyAnswer, uploadFile } from '@/services/files';
import message from '@/utils/message';

interface Props {
  open: boolean;
  onClose: () => void;
  /** After each file stored. */
  onUploaded: () => void;
}

/** Files dropped or chosen are uploaded one request each, each with its progress bar, into the library. */
export default function UploadDialog({ open, onClose, onUploaded }: Props) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [policy, setPolicy] = useState<UploadPolicyAnswer>();
  useEffect(() => {
    if (open) fetchUploadPolicy().then(setPolicy, () => undefined);
  }, [open]);

  return (
    <Modal
      open={open}
      title={t('file.file.upload')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      data-testid="file-upload-dialog"
    >
      <Upload.Dragger
        multiple
        accept={policy?.allowedExtensions.map((ext) => `.${ext}`).join(',')}
        data-testid="file-upload-dragger"
        customRequest={({ file, onProgress, onSuccess, onError }) => {
          const controller = new AbortController();
          const chosen = file as File;
          uploadFile(chosen, {
            purpose: 'library',
            signal: controller.signal,
            onProgress: (percent) => onProgress?.({ percent }),
          }).then(
            (stored) => {
              onSuccess?.(stored);
              message.success(t('file.file.uploaded', { name: stored.originalName }));
              onUploaded();
            },
            // uploadFile has shown why; the file's row in the list turns red
            (error: Error) => onError?.(error),
          );
          return { abort: () => controller.abort() };
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('file.file.dropHint')}</p>
        {policy && (
          <Space direction="vertical" size={4}>
            <Typography.Text type="secondary" data-testid="file-upload-limit">
              {t('file.file.limitHint', { maxMb: policy.maxSizeMb, types: policy.allowedExtensions.join(', ') })}
            </Typography.Text>
            {policy.direct && <Tag color="blue">{t('file.file.direct')}</Tag>}
          </Space>
        )}
      </Upload.Dragger>
    </Modal>
  );
}
