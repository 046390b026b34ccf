import { z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { ref, refBy } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { createdAtFilter } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { recordRow, requestBody } from '../../../core/schema-kit';
import type { Audited, Defaulted, Id as IdColumn, Json, Nullable, NullableTimestamp, Ref } from '../../../db/types';
import type { AuthorType } from '../post/post.resource';

/** Reports and their cases (docs/domain.md §5.6): one queue row per reported target while it is pending. */
export const TARGET_TYPES = ['post', 'reply', 'user'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];
export const REPORT_REASONS = [
  'spam',
  'abuse',
  'off_topic',
  'misinformation',
  'privacy_leak',
  'illegal',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const CASE_STATUSES = ['pending', 'resolved', 'dismissed', 'ignored'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
export const RESOLUTIONS = ['keep', 'hide', 'delete', 'delete_and_block_author', 'warn_author', 'mute_author'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];
/** What a moderator does with a case. */
export const CASE_ACTIONS = ['hide', 'delete', 'dismiss', 'ignore', 'warn_author', 'mute_author'] as const;
export type CaseAction = (typeof CASE_ACTIONS)[number];

interface ReportCaseTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  target_type: TargetType;
  target_id: Ref;
  target_snapshot: Json;
  report_count: Defaulted<number>;
  reasons: Defaulted<string[]>;
  potential_spam: Defaulted<boolean>;
  auto_hidden: Defaulted<boolean>;
  status: Defaulted<CaseStatus>;
  resolution: Nullable<Resolution>;
  handled_by: Nullable<Ref>;
  handled_at: NullableTimestamp;
  handle_note: Nullable<string>;
}
interface ReportTable {
  id: IdColumn;
  tenant_id: Ref;
  case_id: Ref;
  target_type: TargetType;
  target_id: Ref;
  reporter_type: AuthorType;
  reporter_id: Ref;
  reason: ReportReason;
  description: Nullable<string>;
  evidence_file_ids: Defaulted<string[]>;
  created_at: Defaulted<Date>;
}
declare module '../../../db/types' {
  interface DB {
    report_case: ReportCaseTable;
    report: ReportTable;
  }
}

export const TargetSnapshot = z
  .object({
    title: z.string().nullable(),
    excerpt: z.string().nullable(),
    authorType: z.string().nullable(),
    authorId: z.string().nullable(),
    authorName: z.string().nullable(),
    postId: z.string().nullable().openapi({ description: 'The post (of a reply: the post it answers)' }),
  })
  .openapi('ReportTargetSnapshot');
export type TargetSnapshot = z.infer<typeof TargetSnapshot>;

export const ReportCase = recordRow({
  targetType: z.enum(TARGET_TYPES),
  targetId: z.string(),
  targetSnapshot: TargetSnapshot.openapi({ description: 'The target as it was at its first report' }),
  targetStatus: z.string().nullable().openapi({ description: 'The status of the post or reply now' }),
  reportCount: z.number().int().openapi({ description: 'Distinct reporters' }),
  reasons: z.array(z.enum(REPORT_REASONS)),
  potentialSpam: z.boolean(),
  autoHidden: z.boolean().openapi({ description: 'The target was hidden by itself at the threshold of reports' }),
  status: z.enum(CASE_STATUSES),
  resolution: z.enum(RESOLUTIONS).nullable(),
  handledBy: z.string().nullable(),
  handledByName: z.string().nullable(),
  handledAt: z.string().nullable(),
  handleNote: z.string().nullable(),
}).openapi('ReportCase');
export type ReportCase = z.infer<typeof ReportCase>;

/** A case as its reporter sees it without reading the cases: the target by its type and id, not as the case keeps it. */
export const withoutSnapshot = (row: ReportCase): ReportCase => ({
  ...row,
  targetSnapshot: { title: null, excerpt: null, authorType: null, authorId: null, authorName: null, postId: null },
});

export const CreateReport = requestBody('CreateReport', {
  targetType: z.enum(TARGET_TYPES),
  targetId: refBy('targetType', { post: 'post', reply: 'post_reply', user: 'admin_user' }),
  reason: z.enum(REPORT_REASONS),
  description: z.string().trim().max(500).nullable().optional().openapi({ description: 'Required when `other`' }),
  evidenceFileIds: z.array(ref('file')).max(9).optional(),
});
export type CreateReport = z.infer<typeof CreateReport>;

export const ResolveCase = requestBody('ResolveReportCase', {
  action: z.enum(CASE_ACTIONS).openapi({
    description:
      '`hide` / `delete` the content (agree), `dismiss` (disagree: shown again if it was hidden by itself), ' +
      '`ignore`, `warn_author`, `mute_author` (suspend)',
  }),
  note: z.string().trim().max(500).nullable().optional(),
  muteDays: z.number().int().min(1).max(365).optional().openapi({ description: 'With `mute_author`: how long (7)' }),
  version: Version,
});
export type ResolveCase = z.infer<typeof ResolveCase>;

export const ReportRow = z
  .object({
    id: z.string(),
    caseId: z.string(),
    reporterType: z.string(),
    reporterId: z.string(),
    reporterName: z.string().nullable(),
    reason: z.enum(REPORT_REASONS),
    description: z.string().nullable(),
    evidenceFileIds: z.array(z.string()),
    createdAt: z.string(),
  })
  .openapi('Report');
export type ReportRow = z.infer<typeof ReportRow>;

export const reportCaseResource = defineResource({
  path: 'community/report',
  permission: 'community:report',
  type: 'report_case',
  schemas: { row: ReportCase, create: CreateReport, update: ResolveCase },
  table: {
    name: 'report_case',
    columns: columnsOf(ReportCase, { except: ['targetStatus', 'handledByName'] }),
    json: ['targetSnapshot'],
    tenantOwned: true,
    computed: {
      targetStatus: sql`CASE report_case.target_type
        WHEN 'post' THEN (SELECT p.status FROM post p WHERE p.id = report_case.target_id)
        WHEN 'reply' THEN (SELECT r.status FROM post_reply r WHERE r.id = report_case.target_id)
        WHEN 'user' THEN (SELECT u.status FROM admin_user u WHERE u.id = report_case.target_id)
      END`,
      handledByName: sql`(SELECT u.display_name FROM admin_user u WHERE u.id = report_case.handled_by)`,
    },
  },
  list: {
    sort: ['createdAt', 'reportCount', 'handledAt'],
    defaultSort: '-createdAt',
    filters: {
      status: { kind: 'in', column: 'status', values: CASE_STATUSES },
      targetType: { kind: 'in', column: 'target_type', values: TARGET_TYPES },
      targetId: { kind: 'eq', column: 'target_id', pattern: /^[1-9]\d{0,17}$/ },
      createdAt: createdAtFilter,
    },
  },
  label: (row) => `${row.targetType} ${row.targetId}`,
  columns: [
    { key: 'targetType' },
    { key: 'targetId' },
    { key: 'reportCount', only: 'export' },
    { key: 'status' },
    { key: 'resolution', only: 'export' },
    { key: 'createdAt', only: 'export' },
  ],
});
