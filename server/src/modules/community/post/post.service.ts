import { sql } from 'kysely';
import { AppError, invalidField, notFound, versionConflict } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps, versionedAct } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import { cleanRichText } from '../../content/document/rich-text';
import { claimFiles, releaseFiles } from '../../file/attachments';
import { refuseMuted } from '../mute';
import {
  authorName,
  type CreatePost,
  type CreateReply,
  type Post,
  type PostPin,
  type PostStatus,
  postResource,
  type Reply,
  type ReplyStatus,
  type ReplyThread,
  type UpdatePost,
} from './post.resource';

const texts = {
  'zh-CN': {
    noBoard: '版块不存在',
    noContent: '请填写正文',
    noParent: '所回复的回复不存在，或已是楼中楼（只支持一层）',
    past: '须晚于当前时间',
    sameBoard: '帖子已在该版块',
  },
  'en-US': {
    noBoard: 'is not an existing board',
    noContent: 'write the text',
    noParent: 'is not a top-level reply of this post (replies nest one level deep)',
    past: 'must be in the future',
    sameBoard: 'the post is already on this board',
  },
};

/** A post not deleted: still pinned, featured, locked or moved. */
const LIVE: PostStatus[] = ['draft', 'pending_review', 'published', 'rejected', 'hidden'];

const POST_FILES = 'post.attachment';
const REPLY_FILES = 'post_reply.attachment';

/** The rich text as kept: sanitised HTML and its plain text; nothing left of it is refused on `contentHtml`. */
function contentOf(html: string, lang: Lang) {
  const clean = cleanRichText(html);
  if (!clean.html || (clean.text === null && !clean.html.includes('<img')))
    throw invalidField('contentHtml', texts[lang].noContent);
  return { html: clean.html, text: clean.text };
}

/** A board of the tenant that takes new posts (or replies): open, not locked or archived. */
async function openBoard(tx: Tx, boardId: string, lang: Lang) {
  const board = await tx
    .selectFrom('board')
    .select(['status', 'moderation_mode'])
    .where('id', '=', boardId)
    .executeTakeFirst();
  if (!board) throw invalidField('boardId', texts[lang].noBoard);
  if (board.status !== 'open') throw new AppError('board.closed', { status: board.status });
  return board;
}

const replyColumns = (tx: Tx) =>
  tx
    .selectFrom('post_reply as r')
    .select([
      sql<string>`r.id::text`.as('id'),
      sql<string>`r.post_id::text`.as('postId'),
      sql<string | null>`r.parent_reply_id::text`.as('parentReplyId'),
      'r.author_type as authorType',
      sql<string>`r.author_id::text`.as('authorId'),
      authorName('r').as('authorName'),
      'r.content_html as contentHtml',
      sql<string[]>`r.attachment_file_ids::text[]`.as('attachmentFileIds'),
      'r.status',
      'r.hidden_reason as hiddenReason',
      'r.like_count as likeCount',
      sql<string>`to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('createdAt'),
      'r.version',
    ]);

export async function findReply(tx: Tx, id: string): Promise<Reply | undefined> {
  return (await replyColumns(tx).where('r.id', '=', id).executeTakeFirst()) as Reply | undefined;
}

/**
 * A post or reply hidden (or deleted) by moderation, or shown again: the record's status and reason, its stamp moved
 * on. Used by the post's own moderation and by the report cases. Answers whether it changed.
 */
export async function setContentStatus(
  tx: Tx,
  ctx: WriteContext,
  target: { type: 'post' | 'reply'; id: string },
  status: 'published' | 'hidden' | 'deleted',
  reason: string | null,
  onlyFrom: readonly string[],
): Promise<boolean> {
  const stamp = { updated_at: ctx.now, updated_by: ctx.actorId, version: sql<number>`version + 1` };
  const changed =
    target.type === 'post'
      ? await tx
          .updateTable('post')
          .set({ status, hidden_reason: reason, ...stamp })
          .where('id', '=', target.id)
          .where('status', 'in', onlyFrom as PostStatus[])
          .executeTakeFirst()
      : await tx
          .updateTable('post_reply')
          .set({ status, hidden_reason: reason, ...stamp })
          .where('id', '=', target.id)
          .where('status', 'in', onlyFrom as ReplyStatus[])
          .executeTakeFirst();
  return Number(changed.numUpdatedRows) > 0;
}

/**
 * Posts' rules (docs/domain.md §5.5): written by the console's user as an `admin` author on an open board, the text
 * sanitised on the server; held for approval on a pre-moderated board; approved or rejected (with a comment), hidden,
 * restored and deleted with a reason; pinned, featured, locked (no new replies), moved. Replies nest one level deep,
 * only on a published, unlocked post of an open board. A post is purged (DELETE) only once deleted or rejected.
 */
export function createPostService(deps: ResourceDeps) {
  const { store: plain, repository } = postResource;
  const find = (tx: Tx, id: string) => repository.find(tx, id);

  const refuseUnless = (row: Post, ...allowed: PostStatus[]) => {
    if (!allowed.includes(row.status)) throw new AppError('post.notAllowed', { status: row.status });
  };

  const store: ResourceStore<Post, CreatePost, UpdatePost> = {
    ...plain,
    createMany: undefined,
    async create(tx, input, ctx) {
      await refuseMuted(tx, ctx);
      const board = await openBoard(tx, input.boardId, ctx.lang);
      const { html, text } = contentOf(input.contentHtml, ctx.lang);
      const made = await repository.insert(
        tx,
        {
          boardId: input.boardId,
          title: input.title,
          contentHtml: html,
          contentText: text,
          attachmentFileIds: input.attachmentFileIds ?? [],
          authorType: 'admin',
          authorId: ctx.actorId,
          status: board.moderation_mode === 'pre_moderation' ? 'pending_review' : 'published',
          clientIp: ctx.ip,
        },
        ctx,
      );
      await claimFiles(
        tx,
        { bizType: POST_FILES, bizId: made.id },
        input.attachmentFileIds ?? [],
        'attachmentFileIds',
        ctx.lang,
      );
      return (await find(tx, made.id)) as Post;
    },
    async update(tx, current, input, ctx) {
      if (current.status === 'deleted') throw new AppError('post.notAllowed', { status: current.status });
      const { version, contentHtml, ...values } = input;
      const out: Record<string, unknown> = { ...values };
      if (contentHtml !== undefined) {
        const { html, text } = contentOf(contentHtml, ctx.lang);
        out.contentHtml = html;
        out.contentText = text;
      }
      const updated = await repository.update(tx, current.id, out, ctx, version);
      if (!updated) return undefined;
      if (input.attachmentFileIds)
        await claimFiles(
          tx,
          { bizType: POST_FILES, bizId: current.id },
          input.attachmentFileIds,
          'attachmentFileIds',
          ctx.lang,
        );
      return find(tx, current.id);
    },
    async remove(tx, rows, ctx) {
      for (const row of rows) refuseUnless(row, 'deleted', 'rejected', 'draft');
      const ids = rows.map((r) => r.id);
      const replies = await tx.selectFrom('post_reply').select('id').where('post_id', 'in', ids).execute();
      await releaseFiles(
        tx,
        REPLY_FILES,
        replies.map((r) => String(r.id)),
      );
      await releaseFiles(tx, POST_FILES, ids);
      await repository.remove(tx, ids, ctx);
    },
  };

  const resource = createResourceService(postResource, store, deps);
  const act = versionedAct(resource, repository, find);

  const moderation = (ctx: WriteContext) => ({ reviewedBy: ctx.actorId, reviewedAt: ctx.now.toISOString() });

  async function replyOf(tx: Tx, id: string, version: number) {
    const reply = await findReply(tx, id);
    if (!reply) throw notFound();
    if (reply.version !== version) throw versionConflict();
    return reply;
  }

  /** A reply hidden, shown again or deleted, audited on its post's timeline. */
  const moderateReply = (
    ctx: WriteContext,
    id: string,
    version: number,
    status: 'published' | 'hidden' | 'deleted',
    reason: string | null,
    from: ReplyStatus[],
  ) =>
    deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
      const before = await replyOf(tx, id, version);
      if (!from.includes(before.status)) throw new AppError('post.notAllowed', { status: before.status });
      await setContentStatus(tx, ctx, { type: 'reply', id }, status, reason, from);
      const after = (await findReply(tx, id)) as Reply;
      await deps.audit.record(tx, ctx, {
        action: 'community:post:moderate',
        resourceType: 'post',
        resourceId: before.postId,
        // before and after hold the reply's statuses
        summary: reason ?? '',
        before,
        after,
      });
      return after;
    });

  return {
    resource,

    approve: (ctx: WriteContext, id: string, version: number) =>
      act(ctx, id, 'moderate', version, async (_tx, row) => {
        refuseUnless(row, 'pending_review');
        return { status: 'published', reviewComment: null, ...moderation(ctx) };
      }),

    reject: (ctx: WriteContext, id: string, version: number, comment: string) =>
      act(ctx, id, 'moderate', version, async (_tx, row) => {
        refuseUnless(row, 'pending_review');
        return { status: 'rejected', reviewComment: comment, ...moderation(ctx) };
      }),

    hide: (ctx: WriteContext, id: string, version: number, reason: string) =>
      act(ctx, id, 'moderate', version, async (_tx, row) => {
        refuseUnless(row, 'published');
        return { status: 'hidden', hiddenReason: reason };
      }),

    restore: (ctx: WriteContext, id: string, version: number) =>
      act(ctx, id, 'moderate', version, async (_tx, row) => {
        refuseUnless(row, 'hidden', 'deleted');
        return { status: 'published', hiddenReason: null };
      }),

    delete: (ctx: WriteContext, id: string, version: number, reason: string) =>
      act(ctx, id, 'moderate', version, async (_tx, row) => {
        refuseUnless(row, ...LIVE);
        return { status: 'deleted', hiddenReason: reason };
      }),

    pin: (ctx: WriteContext, id: string, input: PostPin) =>
      act(ctx, id, 'pin', input.version, async (_tx, row) => {
        refuseUnless(row, ...LIVE);
        if (input.pinnedUntil && new Date(input.pinnedUntil).getTime() <= ctx.now.getTime())
          throw invalidField('pinnedUntil', texts[ctx.lang].past);
        return { isPinned: input.pinned, pinnedUntil: input.pinned ? (input.pinnedUntil ?? null) : null };
      }),

    feature: (ctx: WriteContext, id: string, on: boolean, version: number) =>
      act(ctx, id, 'feature', version, async (_tx, row) => {
        refuseUnless(row, ...LIVE);
        return { isFeatured: on };
      }),

    lock: (ctx: WriteContext, id: string, on: boolean, version: number) =>
      act(ctx, id, 'lock', version, async (_tx, row) => {
        refuseUnless(row, ...LIVE);
        return { isLocked: on };
      }),

    /** To another board of the tenant that is not archived. */
    move: (ctx: WriteContext, id: string, boardId: string, version: number) =>
      act(ctx, id, 'move', version, async (tx, row) => {
        refuseUnless(row, ...LIVE);
        if (row.boardId === boardId) throw invalidField('boardId', texts[ctx.lang].sameBoard);
        const board = await tx.selectFrom('board').select('status').where('id', '=', boardId).executeTakeFirst();
        if (!board) throw invalidField('boardId', texts[ctx.lang].noBoard);
        if (board.status === 'archived') throw new AppError('board.closed', { status: board.status });
        return { boardId };
      }),

    /** The thread: top-level replies in order, each with its replies (every status: the console moderates them). */
    replies: (tenantId: string, id: string) =>
      deps.tenancy.inTenant(tenantId, async (tx): Promise<ReplyThread[]> => {
        if (!(await find(tx, id))) throw notFound();
        const rows = (await replyColumns(tx)
          .where('r.post_id', '=', id)
          .orderBy('r.created_at')
          .orderBy('r.id')
          .execute()) as Reply[];
        const threads = rows.filter((r) => !r.parentReplyId).map((r) => ({ ...r, replies: [] as Reply[] }));
        const byId = new Map(threads.map((t) => [t.id, t]));
        for (const r of rows) if (r.parentReplyId) byId.get(r.parentReplyId)?.replies.push(r);
        return threads;
      }),

    /** A reply as the console's user (`admin` author): to the post, or to one of its top-level replies. */
    reply: (ctx: WriteContext, id: string, input: CreateReply) =>
      deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
        const post = await find(tx, id);
        if (!post) throw notFound();
        refuseUnless(post, 'published');
        if (post.isLocked) throw new AppError('post.locked');
        await openBoard(tx, post.boardId, ctx.lang);
        await refuseMuted(tx, ctx);
        if (input.parentReplyId) {
          const parent = await tx
            .selectFrom('post_reply')
            .select('parent_reply_id')
            .where('id', '=', input.parentReplyId)
            .where('post_id', '=', id)
            .executeTakeFirst();
          if (!parent || parent.parent_reply_id !== null) throw invalidField('parentReplyId', texts[ctx.lang].noParent);
        }
        const { html, text } = contentOf(input.contentHtml, ctx.lang);
        const made = await tx
          .insertInto('post_reply')
          .values({
            tenant_id: ctx.tenantId,
            post_id: id,
            parent_reply_id: input.parentReplyId ?? null,
            author_type: 'admin',
            author_id: ctx.actorId,
            content_html: html,
            content_text: text,
            attachment_file_ids: input.attachmentFileIds ?? [],
            client_ip: ctx.ip,
            created_at: ctx.now,
            created_by: ctx.actorId,
          })
          .returning(sql<string>`id::text`.as('id'))
          .executeTakeFirstOrThrow();
        await claimFiles(
          tx,
          { bizType: REPLY_FILES, bizId: made.id },
          input.attachmentFileIds ?? [],
          'attachmentFileIds',
          ctx.lang,
        );
        await tx.updateTable('post').set({ last_reply_at: ctx.now }).where('id', '=', id).execute();
        const after = (await findReply(tx, made.id)) as Reply;
        await deps.audit.record(tx, ctx, {
          action: 'community:post:create',
          resourceType: 'post',
          resourceId: id,
          summary: `reply ${made.id}${input.parentReplyId ? ` → ${input.parentReplyId}` : ''}`,
          after,
        });
        return after;
      }),

    hideReply: (ctx: WriteContext, id: string, version: number, reason: string) =>
      moderateReply(ctx, id, version, 'hidden', reason, ['published']),
    restoreReply: (ctx: WriteContext, id: string, version: number) =>
      moderateReply(ctx, id, version, 'published', null, ['hidden', 'deleted']),
    deleteReply: (ctx: WriteContext, id: string, version: number, reason: string) =>
      moderateReply(ctx, id, version, 'deleted', reason, ['published', 'hidden']),
  };
}

export type PostService = ReturnType<typeof createPostService>;
