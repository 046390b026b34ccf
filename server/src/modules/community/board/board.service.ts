import { sql } from 'kysely';
import { AppError, invalidField, notFound, versionConflict } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps, versionedAct } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import {
  type Board,
  type BoardStatus,
  boardResource,
  type CreateBoard,
  type ModeratorRow,
  type ModeratorSubject,
  type Reorder,
  type SetModerators,
  type UpdateBoard,
} from './board.resource';

const texts = {
  'zh-CN': {
    codeTaken: '该编码已被其他版块使用',
    noParent: '上级版块不存在或不是顶级版块',
    selfParent: '不能以自身为上级版块',
    hasChildren: '该版块下有子版块，不能再设上级版块',
    noBoard: '包含不存在的版块',
    noSubject: '版主不存在',
  },
  'en-US': {
    codeTaken: 'is used by another board',
    noParent: 'is not an existing top-level board',
    selfParent: 'cannot be the board itself',
    hasChildren: 'a board with boards under it stays at the top',
    noBoard: 'names a board that does not exist',
    noSubject: 'is not an existing user of this type',
  },
};

/** Where a moderator lives. */
const SUBJECTS: Record<ModeratorSubject, 'admin_user' | 'doctor'> = { admin_user: 'admin_user', doctor: 'doctor' };

/**
 * Boards' rules (docs/domain.md §5.4): code unique in the tenant, one level of grouping (a parent is a top-level
 * board), a board holding posts is not deleted; opened, locked or archived; reordered as a whole list; its moderators
 * written as a whole.
 */
export function createBoardService(deps: ResourceDeps) {
  const { store: plain, repository } = boardResource;

  async function check(tx: Tx, input: Partial<CreateBoard>, self: string | undefined, lang: Lang) {
    const t = texts[lang];
    if (input.code !== undefined) {
      const other = await repository.findBy(tx, 'code', input.code);
      if (other && other.id !== self) throw invalidField('code', t.codeTaken);
    }
    if (input.parentId) {
      if (input.parentId === self) throw invalidField('parentId', t.selfParent);
      const parent = await repository.find(tx, input.parentId);
      if (!parent || parent.parentId) throw invalidField('parentId', t.noParent);
      if (self) {
        const child = await tx.selectFrom('board').select('id').where('parent_id', '=', self).executeTakeFirst();
        if (child) throw invalidField('parentId', t.hasChildren);
      }
    }
  }

  const store: ResourceStore<Board, CreateBoard, UpdateBoard> = {
    ...plain,
    createMany: undefined,
    async create(tx, input, ctx) {
      await check(tx, input, undefined, ctx.lang);
      const made = await plain.create(tx, input, ctx);
      return (await repository.find(tx, made.id)) as Board;
    },
    async update(tx, current, input, ctx) {
      await check(tx, input, current.id, ctx.lang);
      const updated = await plain.update(tx, current, input, ctx);
      return updated && ((await repository.find(tx, current.id)) as Board);
    },
    async remove(tx, rows, ctx) {
      for (const row of rows) {
        const held = await tx
          .selectFrom('post')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('board_id', '=', row.id)
          .executeTakeFirstOrThrow();
        if (held.n > 0) throw new AppError('board.inUse', { name: row.name, count: held.n });
        const child = await tx.selectFrom('board').select('name').where('parent_id', '=', row.id).executeTakeFirst();
        if (child && !rows.some((r) => r.parentId === row.id))
          throw new AppError('board.inUse', { name: row.name, count: 0 });
      }
      const ids = rows.map((r) => r.id);
      await tx.deleteFrom('board').where('parent_id', 'in', ids).execute();
      return plain.remove(tx, rows, ctx);
    },
  };

  const resource = createResourceService(boardResource, store, deps);
  const act = versionedAct(resource, repository, (tx, id) => repository.find(tx, id));

  async function moderatorsOf(tx: Tx, id: string): Promise<ModeratorRow[]> {
    const { rows } = await sql<ModeratorRow>`SELECT m.subject_type AS "subjectType", m.subject_id::text AS "subjectId",
        CASE m.subject_type
          WHEN 'admin_user' THEN (SELECT u.display_name FROM admin_user u WHERE u.id = m.subject_id)
          WHEN 'doctor' THEN (SELECT p.name FROM doctor d JOIN person p ON p.id = d.person_id WHERE d.id = m.subject_id)
        END AS "subjectName"
      FROM board_moderator m WHERE m.board_id = ${id} ORDER BY m.id`.execute(tx);
    return rows;
  }

  return {
    resource,

    /** Open, locked (read-only: no new posts or replies) or archived (closed, kept). */
    setStatus: (ctx: WriteContext, id: string, status: BoardStatus, version: number) =>
      act(ctx, id, 'update', version, async () => ({ status })),

    /** Every board named gets its place in the order given (sort 0, 1, 2 …), all or nothing. */
    reorder: (ctx: WriteContext, input: Reorder) =>
      deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
        const ids = [...new Set(input.ids)];
        const found = await tx.selectFrom('board').select('id').where('id', 'in', ids).execute();
        if (found.length !== ids.length || ids.length !== input.ids.length)
          throw invalidField('ids', texts[ctx.lang].noBoard);
        for (const [sort, id] of ids.entries())
          await tx
            .updateTable('board')
            .set({ sort, updated_at: ctx.now, updated_by: ctx.actorId, version: sql`version + 1` })
            .where('id', '=', id)
            .execute();
        await deps.audit.record(tx, ctx, {
          action: 'community:board:reorder',
          resourceType: 'board',
          resourceId: null,
          summary: '',
          after: ids,
        });
        return { updated: ids.length };
      }),

    moderators: (tenantId: string, id: string) =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        if (!(await repository.find(tx, id))) throw notFound();
        return moderatorsOf(tx, id);
      }),

    /** Replaces the board's moderators; each must be a user (or doctor) of the tenant, refused naming its place. */
    setModerators(ctx: WriteContext, id: string, { moderators, version }: SetModerators) {
      let after: ModeratorRow[] = [];
      return resource
        .act(
          ctx,
          id,
          'update',
          async (tx, row) => {
            if (row.version !== version) throw versionConflict();
            for (const [i, m] of moderators.entries()) {
              const found = await tx
                .selectFrom(SUBJECTS[m.subjectType])
                .select('id')
                .where('id', '=', m.subjectId)
                .executeTakeFirst();
              if (!found) throw invalidField(`moderators.${i}.subjectId`, texts[ctx.lang].noSubject);
            }
            await tx.deleteFrom('board_moderator').where('board_id', '=', id).execute();
            const unique = new Map(moderators.map((m) => [`${m.subjectType}:${m.subjectId}`, m]));
            if (unique.size > 0)
              await tx
                .insertInto('board_moderator')
                .values(
                  [...unique.values()].map((m) => ({
                    tenant_id: ctx.tenantId,
                    board_id: id,
                    subject_type: m.subjectType,
                    subject_id: m.subjectId,
                  })),
                )
                .execute();
            await repository.update(tx, id, {}, ctx);
            after = await moderatorsOf(tx, id);
            return (await repository.find(tx, id)) as Board;
          },
          () => `${moderators.length} moderators`,
        )
        .then((board) => ({ board, moderators: after }));
    },
  };
}

export type BoardService = ReturnType<typeof createBoardService>;
