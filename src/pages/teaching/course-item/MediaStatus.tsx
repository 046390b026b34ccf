import { SyncOutlined } from '@ant-design/icons';
import type { CourseItem } from '@server/modules/teaching/course-item/course-item.resource';
import { useIntl } from '@umijs/max';
import { Tag, Tooltip } from 'antd';

type Media = Pick<CourseItem, 'mediaStatus' | 'mediaError' | 'mediaErrorDetail' | 'mediaDurationSec'>;

const COLOURS: Record<NonNullable<CourseItem['mediaStatus']>, string> = {
  pending: 'default',
  processing: 'processing',
  ready: 'success',
  failed: 'error',
};

/** A length in seconds as `h:mm:ss` (or `m:ss`). */
export const lengthOf = (seconds: number | null): string => {
  if (seconds === null) return '-';
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
};

/**
 * Where the reading of an item's media stands: waiting, being read (spinning), ready with its length, or failed with
 * why (the parser's own words on hover). Nothing for an item that holds no media.
 */
export default function MediaStatus({ item }: { item: Media }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { mediaStatus: status } = item;
  if (!status) return <>-</>;
  const label = t(`teaching.course-item.mediaStatus.${status}`);
  if (status === 'failed') {
    const why = item.mediaError ? t(`teaching.course-item.mediaError.${item.mediaError}`) : '';
    return (
      <Tooltip title={item.mediaErrorDetail}>
        <Tag color={COLOURS.failed} data-testid="media-status" data-status={status}>
          {why ? `${label}: ${why}` : label}
        </Tag>
      </Tooltip>
    );
  }
  return (
    <Tag
      color={COLOURS[status]}
      icon={status === 'processing' ? <SyncOutlined spin /> : undefined}
      data-testid="media-status"
      data-status={status}
    >
      {status === 'ready' ? `${label} · ${lengthOf(item.mediaDurationSec)}` : label}
    </Tag>
  );
}
