import { z } from '@hono/zod-openapi';
import { type RawBuilder, sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { createdAtFilter } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import type { Audited, Defaulted, Id as IdColumn, Nullable, NullableTimestamp, Ref } from '../../../db/types';

/** Posts and their replies (docs/domain.md §5.5): threads of a board, moderated. */
export const POST_STATUSES = ['draft', 'pending_review', 'published', 'rejected', 'hidden', 'deleted'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
export const REPLY_STATUSES = ['published', 'hidden', 'deleted'] as const;
export type ReplyStatus = (typeof REPLY_STATUSES)[number];
export const AUTHOR_TYPES = ['trainee', 'doctor', 'staff', 'admin'] as const;
export type AuthorType = (typeof AUTHOR_TYPES)[number];

interface PostTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  board_id: Ref;
  author_type: AuthorType;
  author_id: Ref;
  title: string;
  content_html: string;
  content_text: Nullable<string>;
  attachment_file_ids: Defaulted<string[]>;
  status: Defaulted<PostStatus>;
  is_pinned: Defaulted<boolean>;
  pinned_until: NullableTimestamp;
  is_featured: Defaulted<boolean>;
  is_locked: Defaulted<boolean>;
  view_count: Defaulted<number>;
  like_count: Defaulted<number>;
  last_reply_at: NullableTimestamp;
  review_comment: Nullable<string>;
  reviewed_by: Nullable<Ref>;
  reviewed_at: NullableTimestamp;
  hidden_reason: Nullable<string>;
  client_ip: Nullable<string>;
}
interface PostReplyTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  post_id: Ref;
  parent_reply_id: Nullable<Ref>;
  author_type: AuthorType;
  author_id: Ref;
  content_html: string;
  content_text: Nullable<string>;
  attachment_file_ids: Defaulted<string[]>;
  status: Defaulted<ReplyStatus>;
  hidden_reason: Nullable<string>;
  like_count: Defaulted<number>;
  client_ip: Nullable<string>;
}
declare module '../../../db/types' {
  interface DB {
    post: PostTable;
    post_reply: PostReplyTable;
  }
}

/** The display name of the author a row (alias `t`) names by `author_type` / `author_id`. */
export const authorName = (t: string): RawBuilder<string | null> => {
  const id = sql.ref(`${t}.author_id`);
  return sql`CASE ${sql.ref(`${t}.author_type`)}
    WHEN 'admin' THEN (SELECT au_.display_name FROM admin_user au_ WHERE au_.id = ${id})
    WHEN 'doctor' THEN (SELECT pe_.name FROM doctor dr_ JOIN person pe_ ON pe_.id = dr_.person_id WHERE dr_.id = ${id})
    WHEN 'trainee' THEN (SELECT pe_.name FROM trainee tr_ JOIN person pe_ ON pe_.id = tr_.person_id WHERE tr_.id = ${id})
    WHEN 'staff' THEN (SELECT pe_.name FROM staff st_ JOIN person pe_ ON pe_.id = st_.person_id WHERE st_.id = ${id})
  END`;
};

export const Post = recordRow({
  boardId: z.string(),
  boardName: z.string().nullable(),
  authorType: z.enum(AUTHOR_TYPES),
  authorId: z.string(),
  authorName: z.string().nullable(),
  title: z.string(),
  contentHtml: z.string().openapi({ description: 'Sanitised by the server' }),
  attachmentFileIds: z.array(z.string()),
  status: z.enum(POST_STATUSES),
  isPinned: z.boolean(),
  pinnedUntil: z.string().nullable(),
  isFeatured: z.boolean(),
  isLocked: z.boolean().openapi({ description: 'No new replies' }),
  viewCount: z.number().int(),
  likeCount: z.number().int(),
  replyCount: z.number().int(),
  reportCount: z.number().int(),
  lastReplyAt: z.string().nullable(),
  reviewComment: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  hiddenReason: z.string().nullable().openapi({ description: 'Why it was hidden or deleted (shown to the author)' }),
}).openapi('Post');
export type Post = z.infer<typeof Post>;

const html = z
  .string()
  .max(500_000)
  .openapi({ description: 'Rich text; the server keeps only safe markup (no scripts, no event handlers)' });
const attachments = z.array(ref('file')).max(20);
const fields = {
  boardId: ref('board'),
  title: field.requiredText(120),
  contentHtml: html,
  attachmentFileIds: attachments.optional(),
};
export const CreatePost = requestBody('CreatePost', fields);
export type CreatePost = z.infer<typeof CreatePost>;
export const UpdatePost = updateBody('UpdatePost', {
  title: fields.title.optional(),
  contentHtml: html.optional(),
  attachmentFileIds: attachments.optional(),
});
export type UpdatePost = z.infer<typeof UpdatePost>;

export const PostAction = requestBody('PostAction', { version: Version });
const reason = z.string().trim().min(1).max(200);
export const PostReject = requestBody('RejectPost', {
  comment: z.string().trim().min(1).max(500).openapi({ description: 'Why, shown to the author' }),
  version: Version,
});
export const PostReason = requestBody('PostModeration', {
  reason: reason.openapi({ description: 'Why, shown to the author' }),
  version: Version,
});
export const PostPin = requestBody('PinPost', {
  pinned: z.boolean(),
  pinnedUntil: z.iso.datetime({ offset: true }).nullable().optional(),
  version: Version,
});
export type PostPin = z.infer<typeof PostPin>;
export const PostFlag = (name: string) => requestBody(name, { on: z.boolean(), version: Version });
export const PostMove = requestBody('MovePost', { boardId: ref('board'), version: Version });

export const Reply = z
  .object({
    id: z.string(),
    postId: z.string(),
    parentReplyId: z.string().nullable(),
    authorType: z.enum(AUTHOR_TYPES),
    authorId: z.string(),
    authorName: z.string().nullable(),
    contentHtml: z.string(),
    attachmentFileIds: z.array(z.string()),
    status: z.enum(REPLY_STATUSES),
    hiddenReason: z.string().nullable(),
    likeCount: z.number().int(),
    createdAt: z.string(),
    version: z.number().int(),
  })
  .openapi('PostReply');
export type Reply = z.infer<typeof Reply>;
export const ReplyThread = Reply.extend({ replies: z.array(Reply) }).openapi('PostReplyThread');
export type ReplyThread = z.infer<typeof ReplyThread>;
export const CreateReply = requestBody('CreatePostReply', {
  contentHtml: html,
  parentReplyId: ref('post_reply')
    .nullable()
    .optional()
    .openapi({ description: 'A top-level reply of the post (one level deep)' }),
  attachmentFileIds: attachments.optional(),
});
export type CreateReply = z.infer<typeof CreateReply>;
export const ReplyReason = requestBody('PostReplyModeration', { reason, version: Version });
export const ReplyAction = requestBody('PostReplyAction', { version: Version });

export const postResource = defineResource({
  path: 'community/post',
  permission: 'community:post',
  schemas: { row: Post, create: CreatePost, update: UpdatePost },
  table: {
    name: 'post',
    columns: columnsOf(Post, { except: ['boardName', 'authorName', 'replyCount', 'reportCount'] }),
    writeOnly: { contentText: 'content_text', clientIp: 'client_ip' },
    tenantOwned: true,
    computed: {
      boardName: sql`(SELECT b.name FROM board b WHERE b.id = post.board_id)`,
      authorName: authorName('post'),
      replyCount: sql`(SELECT count(*)::int FROM post_reply r WHERE r.post_id = post.id AND r.status = 'published')`,
      reportCount: sql`(SELECT count(*)::int FROM report r WHERE r.target_type = 'post' AND r.target_id = post.id)`,
    },
  },
  list: {
    sort: ['title', 'createdAt', 'lastReplyAt', 'viewCount'],
    defaultSort: '-createdAt',
    filters: {
      keyword: { kind: 'keyword', columns: ['title'] },
      boardId: { kind: 'in', column: 'board_id', pattern: /^[1-9]\d{0,17}$/ },
      status: { kind: 'in', column: 'status', values: POST_STATUSES },
      authorType: { kind: 'in', column: 'author_type', values: AUTHOR_TYPES },
      isPinned: { kind: 'eq', column: 'is_pinned', values: ['true', 'false'] },
      isFeatured: { kind: 'eq', column: 'is_featured', values: ['true', 'false'] },
      createdAt: createdAtFilter,
    },
  },
  label: (row) => row.title,
  columns: [
    { key: 'title' },
    { key: 'boardName', only: 'export' },
    { key: 'authorName', only: 'export' },
    { key: 'status' },
    { key: 'replyCount', only: 'export' },
    { key: 'reportCount', only: 'export' },
    { key: 'createdAt', only: 'export' },
  ],
});
