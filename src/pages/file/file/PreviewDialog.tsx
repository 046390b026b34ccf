import { DownloadOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { Button, Empty, Modal, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { type FileLink, fileLink, type StoredFile } from '@/services/files';
import { formatDateTime } from '@/utils/dates';

const FRAME = { width: '100%', height: '70vh', border: 0 };

/**
 * What the browser can show of a file by its type (found from its content by the server); anything else (a Word,
 * Excel or PowerPoint document) says so and offers the download.
 */
function Content({ link, onDownload }: { link: FileLink; onDownload: () => void }) {
  const intl = useIntl();
  const type = link.mimeType;
  if (type.startsWith('image/'))
    return <img src={link.url} alt={link.name} style={{ maxWidth: '100%' }} data-testid="file-preview-image" />;
  if (type.startsWith('video/'))
    return (
      // biome-ignore lint/a11y/useMediaCaption: an uploaded video comes with no caption file to offer
      <video src={link.url} controls style={{ width: '100%' }} data-testid="file-preview-video" />
    );
  if (type.startsWith('audio/'))
    // biome-ignore lint/a11y/useMediaCaption: an uploaded recording comes with no caption file to offer
    return <audio src={link.url} controls style={{ width: '100%' }} data-testid="file-preview-audio" />;
  if (type === 'application/pdf' || type === 'text/plain')
    return <iframe src={link.url} title={link.name} style={FRAME} data-testid="file-preview-frame" />;
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={intl.formatMessage({ id: 'file.file.noPreview' })}
      data-testid="file-preview-none"
    >
      <Button type="primary" icon={<DownloadOutlined />} onClick={onDownload} data-testid="file-preview-download">
        {intl.formatMessage({ id: 'file.file.download' })}
      </Button>
    </Empty>
  );
}

/** The file behind a signed inline link, and until when that link works. */
export default function PreviewDialog({
  file,
  onClose,
  onDownload,
}: {
  file?: StoredFile;
  onClose: () => void;
  onDownload: (file: StoredFile) => void;
}) {
  const intl = useIntl();
  const [link, setLink] = useState<FileLink>();
  useEffect(() => {
    setLink(undefined);
    if (file) fileLink(file.id, true).then(setLink, onClose);
  }, [file, onClose]);

  return (
    <Modal
      open={Boolean(file)}
      title={file?.originalName}
      onCancel={onClose}
      footer={null}
      width={880}
      destroyOnHidden
      data-testid="file-preview"
    >
      {link ? (
        <>
          <Content link={link} onDownload={() => file && onDownload(file)} />
          <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
            {intl.formatMessage({ id: 'file.file.linkExpires' }, { time: formatDateTime(link.expiresAt) })}
          </Typography.Text>
        </>
      ) : (
        <Spin />
      )}
    </Modal>
  );
}
