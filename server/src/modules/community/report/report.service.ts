import { sql } from 'kysely';
import { AppError, invalidField, isUniqueViolation, notFound } from '../../../core/errors';
import type { Jobs } from '../../../core/jobs';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps, versionedAct } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import { claimFiles } from '../../file/attachments';
import type { SettingsService } from '../../system/settings/settings.service';
import { muteAuthor, refuseMuted } from '../mute';
import { type AuthorType, authorName } from '../post/post.resource';
import { setContentStatus } from '../post/post.service';
import {
  type CaseAction,
  type CreateReport,
  type ReportCase,
  type ReportRow,
  type ResolveCase,
  reportCaseResource,
  type TargetSnapshot,
  type TargetType,
} from './report.resource';
import { notifyReportOutcome } from './report-outcome';

const texts = {
  'zh-CN': {
    noTarget: '被举报的内容或用户不存在',
    describe: '举报原因为“其他”时请填写说明',
    notContent: '被举报的是用户，不能隐藏或删除',
    autoHidden: '举报较多，已自动隐藏，等待处理',
    byReport: '经举报核实',
  },
  'en-US': {
    noTarget: 'is not an existing post, reply or user',
    describe: 'describe the report when its reason is "other"',
    notContent: 'a reported user is not hidden or deleted',
    autoHidden: 'Hidden after several reports, awaiting review',
    byReport: 'Confirmed after a report',
  },
};

/** The setting naming how many distinct reports hide a post or reply by themselves (default 3). */
export const AUTO_HIDE_SETTING = 'community.report.autoHideThreshold';

const excerpt = (text: string | null) => (text ? text.slice(0, 200) : null);

/** What a case shows of its target at its first report; none when the target does not exist. */
async function snapshotOf(tx: Tx, type: TargetType, id: string): Promise<TargetSnapshot | undefined> {
  if (type === 'post') {
    const row = await tx
      .selectFrom('post')
      .select(['title', 'content_text', 'author_type', sql<string>`author_id::text`.as('author_id')])
      .select(authorName('post').as('author_name'))
      .where('id', '=', id)
      .where('status', '<>', 'deleted')
      .executeTakeFirst();
    return (
      row && {
        title: row.title,
        excerpt: excerpt(row.content_text),
        authorType: row.author_type,
        authorId: row.author_id,
        authorName: row.author_name,
        postId: id,
      }
    );
  }
  if (type === 'reply') {
    const row = await tx
      .selectFrom('post_reply as r')
      .innerJoin('post as p', 'p.id', 'r.post_id')
      .select(['p.title', 'r.content_text', 'r.author_type', sql<string>`r.author_id::text`.as('author_id')])
      .select([authorName('r').as('author_name'), sql<string>`r.post_id::text`.as('post_id')])
      .where('r.id', '=', id)
      .where('r.status', '<>', 'deleted')
      .executeTakeFirst();
    return (
      row && {
        title: row.title,
        excerpt: excerpt(row.content_text),
        authorType: row.author_type,
        authorId: row.author_id,
        authorName: row.author_name,
        postId: row.post_id,
      }
    );
  }
  const user = await tx.selectFrom('admin_user').select(['display_name']).where('id', '=', id).executeTakeFirst();
  return (
    user && {
      title: null,
      excerpt: null,
      authorType: 'admin',
      authorId: id,
      authorName: user.display_name,
      postId: null,
    }
  );
}

/** The outcome a moderator's action records on the case. */
const OUTCOMES: Record<CaseAction, Pick<ReportCase, 'status' | 'resolution'>> = {
  hide: { status: 'resolved', resolution: 'hide' },
  delete: { status: 'resolved', resolution: 'delete' },
  dismiss: { status: 'dismissed', resolution: 'keep' },
  ignore: { status: 'ignored', resolution: null },
  warn_author: { status: 'resolved', resolution: 'warn_author' },
  mute_author: { status: 'resolved', resolution: 'mute_author' },
};

/**
 * Reports' rules (docs/domain.md §5.6): a report of a post, reply or user joins the target's pending case (one per
 * target), once per reporter; the case counts its reporters and keeps its distinct reasons; at the tenant's threshold
 * (setting `community.report.autoHideThreshold`) a post or reply is hidden by itself. A moderator hides or deletes the
 * content, dismisses the case (showing again what was hidden by itself), ignores it, or warns or suspends the author:
 * the outcome is recorded on the case, audited on the case and on the post, and the reporters are told (see
 * notifyReportOutcome). A handled case may be deleted; a pending one may not.
 */
export function createReportService(deps: ResourceDeps & { settings: SettingsService; jobs: Jobs }) {
  const { store: plain, repository } = reportCaseResource;
  const find = (tx: Tx, id: string) => repository.find(tx, id);

  const store: ResourceStore<ReportCase, CreateReport, ResolveCase> = {
    ...plain,
    createMany: undefined,
    async remove(tx, rows, ctx) {
      for (const row of rows) if (row.status === 'pending') throw new AppError('report.pending');
      return plain.remove(tx, rows, ctx);
    },
  };
  const resource = createResourceService(reportCaseResource, store, deps);
  const act = versionedAct(resource, repository, find);

  /** The post a target belongs to, whose timeline shows what happened to it. */
  const postOf = (row: ReportCase) => row.targetSnapshot.postId;

  async function auditOnPost(tx: Tx, ctx: WriteContext, row: ReportCase, summary: string) {
    const postId = postOf(row);
    if (!postId) return;
    await deps.audit.record(tx, ctx, {
      action: 'community:report:resolve',
      resourceType: 'post',
      resourceId: postId,
      summary: `${row.targetType} ${row.targetId} · ${summary}`,
    });
  }

  async function submit(tx: Tx, ctx: WriteContext, input: CreateReport): Promise<ReportCase> {
    const t = texts[ctx.lang];
    if (input.reason === 'other' && !input.description) throw invalidField('description', t.describe);
    await refuseMuted(tx, ctx);
    let caseRow = await tx
      .selectFrom('report_case')
      .select(sql<string>`id::text`.as('id'))
      .where('target_type', '=', input.targetType)
      .where('target_id', '=', input.targetId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (!caseRow) {
      const snapshot = await snapshotOf(tx, input.targetType, input.targetId);
      if (!snapshot) throw invalidField('targetId', t.noTarget);
      caseRow = await tx
        .insertInto('report_case')
        .values({
          tenant_id: ctx.tenantId,
          target_type: input.targetType,
          target_id: input.targetId,
          target_snapshot: JSON.stringify(snapshot),
          created_at: ctx.now,
          created_by: ctx.actorId,
        })
        .returning(sql<string>`id::text`.as('id'))
        .executeTakeFirstOrThrow();
    }
    const caseId = caseRow.id;
    const mine = await tx
      .selectFrom('report')
      .select('id')
      .where('case_id', '=', caseId)
      .where('reporter_type', '=', 'admin')
      .where('reporter_id', '=', ctx.actorId)
      .executeTakeFirst();
    if (mine) throw new AppError('report.duplicate');
    const made = await tx
      .insertInto('report')
      .values({
        tenant_id: ctx.tenantId,
        case_id: caseId,
        target_type: input.targetType,
        target_id: input.targetId,
        reporter_type: 'admin',
        reporter_id: ctx.actorId,
        reason: input.reason,
        description: input.description ?? null,
        evidence_file_ids: input.evidenceFileIds ?? [],
        created_at: ctx.now,
      })
      .returning(sql<string>`id::text`.as('id'))
      .executeTakeFirstOrThrow();
    await claimFiles(
      tx,
      { bizType: 'report.evidence', bizId: made.id },
      input.evidenceFileIds ?? [],
      'evidenceFileIds',
      ctx.lang,
    );
    const counted = await tx
      .updateTable('report_case')
      .set({
        report_count: sql`(SELECT count(*)::int FROM report r WHERE r.case_id = report_case.id)`,
        reasons: sql`ARRAY(SELECT DISTINCT r.reason FROM report r WHERE r.case_id = report_case.id ORDER BY 1)`,
        potential_spam: sql`potential_spam OR ${input.reason === 'spam'}`,
        updated_at: ctx.now,
        updated_by: ctx.actorId,
        version: sql`version + 1`,
      })
      .where('id', '=', caseId)
      .returning(['report_count', 'auto_hidden'])
      .executeTakeFirstOrThrow();
    const { [AUTO_HIDE_SETTING]: threshold } = await deps.settings.numbers(tx, { [AUTO_HIDE_SETTING]: 3 });
    let row = (await find(tx, caseId)) as ReportCase;
    if (input.targetType !== 'user' && !counted.auto_hidden && counted.report_count >= threshold) {
      const target = { type: input.targetType, id: input.targetId };
      if (await setContentStatus(tx, ctx, target, 'hidden', t.autoHidden, ['published'])) {
        await tx.updateTable('report_case').set({ auto_hidden: true }).where('id', '=', caseId).execute();
        row = (await find(tx, caseId)) as ReportCase;
        await auditOnPost(tx, ctx, row, `auto-hidden · ${counted.report_count} reports`);
      }
    }
    await deps.audit.record(tx, ctx, {
      action: 'community:report:create',
      resourceType: 'report_case',
      resourceId: caseId,
      summary: `${input.targetType} ${input.targetId} · ${input.reason} · ${row.reportCount}`,
      after: { reportId: made.id, reason: input.reason, description: input.description ?? null },
    });
    return row;
  }

  return {
    resource,

    /** A report by the console's user: joins the target's pending case (made at the first report). */
    report: (ctx: WriteContext, input: CreateReport) =>
      deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
        try {
          return await submit(tx, ctx, input);
        } catch (err) {
          // another report made the case (or this reporter's report) at the same time
          if (isUniqueViolation(err)) throw new AppError('report.duplicate');
          throw err;
        }
      }),

    /** The reports of a case, in the order they came. */
    reports: (tenantId: string, id: string) =>
      deps.tenancy.inTenant(tenantId, async (tx): Promise<ReportRow[]> => {
        if (!(await find(tx, id))) throw notFound();
        const { rows } = await sql<ReportRow>`SELECT r.id::text AS id, r.case_id::text AS "caseId",
            r.reporter_type AS "reporterType", r.reporter_id::text AS "reporterId",
            CASE r.reporter_type WHEN 'admin' THEN (SELECT u.display_name FROM admin_user u WHERE u.id = r.reporter_id)
            END AS "reporterName",
            r.reason, r.description, r.evidence_file_ids::text[] AS "evidenceFileIds",
            to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
          FROM report r WHERE r.case_id = ${id} ORDER BY r.created_at, r.id`.execute(tx);
        return rows;
      }),

    /** A pending case handled: the target hidden, deleted or shown again as the action says; the outcome recorded. */
    resolve: async (ctx: WriteContext, id: string, input: ResolveCase) => {
      const t = texts[ctx.lang];
      return act(ctx, id, 'resolve', input.version, async (tx, row) => {
        if (row.status !== 'pending') throw new AppError('report.handled', { status: row.status });
        const note = input.note ?? null;
        if (row.targetType === 'user' && (input.action === 'hide' || input.action === 'delete'))
          throw invalidField('action', t.notContent);
        if (row.targetType !== 'user') {
          const target = { type: row.targetType, id: row.targetId };
          if (input.action === 'hide')
            await setContentStatus(tx, ctx, target, 'hidden', note ?? t.byReport, ['published', 'hidden']);
          if (input.action === 'delete')
            await setContentStatus(tx, ctx, target, 'deleted', note ?? t.byReport, ['published', 'hidden']);
          if (input.action === 'dismiss' && row.autoHidden)
            await setContentStatus(tx, ctx, target, 'published', null, ['hidden']);
        }
        const { authorType, authorId } = row.targetSnapshot;
        if (input.action === 'mute_author' && authorType && authorId) {
          const days = input.muteDays ?? 7;
          const until = new Date(ctx.now.getTime() + days * 86_400_000);
          await muteAuthor(tx, ctx, { type: authorType as AuthorType, id: authorId }, until, row.id);
        }
        await auditOnPost(tx, ctx, row, `${input.action}${note ? ` · ${note}` : ''}`);
        await notifyReportOutcome(tx, deps.jobs, row, input.action);
        return {
          ...OUTCOMES[input.action],
          handledBy: ctx.actorId,
          handledAt: ctx.now.toISOString(),
          handleNote: note,
        };
      });
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
