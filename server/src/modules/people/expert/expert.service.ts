import { sql } from 'kysely';
import { AppError, invalidField, versionConflict } from '../../../core/errors';
import type { IdNumberCipher } from '../../../core/id-number';
import { filterValue } from '../../../core/resource/list-query';
import type { WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Tenancy, Tx } from '../../../core/tenancy';
import { inEachTenant } from '../../../core/tenant-jobs';
import { onceIn } from '../../../core/tx-memo';
import { insertAuditLogs } from '../../system/audit/audit.repository';
import { dataScopeOf, inDataScope } from '../organization/data-scope';
import { idNumberRevealer, personRecordStore } from '../person/person-record';
import {
  type ChangeExpertStatus,
  type CreateExpert,
  EXPERT_TRANSITIONS,
  type Expert,
  expertResource,
  expertTable,
  type PromoteExpert,
  type UpdateExpert,
} from './expert.resource';

const texts = {
  'zh-CN': {
    noOrg: '组织不存在',
    noUnit: '单位不存在',
    noDoctor: '医生不存在或不在你的数据范围内',
    taken: '该专家编号已被使用',
    already: '此人已是专家',
    termBeforeStart: '不能早于聘期开始日期',
    retired: '已退出的专家不能修改',
  },
  'en-US': {
    noOrg: 'is not an existing organisation',
    noUnit: 'is not an existing unit',
    noDoctor: 'is not an existing doctor within your data scope',
    taken: 'is used by another expert',
    already: 'this person is already an expert',
    termBeforeStart: 'must not be before the start of the term',
    retired: 'a retired expert cannot be changed',
  },
};

const today = (now: Date) => now.toISOString().slice(0, 10);

/**
 * Experts (docs/domain.md §4.10): one record per person, an external person or a doctor promoted (the doctor's
 * person); numbered uniquely; reviewed, then activated once the person holds an approved qualification, suspended,
 * renewed, retired; the daily job ends the terms that have run out.
 */
export function createExpertService(deps: ResourceDeps & { idNumbers: IdNumberCipher }) {
  const exists = (tx: Tx, table: 'organization' | 'unit', id: string) =>
    onceIn(tx, `${table}:${id}`, () => tx.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst());

  /** The doctor `id`, when the actor may see them. */
  const doctorOf = (tx: Tx, id: string, viewer: string) =>
    onceIn(tx, `doctor:${id}:${viewer}`, async () =>
      tx
        .selectFrom('doctor')
        .select(['person_id', 'org_id', 'unit_id', 'professional_title'])
        .where('id', '=', id)
        .where(inDataScope(await dataScopeOf(tx, viewer), ['org_id'], 'doctor'))
        .executeTakeFirst(),
    );

  const records = personRecordStore<Expert, CreateExpert, UpdateExpert>(deps.idNumbers, {
    table: 'expert',
    repo: expertTable,
    numberColumn: 'expert_no',
    orgColumns: ['org_id'],
    scopeField: 'orgId',
    already: { 'zh-CN': texts['zh-CN'].already, 'en-US': texts['en-US'].already },
    async check(tx, input, current, ctx) {
      const t = texts[ctx.lang];
      if (current?.status === 'retired') throw invalidField('status', t.retired);
      if (input.orgId && !(await exists(tx, 'organization', input.orgId))) throw invalidField('orgId', t.noOrg);
      if (input.unitId && !(await exists(tx, 'unit', input.unitId))) throw invalidField('unitId', t.noUnit);
      if (input.expertNo) {
        const other = await tx
          .selectFrom('expert')
          .select('id')
          .where('expert_no', '=', input.expertNo)
          .executeTakeFirst();
        if (other && String(other.id) !== current?.id) throw invalidField('expertNo', t.taken);
      }
      const start = input.termStart === undefined ? current?.termStart : input.termStart;
      const end = input.termEnd === undefined ? current?.termEnd : input.termEnd;
      if (start && end && end < start) throw invalidField('termEnd', t.termBeforeStart);
    },
    async personOf(tx, input, ctx) {
      if (!input.doctorId) return undefined;
      const doctor = await doctorOf(tx, input.doctorId, ctx.actorId);
      if (!doctor) throw invalidField('doctorId', texts[ctx.lang].noDoctor);
      return String(doctor.person_id);
    },
    narrow(query) {
      const specialty = filterValue(query, 'specialty');
      const role = filterValue(query, 'role');
      return (qb) => {
        let q = qb;
        if (specialty?.kind === 'eq') q = q.where(sql<boolean>`${specialty.value} = ANY(expert.specialties)`);
        if (role?.kind === 'in') q = q.where(sql<boolean>`expert.roles && ${sql.val(role.values)}::text[]`);
        return q;
      };
    },
  });
  const resource = createResourceService(expertResource, records.store, deps);

  return {
    resource,

    /**
     * A doctor the actor may see made an expert (nominated, applied): the doctor's person, and their department,
     * unit and title unless the body names others.
     */
    async promote(ctx: WriteContext, doctorId: string, body: PromoteExpert): Promise<Expert> {
      const doctor = await deps.tenancy.inTenant(ctx.tenantId, (tx) => doctorOf(tx, doctorId, ctx.actorId));
      if (!doctor) throw invalidField('doctorId', texts[ctx.lang].noDoctor);
      return resource.create(ctx, {
        orgId: doctor.org_id === null ? null : String(doctor.org_id),
        unitId: doctor.unit_id === null ? null : String(doctor.unit_id),
        professionalTitle: doctor.professional_title,
        source: 'nominated',
        ...body,
        doctorId,
      } as CreateExpert);
    },

    /** One step of the expert's status, with its reason (the audit trail keeps both); activation needs a qualification. */
    changeStatus: (ctx: WriteContext, id: string, { to, reason, version }: ChangeExpertStatus) =>
      resource.act(
        ctx,
        id,
        'change-status',
        async (tx, row) => {
          if (row.version !== version) throw versionConflict();
          if (!EXPERT_TRANSITIONS[row.status].includes(to))
            throw new AppError('expert.transitionNotAllowed', { from: row.status, to });
          if (to === 'active' && row.approvedQualifications === 0) throw new AppError('expert.qualificationRequired');
          if (to === 'active' && row.termEnd && row.termEnd < today(ctx.now))
            throw new AppError('expert.termEnded', { termEnd: row.termEnd });
          await expertTable.update(tx, row.id, { status: to }, ctx);
          return (await records.find(tx, row.id)) as Expert;
        },
        reason,
      ),

    reveal: idNumberRevealer<Expert>(deps.idNumbers, resource),

    /** The daily job: active experts whose term ended before `now`'s day become expired, in every tenant. */
    expire: (now: Date) => expireTerms(deps.tenancy, now),
  };
}

function expireTerms(tenancy: Tenancy, now: Date): Promise<number> {
  const day = today(now);
  return inEachTenant(
    tenancy,
    (tx) =>
      tx
        .selectFrom('expert')
        .select('tenant_id')
        .distinct()
        .where('status', '=', 'active')
        .where('term_end', '<', day)
        .execute(),
    async (tx, tenantId) => {
      const rows = await tx
        .updateTable('expert')
        .set({ status: 'expired', updated_at: now, version: sql`version + 1` })
        .where('status', '=', 'active')
        .where('term_end', '<', day)
        .returning(['id', 'expert_no', 'term_end'])
        .execute();
      await insertAuditLogs(tx, { tenantId, actorId: null, ip: null, userAgent: null, at: now }, rows, (r) => ({
        action: 'expert:expert:expire',
        resourceType: 'expert',
        resourceId: String(r.id),
        summary: `${r.expert_no} · ${r.term_end}`,
        before: { status: 'active' },
        after: { status: 'expired' },
      }));
      return rows.length;
    },
  );
}

export type ExpertService = ReturnType<typeof createExpertService>;
