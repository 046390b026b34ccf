import '@/pages/community/catalogue';
import { ProFormTextArea } from '@ant-design/pro-components';
import type { ReportCase } from '@server/modules/community/report/report.resource';
import { useAccess, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Card, Empty, Input, List, Space, Table, Tag, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import RecordModalForm from '@/components/RecordModalForm';
import ResourceProfile from '@/components/resource/ResourceProfile';
import { caseColumns, fetchCases } from '@/pages/community/report';
import { formatDateTime } from '@/utils/dates';
import { ignoreShownError } from '@/utils/request';
import {
  addReply,
  fetchReplies,
  POST_STATUS_COLOURS,
  type Post,
  postDescriptor,
  type Reply,
  type ReplyThread,
  replyAction,
} from '../descriptor';
import PostActions from '../PostActions';

/** HTML the server sanitised before it kept it. */
const Kept = ({ html }: { html: string }) => (
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server before it was kept
  <div dangerouslySetInnerHTML={{ __html: html }} />
);

/** A box to write a reply in: to the post, or to one of its top-level replies. */
function ReplyBox({ post, parent, onDone }: { post: Post; parent?: Reply; onDone: () => void }) {
  const intl = useIntl();
  const [text, setText] = useState('');
  const send = () =>
    addReply(post.id, { contentHtml: `<p>${escapeHtml(text)}</p>`, parentReplyId: parent?.id ?? null }).then(() => {
      setText('');
      onDone();
    }, ignoreShownError);
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input
        // the box's name: what its button does (WCAG 4.1.2)
        aria-label={intl.formatMessage({ id: 'community.post.reply' })}
        value={text}
        onChange={(e) => setText(e.target.value)}
        data-testid={parent ? 'reply-to-input' : 'reply-input'}
        maxLength={2000}
      />
      <Button type="primary" disabled={!text.trim()} onClick={send} data-testid="reply-send">
        {intl.formatMessage({ id: 'community.post.reply' })}
      </Button>
    </Space.Compact>
  );
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The thread: each top-level reply with its replies; moderators hide, restore and delete them. */
function Thread({ post }: { post: Post }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const access = useAccess() as Record<string, boolean>;
  const { data: threads = [], refresh } = useRequest(() => fetchReplies(post.id), {
    refreshDeps: [post.id, post.version],
    onError: ignoreShownError,
  });
  const [hiding, setHiding] = useState<{ reply: Reply; verb: 'hide' | 'delete' }>();
  const [answering, setAnswering] = useState<string>();
  const canReply = post.status === 'published' && !post.isLocked && access['community:post:create'];
  const item = (reply: Reply, nested: ReactNode = null) => (
    <List.Item
      key={reply.id}
      data-testid="post-reply"
      actions={[
        access['community:post:moderate'] && reply.status === 'published' && (
          <ActionLink key="hide" onClick={() => setHiding({ reply, verb: 'hide' })}>
            {t('community.post.hide')}
          </ActionLink>
        ),
        access['community:post:moderate'] && reply.status !== 'published' && (
          <ActionLink key="restore" onClick={() => replyAction(reply, 'restore').then(refresh, ignoreShownError)}>
            {t('community.post.restore')}
          </ActionLink>
        ),
        access['community:post:moderate'] && reply.status !== 'deleted' && (
          <ActionLink key="delete" onClick={() => setHiding({ reply, verb: 'delete' })}>
            {t('community.post.delete')}
          </ActionLink>
        ),
        canReply && !reply.parentReplyId && (
          <ActionLink key="answer" onClick={() => setAnswering(answering === reply.id ? undefined : reply.id)}>
            {t('community.post.replyTo')}
          </ActionLink>
        ),
      ].filter(Boolean)}
    >
      <List.Item.Meta
        title={
          <Space>
            {reply.authorName}
            <Typography.Text type="secondary">{formatDateTime(reply.createdAt)}</Typography.Text>
            {reply.status !== 'published' && (
              <Tag color={POST_STATUS_COLOURS[reply.status]}>{t(`community.post.status.${reply.status}`)}</Tag>
            )}
          </Space>
        }
        description={
          <>
            <Kept html={reply.contentHtml} />
            {reply.hiddenReason && <Typography.Text type="warning">{reply.hiddenReason}</Typography.Text>}
            {answering === reply.id && (
              <ReplyBox
                post={post}
                parent={reply}
                onDone={() => {
                  setAnswering(undefined);
                  refresh();
                }}
              />
            )}
            {nested}
          </>
        }
      />
    </List.Item>
  );
  return (
    <Card title={t('community.post.replies')} data-testid="post-thread">
      {threads.length === 0 ? (
        <Empty description={t('community.post.noReplies')} />
      ) : (
        <List<ReplyThread>
          dataSource={threads}
          renderItem={(thread) =>
            item(
              thread,
              thread.replies.length > 0 && (
                <List size="small" dataSource={thread.replies} renderItem={(reply) => item(reply)} />
              ),
            )
          }
        />
      )}
      {canReply && <ReplyBox post={post} onDone={refresh} />}
      <RecordModalForm<{ reason: string }>
        record={hiding?.reply}
        title={hiding ? t(`community.post.${hiding.verb}`) : ''}
        initialValues={{}}
        submitTestId="reply-reason-submit"
        save={({ reason }) => (hiding ? replyAction(hiding.reply, hiding.verb, reason) : Promise.resolve())}
        onClose={() => setHiding(undefined)}
        onSaved={() => {
          setHiding(undefined);
          refresh();
        }}
      >
        <ProFormTextArea
          name="reason"
          label={t('community.post.reason')}
          rules={[{ required: true }]}
          fieldProps={{ maxLength: 200 }}
        />
      </RecordModalForm>
    </Card>
  );
}

/** The report cases of the post (open and handled), with their counts and reasons. */
function Reports({ post }: { post: Post }) {
  const intl = useIntl();
  const columns = caseColumns(intl);
  const { data } = useRequest(() => fetchCases({ targetType: 'post', targetId: post.id, pageSize: '50' }), {
    refreshDeps: [post.id, post.version],
    onError: ignoreShownError,
  });
  return (
    <Card title={intl.formatMessage({ id: 'community.post.reports' })} data-testid="post-reports">
      <Table<ReportCase>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={data?.data ?? []}
        columns={columns}
        locale={{ emptyText: intl.formatMessage({ id: 'community.post.noReports' }) }}
      />
    </Card>
  );
}

/** /post/:id/profile/: the post's fields, its text as kept (sanitised), moderation, the thread, its reports, its timeline. */
export default function PostProfilePage() {
  const access = useAccess() as Record<string, boolean>;
  return (
    <div data-testid="post-profile">
      <ResourceProfile<Post> descriptor={postDescriptor}>
        {(post, reload) => (
          <>
            <Space wrap>
              <PostActions post={post} onDone={reload} />
            </Space>
            <Card title={post.title} data-testid="post-content">
              <Kept html={post.contentHtml} />
            </Card>
            <Thread post={post} />
            {access['community:report:list'] && <Reports post={post} />}
          </>
        )}
      </ResourceProfile>
    </div>
  );
}
