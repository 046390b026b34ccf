import '@/pages/content/catalogue';
import { Link, useAccess, useIntl, useNavigate } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Card, Empty, Space, Table, Tag, Typography } from 'antd';
import AttachmentLinks from '@/components/file/AttachmentLinks';
import ResourceProfile from '@/components/resource/ResourceProfile';
import { formatDateTime } from '@/utils/dates';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import {
  type Document,
  type DocumentVersion,
  documentDescriptor,
  fetchVersions,
  newVersion,
  offlineDocument,
  publishDocument,
} from '../descriptor';
import { lineDiff } from './diff';

const STATUS_COLOURS: Record<Document['status'], string> = {
  draft: 'default',
  published: 'success',
  offline: 'warning',
  archived: 'default',
};

/** The text of a version beside the one before it: lines taken out struck through, lines put in marked. */
function Diff({ before, after }: { before: string; after: string }) {
  return (
    <div data-testid="document-diff" style={{ whiteSpace: 'pre-wrap' }}>
      {lineDiff(before, after).map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one comparison, never reordered
        <div key={i}>
          {part.kind === 'removed' ? (
            <Typography.Text delete type="danger">
              − {part.text}
            </Typography.Text>
          ) : part.kind === 'added' ? (
            <Typography.Text mark>+ {part.text}</Typography.Text>
          ) : (
            <Typography.Text type="secondary"> {part.text}</Typography.Text>
          )}
        </div>
      ))}
    </div>
  );
}

/** Every version of the document's chain, newest first, each compared with the one it supersedes. */
function Versions({ document }: { document: Document }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { data: versions = [] } = useRequest(() => fetchVersions(document.id), {
    refreshDeps: [document.id, document.version],
    onError: ignoreShownError,
  });
  const byId = new Map(versions.map((v) => [v.id, v]));
  return (
    <Card title={t('content.document.versions')} data-testid="document-versions">
      <Table<DocumentVersion>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={versions}
        columns={[
          {
            title: t('content.document.versionLabel'),
            dataIndex: 'versionLabel',
            render: (_, v) =>
              v.id === document.id ? (
                <b>{v.versionLabel ?? '-'}</b>
              ) : (
                <Link to={`/doc/${v.id}/profile`}>{v.versionLabel ?? '-'}</Link>
              ),
          },
          { title: t('content.document.title'), dataIndex: 'title' },
          {
            title: t('content.document.status'),
            dataIndex: 'status',
            render: (_, v) => <Tag color={STATUS_COLOURS[v.status]}>{t(`content.document.status.${v.status}`)}</Tag>,
          },
          {
            title: t('content.document.publishedAt'),
            dataIndex: 'publishedAt',
            render: (_, v) => (v.publishedAt ? formatDateTime(v.publishedAt) : '-'),
          },
        ]}
        expandable={{
          expandedRowRender: (v) => {
            const previous = v.supersedesId ? byId.get(v.supersedesId) : undefined;
            return previous ? (
              <>
                <Typography.Text type="secondary">{t('content.document.diff')}</Typography.Text>
                <Diff before={previous.contentText ?? ''} after={v.contentText ?? ''} />
              </>
            ) : (
              <Typography.Text type="secondary">{t('content.document.diff.none')}</Typography.Text>
            );
          },
        }}
      />
    </Card>
  );
}

/** /doc/:id/profile: the document's fields, its text as kept (sanitised), its files, its versions and its timeline. */
export default function DocumentProfilePage() {
  const intl = useIntl();
  const access = useAccess();
  const navigate = useNavigate();
  const t = (id: string) => intl.formatMessage({ id });
  return (
    <div data-testid="document-profile">
      <ResourceProfile<Document> descriptor={documentDescriptor}>
        {(document, reload) => (
          <>
            <Space>
              {['draft', 'offline'].includes(document.status) && access['doc:document:publish'] && (
                <Button
                  type="primary"
                  data-testid="document-profile-publish"
                  onClick={() =>
                    publishDocument(document).then(() => {
                      message.success(t('content.document.published'));
                      reload();
                    }, ignoreShownError)
                  }
                >
                  {t('content.document.publish')}
                </Button>
              )}
              {document.status === 'published' && access['doc:document:publish'] && (
                <Button
                  data-testid="document-profile-offline"
                  onClick={() => offlineDocument(document).then(reload, ignoreShownError)}
                >
                  {t('content.document.offline')}
                </Button>
              )}
              {['published', 'offline'].includes(document.status) && access['doc:document:new-version'] && (
                <Button
                  data-testid="document-profile-new-version"
                  onClick={() =>
                    newVersion(document).then((draft) => {
                      message.success(t('content.document.newVersionMade'));
                      navigate(`/doc/${draft.id}/profile`);
                    }, ignoreShownError)
                  }
                >
                  {t('content.document.newVersion')}
                </Button>
              )}
            </Space>
            <Card title={t('content.document.contentHtml')} data-testid="document-content">
              {document.contentHtml ? (
                // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server before it was kept
                <div dangerouslySetInnerHTML={{ __html: document.contentHtml }} />
              ) : (
                <Empty />
              )}
            </Card>
            {(document.fileId || document.attachmentFileIds.length > 0) && (
              <Card title={t('content.document.attachments')}>
                <AttachmentLinks source={`/api/content/document/${document.id}/attachments`} />
              </Card>
            )}
            <Versions document={document} />
          </>
        )}
      </ResourceProfile>
    </div>
  );
}
