import type { Config } from '../../../config';
import { AppError, invalidField, notFound, versionConflict } from '../../../core/errors';
import type { IdNumberCipher } from '../../../core/id-number';
import type { PasswordHasher } from '../../../core/password';
import type { WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import { onceIn } from '../../../core/tx-memo';
import { createAdminUserService, temporaryPassword } from '../../system/admin/admin.service';
import type { SettingsService } from '../../system/settings/settings.service';
import { idNumberRevealer, personRecordStore } from '../person/person-record';
import {
  type ChangeStaffStatus,
  type CreateStaff,
  type CreateStaffAccount,
  type LinkStaffAccount,
  STAFF_TRANSITIONS,
  type Staff,
  type StaffHistory,
  staffResource,
  staffTable,
  type TransferStaff,
  type UpdateStaff,
} from './staff.resource';

const texts = {
  'zh-CN': {
    noOrg: '组织不存在',
    noTaken: '该工号已被使用',
    already: '此人已是职工',
    noDepartment: '没有该名称或编码的组织',
    sameOrg: '已在该科室',
    hasAccount: '该职工已有账号',
    noAccount: '账号不存在',
    accountTaken: '该账号已属于另一职工',
    left: '已离职的职工不能操作',
    outOfScope: '不在你的数据范围内',
    noDefaultRole: '请选择角色（系统设置中没有有效的职工账号默认角色）',
  },
  'en-US': {
    noOrg: 'is not an existing organisation',
    noTaken: 'is used by another staff member',
    already: 'this person is already a staff member',
    noDepartment: 'no organisation has this name or code',
    sameOrg: 'is the department the staff member is in',
    hasAccount: 'the staff member already has an account',
    noAccount: 'is not an existing account',
    accountTaken: 'belongs to another staff member',
    left: 'a staff member who has left cannot be changed',
    outOfScope: 'is outside your data scope',
    noDefaultRole: 'choose the roles: the settings name no existing default role for staff accounts',
  },
};

type Deps = ResourceDeps & {
  idNumbers: IdNumberCipher;
  hasher: PasswordHasher;
  settings: SettingsService;
  config: Config;
};

/**
 * Staff (docs/domain.md §4.4): one record per person, in a department; transferred between departments and moved
 * through their status with a history of each step; given a console account (made or linked) that follows their
 * department and is turned off when they leave.
 */
export function createStaffService(deps: Deps) {
  const admins = createAdminUserService(deps);

  async function checkOrg(tx: Tx, orgId: string, field: string, lang: 'zh-CN' | 'en-US') {
    const org = await onceIn(tx, `organization:${orgId}`, () =>
      tx.selectFrom('organization').select('org_type').where('id', '=', orgId).executeTakeFirst(),
    );
    if (!org) throw invalidField(field, texts[lang].noOrg);
  }

  /** The role the settings give a staff member's new account when none is chosen (by its code, in the tenant). */
  async function defaultRole(tx: Tx, lang: 'zh-CN' | 'en-US'): Promise<string> {
    const { 'security.staffAccount.defaultRole': code } = await deps.settings.strings(tx, {
      'security.staffAccount.defaultRole': '',
    });
    const role = code
      ? await tx
          .selectFrom('role')
          .select('id')
          .where('code', '=', code)
          .where('deleted_at', 'is', null)
          .executeTakeFirst()
      : undefined;
    if (!role) throw invalidField('roleIds', texts[lang].noDefaultRole);
    return String(role.id);
  }

  const records = personRecordStore<Staff, CreateStaff, UpdateStaff>(deps.idNumbers, {
    table: 'staff',
    repo: staffTable,
    numberColumn: 'staff_no',
    orgColumns: ['org_id'],
    scopeField: 'orgId',
    already: { 'zh-CN': texts['zh-CN'].already, 'en-US': texts['en-US'].already },
    async check(tx, input, current, ctx) {
      if (current?.status === 'left') throw new AppError('staff.left');
      if (input.orgId) await checkOrg(tx, input.orgId, 'orgId', ctx.lang);
      if (input.staffNo) {
        const other = await tx
          .selectFrom('staff')
          .select('id')
          .where('staff_no', '=', input.staffNo)
          .executeTakeFirst();
        if (other && String(other.id) !== current?.id) throw invalidField('staffNo', texts[ctx.lang].noTaken);
      }
    },
    async fromImport(tx, record, _existing, ctx) {
      const { department, idNo: _, ...rest } = record as Record<string, unknown> & { department: string };
      const org = await onceIn(tx, `organization:name:${department}`, () =>
        tx
          .selectFrom('organization')
          .select('id')
          .where((eb) => eb.or([eb('name', '=', department), eb('code', '=', department)]))
          .executeTakeFirst(),
      );
      if (!org) throw invalidField('department', texts[ctx.lang].noDepartment);
      return { ...rest, idNo: record.idNo, orgId: String(org.id) };
    },
  });
  const { find } = records;
  const resource = createResourceService(staffResource, records.store, deps);

  async function record(
    tx: Tx,
    ctx: WriteContext,
    staff: Staff,
    step: Partial<Record<'fromOrgId' | 'toOrgId' | 'from' | 'to' | 'reason' | 'date', string | null>> & {
      kind: 'transfer' | 'status' | 'account';
    },
  ) {
    await tx
      .insertInto('staff_history')
      .values({
        tenant_id: ctx.tenantId,
        staff_id: staff.id,
        kind: step.kind,
        from_org_id: step.fromOrgId ?? null,
        to_org_id: step.toOrgId ?? null,
        from_state: step.from ?? null,
        to_state: step.to ?? null,
        reason: step.reason ?? null,
        effective_date: step.date ?? null,
        created_by: ctx.actorId,
      })
      .execute();
  }

  /** An action on a staff member of the version the caller saw, who has not left. */
  const act = (
    ctx: WriteContext,
    id: string,
    action: string,
    version: number,
    work: (tx: Tx, row: Staff) => Promise<void>,
    note?: string | (() => string),
  ) =>
    resource.act(
      ctx,
      id,
      action,
      async (tx, row) => {
        if (row.version !== version) throw versionConflict();
        if (row.status === 'left') throw new AppError('staff.left');
        await work(tx, row);
        await staffTable.update(tx, row.id, {}, ctx);
        return (await find(tx, row.id)) as Staff;
      },
      note,
    );

  const today = (ctx: WriteContext) => ctx.now.toISOString().slice(0, 10);

  return {
    resource,

    /** Into another department, kept in the history; the account's organisation (its data scope) follows. */
    transfer: (ctx: WriteContext, id: string, { orgId, reason, effectiveDate, version }: TransferStaff) =>
      act(ctx, id, 'transfer', version, async (tx, row) => {
        if (orgId === row.orgId) throw invalidField('orgId', texts[ctx.lang].sameOrg);
        await checkOrg(tx, orgId, 'orgId', ctx.lang);
        await staffTable.update(tx, row.id, { orgId }, ctx);
        if (!(await find(tx, row.id, ctx.actorId))) throw invalidField('orgId', texts[ctx.lang].outOfScope);
        if (row.adminUserId)
          await tx.updateTable('admin_user').set({ org_id: orgId }).where('id', '=', row.adminUserId).execute();
        await record(tx, ctx, row, {
          kind: 'transfer',
          fromOrgId: row.orgId,
          toOrgId: orgId,
          reason,
          date: effectiveDate,
        });
      }),

    /** On leave, back, or gone for good: leaving turns the account off and ends its sessions. */
    changeStatus: (ctx: WriteContext, id: string, { to, reason, effectiveDate, version }: ChangeStaffStatus) =>
      act(ctx, id, 'change-status', version, async (tx, row) => {
        if (!STAFF_TRANSITIONS[row.status].includes(to))
          throw new AppError('staff.transitionNotAllowed', { from: row.status, to });
        // as an administrator cannot disable their own account, they cannot mark themselves as left
        if (to === 'left' && row.adminUserId === ctx.actorId) throw new AppError('admin.selfOperation');
        await staffTable.update(tx, row.id, { status: to, ...(to === 'left' && { leaveDate: effectiveDate }) }, ctx);
        if (to === 'left' && row.adminUserId) await admins.disableIn(tx, row.adminUserId, ctx);
        await record(tx, ctx, row, { kind: 'status', from: row.status, to, reason, date: effectiveDate });
      }),

    /** A console account for the staff member, with their name, contacts and department, and a password shown once. */
    async createAccount(ctx: WriteContext, id: string, { userName, roleIds, version }: CreateStaffAccount) {
      let password = '';
      const staff = await act(ctx, id, 'create-account', version, async (tx, row) => {
        if (row.adminUserId) throw new AppError('staff.hasAccount');
        password = temporaryPassword(await deps.settings.passwordPolicy(tx));
        const roles = roleIds ?? [await defaultRole(tx, ctx.lang)];
        const account = await admins.createIn(
          tx,
          {
            userName,
            displayName: row.name,
            mobile: row.mobile,
            email: row.email,
            orgId: row.orgId,
            roleIds: roles,
            password,
            mustChangePassword: true,
          },
          ctx,
        );
        await deps.audit.record(tx, ctx, {
          action: 'system:admin:create',
          resourceType: 'admin_user',
          resourceId: account.id,
          summary: `${account.userName} · ${row.staffNo} ${row.name}`,
          after: account,
        });
        await staffTable.update(tx, row.id, { adminUserId: account.id }, ctx);
        await record(tx, ctx, row, { kind: 'account', to: account.userName, date: today(ctx) });
      });
      return { staff, temporaryPassword: password };
    },

    /** An existing account, no other staff member's, becomes this one's. */
    linkAccount: (ctx: WriteContext, id: string, { adminUserId, version }: LinkStaffAccount) =>
      act(ctx, id, 'create-account', version, async (tx, row) => {
        if (row.adminUserId) throw new AppError('staff.hasAccount');
        const account = await tx
          .selectFrom('admin_user')
          .select('username')
          .where('id', '=', adminUserId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!account) throw invalidField('adminUserId', texts[ctx.lang].noAccount);
        const holder = await tx
          .selectFrom('staff')
          .select('id')
          .where('admin_user_id', '=', adminUserId)
          .executeTakeFirst();
        if (holder) throw invalidField('adminUserId', texts[ctx.lang].accountTaken);
        await staffTable.update(tx, row.id, { adminUserId }, ctx);
        await record(tx, ctx, row, { kind: 'account', to: account.username, date: today(ctx) });
      }),

    reveal: idNumberRevealer<Staff>(deps.idNumbers, resource),

    history: (tenantId: string, id: string, viewer: string): Promise<StaffHistory[]> =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        if (!(await find(tx, id, viewer))) throw notFound();
        const rows = await tx
          .selectFrom('staff_history as h')
          .leftJoin('admin_user as u', 'u.id', 'h.created_by')
          .leftJoin('organization as f', 'f.id', 'h.from_org_id')
          .leftJoin('organization as t', 't.id', 'h.to_org_id')
          .select([
            'h.id',
            'h.kind',
            'f.name as from_org',
            't.name as to_org',
            'h.from_state',
            'h.to_state',
            'h.reason',
            'h.effective_date',
            'h.created_at',
            'u.display_name',
          ])
          .where('h.staff_id', '=', id)
          .orderBy('h.id', 'desc')
          .execute();
        return rows.map((r) => ({
          id: String(r.id),
          kind: r.kind,
          fromOrgName: r.from_org ?? null,
          toOrgName: r.to_org ?? null,
          fromState: r.from_state,
          toState: r.to_state,
          reason: r.reason,
          effectiveDate: r.effective_date,
          createdAt: new Date(r.created_at).toISOString(),
          createdByName: r.display_name ?? null,
        }));
      }),
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
