import '@/pages/file/catalogue';
import { PaperClipOutlined } from '@ant-design/icons';
import type { Attachment } from '@server/modules/file/file/file.resource';
import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Space, Typography } from 'antd';
import request, { ignoreShownError } from '@/utils/request';

/**
 * The files a record holds, read from its attachments endpoint (`source`), each a link that opens it in a new tab
 * (shown where the browser can, else downloaded), with a download link beside it: what a reviewer reads.
 */
export default function AttachmentLinks({ source }: { source: string }) {
  const intl = useIntl();
  const { data, loading } = useRequest(() => request.get<Attachment[]>(source), {
    refreshDeps: [source],
    onError: ignoreShownError,
  });
  if (loading && !data) return null;
  if (!data?.length) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Space direction="vertical" size={2} data-testid="attachment-links">
      {data.map((file) => (
        <Space key={file.id} size={8}>
          <PaperClipOutlined />
          <Typography.Link href={file.previewUrl} target="_blank" rel="noopener noreferrer">
            {file.name}
          </Typography.Link>
          <Typography.Link href={file.downloadUrl} type="secondary">
            {intl.formatMessage({ id: 'file.file.download' })}
          </Typography.Link>
        </Space>
      ))}
    </Space>
  );
}
