import { type RawBuilder, sql } from 'kysely';
import { AppError, invalidField, notFound, versionConflict } from '../../../core/errors';
import type { IdNumberCipher } from '../../../core/id-number';
import type { Jobs } from '../../../core/jobs';
import { platformTenant } from '../../../core/platform-tenant.repository';
import { filterValue } from '../../../core/resource/list-query';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Narrow } from '../../../core/resource/table.repository';
import type { Tenancy, Tx } from '../../../core/tenancy';
import { inEachTenant } from '../../../core/tenant-jobs';
import { claimFiles, releaseFiles } from '../../file/attachments';
import { notify } from '../../message/message/outbox';
import { insertAuditLogs } from '../../system/audit/audit.repository';
import type { SettingsService } from '../../system/settings/settings.service';
import { type DataScope, dataScopeOf, inDataScope } from '../organization/data-scope';
import { peopleMatching } from '../person/person.repository';
import {
  type ApproveQualifications,
  ATTACHMENT,
  type CreateQualification,
  EDITABLE,
  type OwnerType,
  type Qualification,
  type QualificationReview,
  qualificationResource,
  qualificationTable,
  REMOVABLE,
  type ReviewQualification,
  type ReviewStatus,
  type RevokeQualification,
  type UpdateQualification,
} from './qualification.resource';

const texts = {
  'zh-CN': {
    noOwner: '记录不存在或不在你的数据范围内',
    taken: '该类型下已有此证书编号',
    beforeFrom: '不能早于生效日期',
    commentRequired: '驳回或退回须填写意见',
    attachmentRequired: '提交审核前请上传至少一个附件（证书扫描件）',
  },
  'en-US': {
    noOwner: 'is not an existing record within your data scope',
    taken: 'is already on file for this type',
    beforeFrom: 'must not be before the start of validity',
    commentRequired: 'is required to reject or return',
    attachmentRequired: 'needs one file at least (a scan of the certificate) before it is submitted',
  },
};

/** The records a qualification may be filed under, and the organisations the roles' data scope reads on each. */
const OWNERS: Record<OwnerType, { table: 'expert' | 'doctor' | 'staff' | 'trainee'; orgColumns: string[] }> = {
  expert: { table: 'expert', orgColumns: ['org_id'] },
  doctor: { table: 'doctor', orgColumns: ['org_id'] },
  staff: { table: 'staff', orgColumns: ['org_id'] },
  trainee: { table: 'trainee', orgColumns: ['training_base_id', 'specialty_base_id'] },
};

/** The owner record `id` of `type` (`qualification.owner_id` in a list) within a data scope. */
function ownerInScope(scope: DataScope, type: OwnerType, id: RawBuilder<unknown> | string): RawBuilder<boolean> {
  const { table, orgColumns } = OWNERS[type];
  return sql<boolean>`EXISTS (SELECT 1 FROM ${sql.table(table)} o WHERE o.id = ${id}
    AND ${inDataScope(scope, orgColumns, 'o')})`;
}

/** The statuses from which each decision may be taken, and where it leads. */
const MOVES = {
  submit: { from: ['draft', 'returned', 'rejected'], to: 'submitted' },
  approve: { from: ['submitted', 'in_review'], to: 'approved' },
  reject: { from: ['submitted', 'in_review'], to: 'rejected' },
  return: { from: ['submitted', 'in_review'], to: 'returned' },
  revoke: { from: ['approved'], to: 'revoked' },
} as const satisfies Record<string, { from: readonly ReviewStatus[]; to: ReviewStatus }>;
type Move = keyof typeof MOVES;

type Deps = ResourceDeps & { idNumbers: IdNumberCipher; settings: SettingsService; jobs: Jobs };

/**
 * Qualifications (docs/domain.md §4.11): filed under a record of a person the actor may see, unique by type and
 * number; edited while a draft (or sent back), submitted, approved / rejected / returned with comments (one at a time
 * or approved in bulk), revoked; the daily job marks those whose validity has ended as expired. Every step is kept in
 * `qualification_review`, and the list keeps to the data scope of the records they are filed under.
 */
export function createQualificationService(deps: Deps) {
  const repo = qualificationTable;

  /** The records filed under an owner within the viewer's data scope (all of them for a viewer who sees everything). */
  async function scoped(tx: Tx, viewer: string | undefined): Promise<Narrow> {
    const scope = viewer ? await dataScopeOf(tx, viewer) : undefined;
    if (!scope || scope.all) return (qb) => qb;
    const owner = sql.ref('qualification.owner_id');
    return (qb) =>
      qb.where(
        sql<boolean>`CASE qualification.owner_type ${sql.join(
          (Object.keys(OWNERS) as OwnerType[]).map(
            (type) => sql`WHEN ${type} THEN ${ownerInScope(scope, type, owner)}`,
          ),
          sql` `,
        )} END`,
      );
  }

  const holder = (id: string) => ({ bizType: ATTACHMENT, bizId: id });

  const find = async (tx: Tx, id: string, viewer?: string) => repo.find(tx, id, await scoped(tx, viewer));

  async function check(
    tx: Tx,
    input: Partial<CreateQualification>,
    current: Qualification | undefined,
    lang: 'zh-CN' | 'en-US',
  ) {
    const t = texts[lang];
    const type = input.qualificationType ?? current?.qualificationType;
    const certNo = input.certNo ?? current?.certNo;
    if ((input.qualificationType || input.certNo) && type && certNo) {
      const other = await tx
        .selectFrom('qualification')
        .select('id')
        .where('qualification_type', '=', type)
        .where('cert_no', '=', certNo)
        .executeTakeFirst();
      if (other && String(other.id) !== current?.id) throw invalidField('certNo', t.taken);
    }
    const from = input.validFrom === undefined ? current?.validFrom : input.validFrom;
    const until = input.validUntil === undefined ? current?.validUntil : input.validUntil;
    if (from && until && until < from) throw invalidField('validUntil', t.beforeFrom);
  }

  async function expiringNarrow(tx: Tx, expiring: boolean, today: string): Promise<Narrow | undefined> {
    if (!expiring) return undefined;
    const { 'qualification.expiryReminderDays': days } = await deps.settings.numbers(tx, {
      'qualification.expiryReminderDays': 30,
    });
    const until = new Date(Date.parse(today) + days * 86_400_000).toISOString().slice(0, 10);
    return (qb) =>
      qb.where('review_status', '=', 'approved').where('valid_until', 'is not', null).where('valid_until', '<=', until);
  }

  const store: ResourceStore<Qualification, CreateQualification, UpdateQualification> = {
    async list(tx, query) {
      const keyword = filterValue(query, 'keyword');
      const expiring = await expiringNarrow(
        tx,
        filterValue(query, 'expiring')?.kind === 'eq',
        new Date().toISOString().slice(0, 10),
      );
      const inScope = await scoped(tx, query.viewer);
      const typed = keyword?.kind === 'keyword' ? keyword.text.trim() : undefined;
      const people = typed === undefined ? undefined : peopleMatching(deps.idNumbers, typed);
      return repo.list(tx, query, (qb) => {
        let q = inScope(qb);
        if (expiring) q = expiring(q);
        if (typed === undefined) return q;
        return q.where(
          sql<boolean>`(qualification.person_id = ANY(ARRAY(${people}))
            OR starts_with(qualification.cert_no COLLATE "C", ${typed.toUpperCase()}))`,
        );
      });
    },
    find,
    async create(tx, input, ctx) {
      const { table, orgColumns } = OWNERS[input.ownerType];
      const owner = await tx
        .selectFrom(table as 'staff')
        .select('person_id')
        .where('id', '=', input.ownerId)
        .where(inDataScope(await dataScopeOf(tx, ctx.actorId), orgColumns, table))
        .executeTakeFirst();
      if (!owner) throw invalidField('ownerId', texts[ctx.lang].noOwner);
      await check(tx, input, undefined, ctx.lang);
      const made = await repo.insert(tx, { ...input, personId: String(owner.person_id) }, ctx);
      await claimFiles(tx, holder(made.id), input.attachmentFileIds ?? [], 'attachmentFileIds', ctx.lang);
      return (await find(tx, made.id)) as Qualification;
    },
    async update(tx, current, input, ctx) {
      if (!EDITABLE.includes(current.reviewStatus))
        throw new AppError('qualification.notAllowed', { status: current.reviewStatus });
      await check(tx, input, current, ctx.lang);
      const { version, ...values } = input;
      if (input.attachmentFileIds)
        await claimFiles(tx, holder(current.id), input.attachmentFileIds, 'attachmentFileIds', ctx.lang);
      // an edit of a record sent back makes it a draft again, to be submitted anew
      return repo.update(tx, current.id, { ...values, reviewStatus: 'draft' }, ctx, version);
    },
    async remove(tx, rows, ctx) {
      for (const row of rows)
        if (!REMOVABLE.includes(row.reviewStatus))
          throw new AppError('qualification.notAllowed', { status: row.reviewStatus });
      const ids = rows.map((r) => r.id);
      await releaseFiles(tx, ATTACHMENT, ids);
      await repo.remove(tx, ids, ctx);
    },
  };
  const resource = createResourceService(qualificationResource, store, deps);

  /** One step of the review: allowed from the record's status, kept in the history, stamped on the record. */
  async function step(tx: Tx, ctx: WriteContext, row: Qualification, move: Move, comment?: string) {
    const { from, to } = MOVES[move];
    if (!(from as readonly ReviewStatus[]).includes(row.reviewStatus))
      throw new AppError('qualification.notAllowed', { status: row.reviewStatus });
    if ((move === 'reject' || move === 'return') && !comment)
      throw invalidField('comment', texts[ctx.lang].commentRequired);
    if (move === 'submit' && row.attachmentFileIds.length === 0)
      throw invalidField('attachmentFileIds', texts[ctx.lang].attachmentRequired);
    const decided = move !== 'submit';
    await tx
      .updateTable('qualification')
      .set({
        review_status: to,
        ...(decided && { reviewed_by: ctx.actorId, reviewed_at: ctx.now, review_comment: comment ?? null }),
        updated_at: ctx.now,
        updated_by: ctx.actorId,
        version: sql`version + 1`,
      })
      .where('id', '=', row.id)
      .execute();
    await tx
      .insertInto('qualification_review')
      .values({
        tenant_id: ctx.tenantId,
        qualification_id: row.id,
        decision: move,
        from_state: row.reviewStatus,
        to_state: to,
        comment: comment ?? null,
        created_by: ctx.actorId,
      })
      .execute();
    if (move === 'approve' || move === 'reject')
      await notify(tx, deps.jobs, {
        businessItemCode: `qualification.${to}`,
        to: { type: 'person', ids: [row.personId] },
        params: { qualificationName: await qualificationName(tx, row), comment: comment ?? '' },
        bizRef: { type: 'qualification', id: row.id },
        actorId: ctx.actorId,
      });
    return (await find(tx, row.id)) as Qualification;
  }

  const act = (ctx: WriteContext, id: string, action: string, move: Move, version: number, comment?: string) =>
    resource.act(
      ctx,
      id,
      action,
      (tx, row) => {
        if (row.version !== version) throw versionConflict();
        return step(tx, ctx, row, move, comment);
      },
      comment,
    );

  return {
    resource,

    submit: (ctx: WriteContext, id: string, { version }: { version: number }) =>
      act(ctx, id, 'submit', 'submit', version),

    review: (ctx: WriteContext, id: string, { decision, comment, version }: ReviewQualification) =>
      act(ctx, id, 'review', decision, version, comment),

    revoke: (ctx: WriteContext, id: string, { comment, version }: RevokeQualification) =>
      act(ctx, id, 'revoke', 'revoke', version, comment),

    /** Several submitted records approved at once: all of them or, when one may not be, none. */
    approveMany: (ctx: WriteContext, { ids, comment }: ApproveQualifications) =>
      deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
        const done: Qualification[] = [];
        for (const id of new Set(ids)) {
          const before = await find(tx, id, ctx.actorId);
          if (!before) throw notFound();
          const after = await step(tx, ctx, before, 'approve', comment);
          await deps.audit.record(tx, ctx, {
            action: 'expert:qualification:review',
            resourceType: 'qualification',
            resourceId: id,
            summary: `${after.ownerName} · ${after.certNo}`,
            before,
            after,
          });
          done.push(after);
        }
        return done;
      }),

    /** Every step of a record's review, newest first. */
    reviews: (tenantId: string, id: string, viewer: string): Promise<QualificationReview[]> =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        if (!(await find(tx, id, viewer))) throw notFound();
        const rows = await tx
          .selectFrom('qualification_review as r')
          .leftJoin('admin_user as u', 'u.id', 'r.created_by')
          .select(['r.id', 'r.decision', 'r.from_state', 'r.to_state', 'r.comment', 'r.created_at', 'u.display_name'])
          .where('r.qualification_id', '=', id)
          .orderBy('r.id', 'desc')
          .execute();
        return rows.map((r) => ({
          id: String(r.id),
          decision: r.decision,
          fromState: r.from_state,
          toState: r.to_state,
          comment: r.comment,
          createdAt: new Date(r.created_at).toISOString(),
          createdByName: r.display_name ?? null,
        }));
      }),

    /**
     * The daily job: approved qualifications whose validity ended before `now`'s day become expired, in every
     * tenant, each step kept in the history and the audit trail (by no one: the system). Returns how many.
     */
    expire: async (now: Date) => {
      const expired = await expireQualifications(deps.tenancy, now);
      await noticeExpiring(deps.tenancy, deps.jobs, now);
      return expired;
    },
  };
}

/** A qualification as a message names it: its type's label (the dictionary's, the tenant's first) and its number. */
async function qualificationName(tx: Tx, row: Pick<Qualification, 'qualificationType' | 'certNo'>): Promise<string> {
  const label = await tx
    .selectFrom('dict_item')
    .select('label')
    .where('type_code', '=', 'qualification_type')
    .where('value', '=', row.qualificationType)
    .orderBy(sql`tenant_id = ${platformTenant}`)
    .limit(1)
    .executeTakeFirst();
  return `${label?.label ?? row.qualificationType}（${row.certNo}）`;
}

/** How long before its end a qualification's holder is told it is expiring. */
const EXPIRING_NOTICE_DAYS = 30;

/**
 * The holders of approved qualifications that end within the notice period are told so, once per qualification
 * (business item `qualification.expiring`; the job runs hourly, a qualification already told is not told again).
 */
function noticeExpiring(tenancy: Tenancy, jobs: Jobs, now: Date): Promise<number> {
  const today = now.toISOString().slice(0, 10);
  const until = new Date(now.getTime() + EXPIRING_NOTICE_DAYS * 86_400_000).toISOString().slice(0, 10);
  const due = (tx: Tx) =>
    tx
      .selectFrom('qualification as q')
      .where('q.review_status', '=', 'approved')
      .where('q.valid_until', '>=', today)
      .where('q.valid_until', '<=', until)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('message as m')
              .select('m.id')
              .where('m.biz_ref_type', '=', 'qualification')
              .whereRef('m.biz_ref_id', '=', 'q.id')
              .where('m.business_item_code', '=', 'qualification.expiring'),
          ),
        ),
      );
  return inEachTenant(
    tenancy,
    (tx) => due(tx).select('q.tenant_id').distinct().execute(),
    async (tx) => {
      const rows = await due(tx)
        .select(['q.id', 'q.person_id', 'q.qualification_type', 'q.cert_no', 'q.valid_until'])
        .execute();
      let sent = 0;
      for (const r of rows)
        sent += await notify(tx, jobs, {
          businessItemCode: 'qualification.expiring',
          to: { type: 'person', ids: [String(r.person_id)] },
          params: {
            qualificationName: await qualificationName(tx, {
              qualificationType: r.qualification_type,
              certNo: r.cert_no,
            }),
            expiresAt: String(r.valid_until),
          },
          bizRef: { type: 'qualification', id: String(r.id) },
        });
      return sent;
    },
  );
}

function expireQualifications(tenancy: Tenancy, now: Date): Promise<number> {
  const today = now.toISOString().slice(0, 10);
  return inEachTenant(
    tenancy,
    (tx) =>
      tx
        .selectFrom('qualification')
        .select('tenant_id')
        .distinct()
        .where('review_status', '=', 'approved')
        .where('valid_until', '<', today)
        .execute(),
    async (tx, tenantId) => {
      const rows = await tx
        .updateTable('qualification')
        .set({ review_status: 'expired', updated_at: now, version: sql`version + 1` })
        .where('review_status', '=', 'approved')
        .where('valid_until', '<', today)
        .returning(['id', 'cert_no'])
        .execute();
      if (rows.length === 0) return 0;
      await tx
        .insertInto('qualification_review')
        .values(
          rows.map((r) => ({
            tenant_id: tenantId,
            qualification_id: r.id,
            decision: 'expire' as const,
            from_state: 'approved',
            to_state: 'expired',
            created_by: null,
          })),
        )
        .execute();
      await insertAuditLogs(tx, { tenantId, actorId: null, ip: null, userAgent: null, at: now }, rows, (r) => ({
        action: 'expert:qualification:expire',
        resourceType: 'qualification',
        resourceId: String(r.id),
        summary: r.cert_no,
        before: { reviewStatus: 'approved' },
        after: { reviewStatus: 'expired' },
      }));
      return rows.length;
    },
  );
}

export type QualificationService = ReturnType<typeof createQualificationService>;
