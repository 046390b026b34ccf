import { RedoOutlined, UploadOutlined } from '@ant-design/icons';
import { useAccess, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Card, Descriptions, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import ActionLink from '@/components/ActionLink';
import { uploadFile } from '@/services/files';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import { type CourseItem, courseItems, mediaBusy, replaceMedia, retryMedia } from './descriptor';
import MediaStatus, { lengthOf } from './MediaStatus';

/** How often an item whose media is being read is read again. */
export const MEDIA_POLL_MS = 2000;

/**
 * Replaces a video's file: the file picked is uploaded, then made the item's (the old one let go), which starts its
 * reading again. A link on the list, a button on the profile.
 */
export function ReplaceMedia({
  item,
  onDone,
  link = false,
}: {
  item: CourseItem;
  onDone: (row: CourseItem) => void;
  link?: boolean;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [busy, setBusy] = useState(false);
  const label = t('teaching.course-item.media.replace');
  return (
    <Upload
      showUploadList={false}
      accept="video/*,audio/*"
      customRequest={({ file, onSuccess, onError }) => {
        setBusy(true);
        uploadFile(file as File, { purpose: 'attachment' })
          .then((stored) => replaceMedia(item, stored.id))
          .then(
            (row) => {
              onSuccess?.(row);
              message.success(t('teaching.course-item.media.replaced'));
              onDone(row);
            },
            // the refusal is on screen already (the request layer's)
            (err: Error) => onError?.(err),
          )
          .finally(() => setBusy(false));
      }}
    >
      {link ? (
        <ActionLink data-testid="media-replace" loading={busy}>
          {label}
        </ActionLink>
      ) : (
        <Button icon={<UploadOutlined />} data-testid="media-replace" loading={busy}>
          {label}
        </Button>
      )}
    </Upload>
  );
}

/** Reads a video's media again after it failed. */
export function RetryMedia({ item, onDone, link = false }: { item: CourseItem; onDone: () => void; link?: boolean }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const retry = () =>
    retryMedia(item).then(() => {
      message.success(t('teaching.course-item.media.retried'));
      onDone();
    }, ignoreShownError);
  const label = t('teaching.course-item.media.retry');
  return link ? (
    <ActionLink data-testid="media-retry" onClick={retry}>
      {label}
    </ActionLink>
  ) : (
    <Button icon={<RedoOutlined />} data-testid="media-retry" onClick={retry}>
      {label}
    </Button>
  );
}

/**
 * A video's file on its profile: its name, where its reading stands (read again every few seconds until it is done,
 * then the profile with it), its length or why it failed; replaced, or read again after a failure.
 */
export default function MediaFile({ item, reload }: { item: CourseItem; reload: () => void }) {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string) => intl.formatMessage({ id });
  const busy = mediaBusy(item);
  useRequest(() => courseItems.get(item.id), {
    ready: busy,
    refreshDeps: [item.version],
    pollingInterval: busy ? MEDIA_POLL_MS : 0,
    onSuccess: (row) => {
      if (!mediaBusy(row)) reload();
    },
    onError: ignoreShownError,
  });
  const canChange = access['teaching:course-item:update'];
  return (
    <Card
      title={t('teaching.course-item.media')}
      data-testid="item-media"
      extra={
        canChange && (
          <Space>
            {item.mediaStatus === 'failed' && <RetryMedia item={item} onDone={reload} />}
            <ReplaceMedia item={item} onDone={reload} />
          </Space>
        )
      }
    >
      <Descriptions column={{ xs: 1, md: 2, xl: 3 }} size="small">
        <Descriptions.Item label={t('teaching.course-item.fileName')}>{item.fileName ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('teaching.course-item.mediaStatus')}>
          <Space>
            <MediaStatus item={item} />
            {busy && <Typography.Text type="secondary">{t('teaching.course-item.media.polling')}</Typography.Text>}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('teaching.course-item.mediaDurationSec')}>
          {lengthOf(item.mediaDurationSec)}
        </Descriptions.Item>
        {item.mediaStatus === 'failed' && (
          <Descriptions.Item label={t('teaching.course-item.mediaErrorDetail')}>
            <span data-testid="media-error-detail">{item.mediaErrorDetail ?? '-'}</span>
          </Descriptions.Item>
        )}
      </Descriptions>
    </Card>
  );
}
