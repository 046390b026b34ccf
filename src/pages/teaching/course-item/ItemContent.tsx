import '@/pages/content/catalogue';
import { Link, useIntl } from '@umijs/max';
import { Alert, Card, Descriptions, Tag } from 'antd';
import { formatDateTime } from '@/utils/dates';
import type { CourseItem } from './descriptor';

/**
 * What an item holds besides a media file, on its profile: a rich-text body or an assignment's instructions (sanitised
 * by the server), a live session's time and room, a document of the document base.
 */
export default function ItemContent({ item }: { item: CourseItem }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const label = (field: string) => t(`teaching.course-item.${field}`);
  const live = item.liveConfig;
  return (
    <>
      {item.contentHtml !== null && (
        <Card title={label(item.itemType === 'assignment' ? 'instructions' : 'contentHtml')} data-testid="item-content">
          {item.itemType === 'assignment' && (
            <Alert type="info" showIcon style={{ marginBottom: 12 }} message={label('assignment.noSubmissions')} />
          )}
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server before it was kept */}
          <div dangerouslySetInnerHTML={{ __html: item.contentHtml }} />
        </Card>
      )}
      {live && (
        <Card title={label('liveConfig')} data-testid="item-live">
          <Descriptions column={{ xs: 1, md: 2 }} size="small">
            <Descriptions.Item label={label('liveConfig.startAt')}>{formatDateTime(live.startAt)}</Descriptions.Item>
            <Descriptions.Item label={label('liveConfig.endAt')}>{formatDateTime(live.endAt)}</Descriptions.Item>
            <Descriptions.Item label={label('liveConfig.platform')}>
              {label(`liveConfig.platform.${live.platform}`)}
            </Descriptions.Item>
            <Descriptions.Item label={label('liveConfig.roomUrl')}>
              <a href={live.roomUrl} target="_blank" rel="noopener noreferrer">
                {live.roomUrl}
              </a>
            </Descriptions.Item>
          </Descriptions>
        </Card>
      )}
      {item.documentId && (
        <Card title={label('documentId')} data-testid="item-document">
          <Link to={`/doc/${item.documentId}/profile`}>{item.documentTitle ?? item.documentId}</Link>{' '}
          {item.documentStatus && item.documentStatus !== 'published' && (
            <Tag color="warning">{t(`content.document.status.${item.documentStatus}`)}</Tag>
          )}
        </Card>
      )}
    </>
  );
}
