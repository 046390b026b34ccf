import { z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { ref, refBy } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { Id } from '../../../core/resource/id-param';
import { createdAtFilter } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import type { Audited, Defaulted, Id as IdColumn, Json, Nullable, Ref } from '../../../db/types';

/** Boards (docs/domain.md §5.4): where posts are written, open, locked (read-only) or archived. */
export const BOARD_STATUSES = ['open', 'locked', 'archived'] as const;
export type BoardStatus = (typeof BOARD_STATUSES)[number];
export const POST_POLICIES = ['everyone', 'staff_only', 'selected_roles'] as const;
export const MODERATION_MODES = ['post_moderation', 'pre_moderation'] as const;
export type ModerationMode = (typeof MODERATION_MODES)[number];
export const MODERATOR_SUBJECTS = ['admin_user', 'doctor'] as const;
export type ModeratorSubject = (typeof MODERATOR_SUBJECTS)[number];

interface BoardTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  parent_id: Nullable<Ref>;
  code: string;
  name: string;
  description: Nullable<string>;
  icon_file_id: Nullable<Ref>;
  audience: Json;
  post_policy: Defaulted<(typeof POST_POLICIES)[number]>;
  moderation_mode: Defaulted<ModerationMode>;
  allow_anonymous: Defaulted<boolean>;
  status: Defaulted<BoardStatus>;
  sort: Defaulted<number>;
  remark: Nullable<string>;
}
interface BoardModeratorTable {
  id: IdColumn;
  tenant_id: Ref;
  board_id: Ref;
  subject_type: ModeratorSubject;
  subject_id: Ref;
}
declare module '../../../db/types' {
  interface DB {
    board: BoardTable;
    board_moderator: BoardModeratorTable;
  }
}

const Audience = z
  .object({
    traineeTypeIds: z.array(ref('trainee_type')).max(200),
    orgIds: z.array(ref('organization')).max(200),
  })
  .strict()
  .openapi('BoardAudience', { description: 'Who sees the board; both empty: everyone' });

export const Board = recordRow({
  parentId: z.string().nullable(),
  parentName: z.string().nullable(),
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  iconFileId: z.string().nullable(),
  audience: z.object({ traineeTypeIds: z.array(z.string()), orgIds: z.array(z.string()) }),
  postPolicy: z.enum(POST_POLICIES),
  moderationMode: z.enum(MODERATION_MODES).openapi({
    description: '`pre_moderation`: new posts wait for approval; `post_moderation`: published at once',
  }),
  allowAnonymous: z.boolean(),
  status: z.enum(BOARD_STATUSES).openapi({ description: '`locked`: read-only; `archived`: closed and put away' }),
  sort: z.number().int(),
  remark: z.string().nullable(),
  postCount: z.number().int(),
  pendingCount: z.number().int(),
  lastPostAt: z.string().nullable(),
  moderatorCount: z.number().int(),
}).openapi('Board');
export type Board = z.infer<typeof Board>;

const code = field.code().openapi({ example: 'cases' });
const fields = {
  parentId: ref('board').nullable().optional().openapi({ description: 'A top-level board grouping this one' }),
  code,
  name: field.requiredText(50),
  description: field.optionalText(500),
  iconFileId: ref('file').nullable().optional(),
  audience: Audience.optional(),
  postPolicy: z.enum(POST_POLICIES).optional(),
  moderationMode: z.enum(MODERATION_MODES).optional(),
  allowAnonymous: z.boolean().optional(),
  status: z.enum(BOARD_STATUSES).optional(),
  sort: field.sortOrder().optional(),
  remark: field.remark,
};
export const CreateBoard = requestBody('CreateBoard', fields);
export type CreateBoard = z.infer<typeof CreateBoard>;
export const UpdateBoard = updateBody('UpdateBoard', {
  ...fields,
  code: code.optional(),
  name: fields.name.optional(),
});
export type UpdateBoard = z.infer<typeof UpdateBoard>;

export const SetBoardStatus = requestBody('SetBoardStatus', { status: z.enum(BOARD_STATUSES), version: Version });
export const Reorder = requestBody('ReorderBoards', {
  ids: z.array(Id).min(1).max(500).openapi({ description: 'Boards in their new order (sort 0, 1, 2 …)' }),
});
export type Reorder = z.infer<typeof Reorder>;
export const ReorderResult = z.object({ updated: z.number().int() }).openapi('BoardReorderResult');

export const Moderator = z
  .object({
    subjectType: z.enum(MODERATOR_SUBJECTS),
    subjectId: refBy('subjectType', { admin_user: 'admin_user', doctor: 'doctor' }),
  })
  .strict()
  .openapi('BoardModeratorInput');
export const ModeratorRow = z
  .object({ subjectType: z.enum(MODERATOR_SUBJECTS), subjectId: z.string(), subjectName: z.string().nullable() })
  .openapi('BoardModerator');
export type ModeratorRow = z.infer<typeof ModeratorRow>;
export const SetModerators = requestBody('SetBoardModerators', {
  moderators: z.array(Moderator).max(100).openapi({ description: 'Every moderator of the board (replaces them)' }),
  version: Version,
});
export type SetModerators = z.infer<typeof SetModerators>;

const posts = (where: string) => sql`(SELECT count(*)::int FROM post p WHERE p.board_id = board.id${sql.raw(where)})`;

export const boardResource = defineResource({
  path: 'community/board',
  permission: 'community:board',
  schemas: { row: Board, create: CreateBoard, update: UpdateBoard },
  table: {
    name: 'board',
    columns: columnsOf(Board, {
      except: ['parentName', 'postCount', 'pendingCount', 'lastPostAt', 'moderatorCount'],
    }),
    json: ['audience'],
    tenantOwned: true,
    computed: {
      parentName: sql`(SELECT b.name FROM board b WHERE b.id = board.parent_id)`,
      postCount: posts(" AND p.status NOT IN ('deleted', 'draft')"),
      pendingCount: posts(" AND p.status = 'pending_review'"),
      lastPostAt: sql`(SELECT to_char(max(p.created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        FROM post p WHERE p.board_id = board.id)`,
      moderatorCount: sql`(SELECT count(*)::int FROM board_moderator m WHERE m.board_id = board.id)`,
    },
  },
  list: {
    sort: ['code', 'name', 'sort', 'createdAt'],
    defaultSort: 'sort,code',
    filters: {
      keyword: { kind: 'keyword', columns: ['code', 'name'] },
      status: { kind: 'in', column: 'status', values: BOARD_STATUSES },
      moderationMode: { kind: 'in', column: 'moderation_mode', values: MODERATION_MODES },
      parentId: { kind: 'in', column: 'parent_id', pattern: /^[1-9]\d{0,17}$/ },
      createdAt: createdAtFilter,
    },
  },
  importKey: 'code',
  label: (row) => `${row.code} ${row.name}`,
  columns: [
    { key: 'code' },
    { key: 'name' },
    { key: 'moderationMode' },
    { key: 'status' },
    { key: 'sort' },
    { key: 'postCount', only: 'export' },
    { key: 'createdAt', only: 'export' },
  ],
});
