import type {
  CreatePost,
  CreateReply,
  Post,
  Reply,
  ReplyThread,
  UpdatePost,
} from '@server/modules/community/post/post.resource';
import type { CreateReport, ReportCase } from '@server/modules/community/report/report.resource';
import { FormattedMessage, Link } from '@umijs/max';
import { Space, Tag } from 'antd';
import { describeResource } from '@/components/resource/types';
import { LazyRichTextEditor } from '@/components/richText';
import { boardChoices } from '@/pages/community/board';
import { resourceService } from '@/services/resource';
import request, { type Options } from '@/utils/request';

export type { Post, Reply, ReplyThread };

export const posts = resourceService<Post, CreatePost, UpdatePost>('community/post');

const path = '/api/community/post';
export const fetchReplies = (id: string) => request.get<ReplyThread[]>(`${path}/${id}/replies`);
export const addReply = (id: string, body: CreateReply) => request.post<Reply>(`${path}/${id}/replies`, { data: body });
export const replyAction = (reply: Reply, verb: 'hide' | 'restore' | 'delete', reason?: string) =>
  request.post<Reply>(`/api/community/reply/${reply.id}/${verb}`, { data: { reason, version: reply.version } });
export const reportTarget = (body: CreateReport, options: Options = {}) =>
  request.post<ReportCase>('/api/community/report', { ...options, data: body });

/** What a moderator does to a post, and what each sends beside the version it read. */
export type PostVerb = 'approve' | 'reject' | 'hide' | 'restore' | 'delete' | 'pin' | 'feature' | 'lock' | 'move';
export const postAction = (row: Post, verb: PostVerb, body: Record<string, unknown> = {}) =>
  posts.action<Post>(row.id, verb, { ...body, version: row.version });

/** The verbs that need a reason (or a comment) typed in a dialog. */
export const REASONED: Partial<Record<PostVerb, 'reason' | 'comment'>> = {
  reject: 'comment',
  hide: 'reason',
  delete: 'reason',
};

export const POST_STATUS_COLOURS: Record<Post['status'], string> = {
  draft: 'default',
  pending_review: 'processing',
  published: 'success',
  rejected: 'error',
  hidden: 'warning',
  deleted: 'default',
};
const FORM = ['boardId', 'title', 'contentHtml'] as const;

/**
 * Posts (docs/domain.md §5.5): /post/list, API community/post, permission prefix community:post; profile
 * /post/:id/profile/ with the text, the thread, its reports and its timeline.
 */
export const postDescriptor = describeResource<Post, CreatePost, UpdatePost>('community/post', (column) => ({
  auditType: 'post',
  profile: (row) => `/post/${row.id}/profile/`,
  recordName: (row) => row.title,
  formLayout: 'DrawerForm',
  allows: (row, action) =>
    action === 'delete' ? ['deleted', 'rejected', 'draft'].includes(row.status) : row.status !== 'deleted',
  form: { create: [...FORM], update: ['title', 'contentHtml'] },
  columns: [
    column('keyword', { searchOnly: true }),
    column('title', {
      hideInSearch: true,
      sorter: true,
      required: true,
      render: (_dom, row) => (
        <Space size={4}>
          <Link to={`/post/${row.id}/profile/`}>{row.title}</Link>
          {row.isPinned && (
            <Tag color="red">
              <FormattedMessage id="community.post.isPinned" />
            </Tag>
          )}
          {row.isFeatured && (
            <Tag color="gold">
              <FormattedMessage id="community.post.isFeatured" />
            </Tag>
          )}
          {row.isLocked && (
            <Tag>
              <FormattedMessage id="community.post.isLocked" />
            </Tag>
          )}
        </Space>
      ),
    }),
    column('boardId', {
      valueType: 'select',
      hideInTable: true,
      hideInDescriptions: true,
      request: () => boardChoices(),
      required: true,
      formDisabled: (row) => Boolean(row),
    }),
    column('boardName', { hideInSearch: true, hideInForm: true }),
    column('authorName', { hideInSearch: true, hideInForm: true }),
    column('status', {
      hideInForm: true,
      options: (Object.keys(POST_STATUS_COLOURS) as Post['status'][]).map((value) => ({
        value,
        labelId: `community.post.status.${value}`,
        color: POST_STATUS_COLOURS[value],
      })),
    }),
    column('contentHtml', {
      hideInTable: true,
      hideInSearch: true,
      hideInDescriptions: true,
      renderFormItem: (schema) => <LazyRichTextEditor {...(schema.fieldProps as object)} />,
      required: true,
    }),
    column('replyCount', { hideInSearch: true, hideInForm: true }),
    column('reportCount', { hideInSearch: true, hideInForm: true }),
    column('viewCount', { hideInSearch: true, hideInForm: true, hideInTable: true }),
    column('reviewComment', { hideInSearch: true, hideInForm: true, hideInTable: true }),
    column('hiddenReason', { hideInSearch: true, hideInForm: true, hideInTable: true }),
    column('lastReplyAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
    column('createdAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
  ],
}));
