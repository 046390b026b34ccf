import { randomInt } from 'node:crypto';
import type { Config } from '../../../config';
import { AppError, invalidField, notFound } from '../../../core/errors';
import { type PasswordHasher, type PasswordPolicy, passwordPolicyError } from '../../../core/password';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import { allLive } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import { insertLoginLog, revokeSessions } from '../../auth/auth.repository';
import type { SettingsService } from '../settings/settings.service';
import { findAccountQuota } from '../tenant/tenant.repository';
import * as repo from './admin.repository';
import { adminUserResource } from './admin.resource';
import type { AdminUser, AdminUserImportRow, CreateAdminUser, UpdateAdminUser } from './admin.schema';

type Deps = ResourceDeps & { hasher: PasswordHasher; settings: SettingsService; config: Config };

const texts = {
  'zh-CN': { unknownRole: '角色不存在', passwordRequired: '新账号须填写初始密码' },
  'en-US': { unknownRole: 'contains a role that does not exist', passwordRequired: 'is required for a new account' },
};

const selfOperation = () => new AppError('admin.selfOperation');

const passwordAlphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Random, unambiguous characters, with a letter and a digit, long enough for the policy. */
export function temporaryPassword(policy: PasswordPolicy): string {
  const length = Math.max(12, policy.minLength);
  for (;;) {
    const candidate = Array.from({ length }, () => passwordAlphabet[randomInt(passwordAlphabet.length)]).join('');
    if (/[A-Za-z]/.test(candidate) && /\d/.test(candidate)) return candidate;
  }
}

export function createAdminUserService(deps: Deps) {
  const { tenancy, hasher, settings } = deps;

  async function checkPassword(tx: Tx, password: string, username: string): Promise<void> {
    const refusal = passwordPolicyError(password, await settings.passwordPolicy(tx), { username, field: 'password' });
    if (refusal) throw refusal;
  }

  async function checkRoles(tx: Tx, roleIds: string[], ctx: WriteContext): Promise<string[]> {
    const unique = [...new Set(roleIds)];
    if (!(await allLive(tx, 'role', unique))) {
      throw invalidField('roleIds', texts[ctx.lang].unknownRole);
    }
    return unique;
  }

  async function checkQuota(tx: Tx, tenantId: string): Promise<void> {
    await repo.lockAccountQuota(tx, tenantId);
    const max = await findAccountQuota(tx, tenantId);
    if (max !== undefined && (await repo.countAccounts(tx)) >= max)
      throw new AppError('tenant.accountQuotaExceeded', { max });
  }

  async function roleIdsByCode(tx: Tx, text: string, ctx: WriteContext): Promise<string[]> {
    const codes = [...new Set(text.split(/[,，;；\s]+/).filter(Boolean))];
    const ids = await repo.findRoleIdsByCode(tx, codes);
    if (ids.size !== codes.length) throw invalidField('roles', texts[ctx.lang].unknownRole);
    return [...ids.values()];
  }

  const reload = async (tx: Tx, id: string): Promise<AdminUser> => {
    const row = await repo.findAdminUser(tx, id);
    if (!row) throw notFound();
    return row;
  };

  const store: ResourceStore<AdminUser, CreateAdminUser, UpdateAdminUser> = {
    list: repo.listAdminUsers,
    find: repo.findAdminUser,
    findByKey: repo.findAdminUserByUsername,

    async create(tx, input, ctx) {
      const { password, roleIds, mustChangePassword, ...fields } = input;
      await checkQuota(tx, ctx.tenantId);
      await checkPassword(tx, password, fields.userName);
      const roles = await checkRoles(tx, roleIds, ctx);
      const id = await repo.insertAdminUser(
        tx,
        {
          ...fields,
          passwordHash: await hasher.hash(password),
          passwordChangedAt: ctx.now,
          mustChangePassword: mustChangePassword ?? true,
        },
        ctx,
      );
      await repo.replaceUserRoles(tx, ctx.tenantId, id, roles);
      return reload(tx, id);
    },

    async update(tx, current, input, ctx) {
      const { version, roleIds, ...fields } = input;
      const roles = roleIds && (await checkRoles(tx, roleIds, ctx));
      if (!(await repo.updateAdminUser(tx, current.id, fields, ctx, version))) return undefined;
      if (roles) await repo.replaceUserRoles(tx, ctx.tenantId, current.id, roles);
      return reload(tx, current.id);
    },

    async remove(tx, rows, ctx) {
      if (rows.some((r) => r.id === ctx.actorId)) throw selfOperation();
      await repo.softDeleteAdminUsers(
        tx,
        rows.map((r) => r.id),
        ctx,
      );
      for (const row of rows) await revokeSessions(tx, { userId: row.id }, 'user_deleted', ctx.now);
    },

    /** Upsert keeps what a blank cell leaves out and never touches an existing password; new accounts must change theirs. */
    async fromImport(tx, record, existing, ctx): Promise<CreateAdminUser | UpdateAdminUser> {
      const r = record as AdminUserImportRow;
      const roleIds = r.roles === undefined ? undefined : await roleIdsByCode(tx, r.roles, ctx);
      const fields = { displayName: r.displayName, mobile: r.mobile, email: r.email, remark: r.remark };
      if (existing) return { ...fields, roleIds, version: existing.version };
      if (!r.password) throw invalidField('password', texts[ctx.lang].passwordRequired);
      return {
        ...fields,
        userName: r.userName,
        password: r.password,
        roleIds: roleIds ?? [],
        mustChangePassword: true,
      };
    },
  };

  const resource = createResourceService(adminUserResource, store, deps);

  const setStatus = (ctx: WriteContext, id: string, action: 'enable' | 'disable' | 'unlock') =>
    resource.act(
      ctx,
      id,
      'update-status',
      async (tx, row) => {
        if (action === 'disable') {
          if (row.id === ctx.actorId) throw selfOperation();
          await repo.updateAdminUser(tx, id, { status: 'disabled' }, ctx);
          await revokeSessions(tx, { userId: id }, 'user_disabled', ctx.now);
        } else if (action === 'enable') {
          await repo.updateAdminUser(tx, id, { status: 'enabled' }, ctx);
        } else {
          const status = row.status === 'locked' ? 'enabled' : row.status;
          await repo.updateAdminUser(tx, id, { status, failedLoginCount: 0, lockedUntil: null }, ctx);
        }
        return reload(tx, id);
      },
      action,
    );

  return {
    resource,

    /** An account made inside another write's transaction (a staff member's), audited by that write. */
    createIn: store.create,

    /** Turns an account off inside another write's transaction: its sessions end with it. */
    async disableIn(tx: Tx, id: string, ctx: WriteContext): Promise<void> {
      await repo.updateAdminUser(tx, id, { status: 'disabled' }, ctx);
      await revokeSessions(tx, { userId: id }, 'user_disabled', ctx.now);
    },

    enable: (ctx: WriteContext, id: string) => setStatus(ctx, id, 'enable'),
    disable: (ctx: WriteContext, id: string) => setStatus(ctx, id, 'disable'),
    unlock: (ctx: WriteContext, id: string) => setStatus(ctx, id, 'unlock'),

    /** A new random password, returned once; the user must change it and their sessions end. */
    async resetPassword(ctx: WriteContext, id: string): Promise<{ temporaryPassword: string }> {
      const policy = await tenancy.inTenant(ctx.tenantId, (tx) => settings.passwordPolicy(tx));
      const password = temporaryPassword(policy);
      const passwordHash = await hasher.hash(password);
      await resource.act(ctx, id, 'reset-password', async (tx) => {
        await repo.updateAdminUser(tx, id, { passwordHash, passwordChangedAt: ctx.now, mustChangePassword: true }, ctx);
        await revokeSessions(tx, { userId: id }, 'password_reset', ctx.now);
        return reload(tx, id);
      });
      return { temporaryPassword: password };
    },

    /** Ends every session of the user: their access and refresh tokens stop working at once. */
    async forceLogout(ctx: WriteContext, id: string): Promise<{ revokedSessions: number }> {
      let revokedSessions = 0;
      await resource.act(ctx, id, 'force-logout', async (tx, row) => {
        revokedSessions = await revokeSessions(tx, { userId: id }, 'forced_logout', ctx.now);
        await insertLoginLog(tx, {
          tenantId: ctx.tenantId,
          userId: id,
          username: row.userName,
          clientId: null,
          logType: 'logout_forced',
          result: 'success',
          ip: ctx.ip,
          userAgent: ctx.userAgent,
        });
        return row;
      });
      return { revokedSessions };
    },

    assignRoles: (ctx: WriteContext, id: string, roleIds: string[]) =>
      resource.act(ctx, id, 'assign-role', async (tx) => {
        const roles = await checkRoles(tx, roleIds, ctx);
        await repo.updateAdminUser(tx, id, {}, ctx);
        await repo.replaceUserRoles(tx, ctx.tenantId, id, roles);
        return reload(tx, id);
      }),
  };
}

export type AdminUserService = ReturnType<typeof createAdminUserService>;
