import type { Config } from '../../../config';
import { AppError, invalidField, notFound } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import { type PasswordHasher, passwordPolicyError } from '../../../core/password';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import { operatorTenancy, PLATFORM_TENANT, seenByTenant, type Tx } from '../../../core/tenancy';
import { insertTenantAdminRole, syncTenantRoles } from '../role/role.repository';
import type { SettingsService } from '../settings/settings.service';
import type { TenantRow } from './tenant.repository';
import * as repo from './tenant.repository';
import { tenantResource } from './tenant.resource';
import type { CreateTenant, ResolvedTenant, Tenant, TenantImportRow, UpdateTenant } from './tenant.schema';

export type TenantRefusal = 'tenant.disabled' | 'tenant.expired';

/** Why a tenant may not sign in or use its tokens right now, if it may not. */
export function tenantRefusal(tenant: TenantRow, now: Date): TenantRefusal | undefined {
  if (tenant.status !== 'enabled') return 'tenant.disabled';
  if (tenant.expiresAt && tenant.expiresAt.getTime() <= now.getTime()) return 'tenant.expired';
  return undefined;
}

type Deps = ResourceDeps & { hasher: PasswordHasher; settings: SettingsService; config: Config };

const texts = {
  'zh-CN': {
    unknownPackage: '套餐不存在',
    domainTaken: '已被其他租户使用',
    adminRequired: '新租户须填写管理员账号、姓名和初始密码',
    futureDate: '须晚于当前时间',
    badDate: '日期格式不正确',
  },
  'en-US': {
    unknownPackage: 'does not exist',
    domainTaken: 'is used by another tenant',
    adminRequired: 'a new tenant needs the administrator’s user name, display name and initial password',
    futureDate: 'must be in the future',
    badDate: 'is not a valid date',
  },
};

const protectedPlatform = () => new AppError('tenant.platformProtected');

/**
 * Tenants are global and platform-only. Provisioning, package changes (re-syncing every role of the tenant) and the
 * lifecycle actions run as the platform operator, in one transaction each.
 */
export function createTenantService(deps: Deps) {
  const { tenancy, hasher, settings, config } = deps;

  const reload = async (tx: Tx, id: string): Promise<Tenant> => {
    const row = await repo.findTenant(tx, id, config.now());
    if (!row) throw notFound();
    return row;
  };

  async function checkPackage(tx: Tx, packageId: string, lang: Lang): Promise<void> {
    const pkg = await repo.findPackage(tx, packageId);
    if (!pkg) throw invalidField('packageId', texts[lang].unknownPackage);
    if (pkg.status !== 'enabled')
      throw new AppError('tenant.packageDisabled', {}, [{ field: 'packageId', message: '' }]);
  }

  async function checkDomains(
    tx: Tx,
    domains: string[] | undefined,
    id: string | null,
    lang: Lang,
  ): Promise<string[] | undefined> {
    if (!domains) return undefined;
    const unique = [...new Set(domains)];
    const taken = await repo.domainsTaken(tx, unique, id);
    if (taken.length > 0)
      throw new AppError('common.duplicate', {}, [
        { field: 'domains', message: `${taken.join(', ')} ${texts[lang].domainTaken}` },
      ]);
    return unique;
  }

  const isPlatform = (row: Tenant) => row.code === PLATFORM_TENANT;

  const store: ResourceStore<Tenant, CreateTenant, UpdateTenant> = {
    list: (tx, query) => repo.listTenants(tx, query, config.now()),
    find: (tx, id) => repo.findTenant(tx, id, config.now()),
    findByKey: (tx, code) => repo.findTenantByCode(tx, code, config.now()),

    /** The tenant, its tenant_admin role holding the package, the first administrator as its contact: all or nothing. */
    async create(tx, input, ctx) {
      const { adminUserName, adminPassword, adminDisplayName, expiresAt, domains, ...fields } = input;
      await checkPackage(tx, fields.packageId, ctx.lang);
      const tenantId = await repo.insertTenant(
        tx,
        {
          ...fields,
          domains: await checkDomains(tx, domains, null, ctx.lang),
          expiresAt: expiresAt ?? null,
          contactName: fields.contactName ?? adminDisplayName,
        },
        ctx,
      );
      const roleId = await insertTenantAdminRole(tx, tenantId, ctx);
      await syncTenantRoles(tx, tenantId, fields.packageId);
      const policy = await seenByTenant(tx, tenantId, ctx.tenantId, (t) => settings.passwordPolicy(t));
      const refusal = passwordPolicyError(adminPassword, policy, {
        username: adminUserName,
        field: 'adminPassword',
        context: [fields.code],
      });
      if (refusal) throw refusal;
      const adminUserId = await repo.insertFirstAdmin(
        tx,
        {
          tenantId,
          userName: adminUserName,
          displayName: adminDisplayName,
          passwordHash: await hasher.hash(adminPassword),
          // the operator chose this password: the administrator replaces it at first sign-in
          mustChangePassword: true,
          roleId,
        },
        ctx,
      );
      await repo.linkAdmin(tx, tenantId, adminUserId);
      return reload(tx, tenantId);
    },

    async update(tx, current, { version, domains, ...values }, ctx) {
      if (isPlatform(current) && values.packageId !== current.packageId) throw protectedPlatform();
      if (values.packageId === null && !isPlatform(current)) {
        throw invalidField('packageId', texts[ctx.lang].unknownPackage);
      }
      if (values.packageId && values.packageId !== current.packageId)
        await checkPackage(tx, values.packageId, ctx.lang);
      const checked = await checkDomains(tx, domains, current.id, ctx.lang);
      if (!(await repo.updateTenant(tx, current.id, { ...values, ...(checked && { domains: checked }) }, ctx, version)))
        return undefined;
      if (values.packageId !== current.packageId) await syncTenantRoles(tx, current.id, values.packageId);
      return reload(tx, current.id);
    },

    async remove(tx, rows, ctx) {
      if (rows.some(isPlatform)) throw protectedPlatform();
      await repo.softDeleteTenants(
        tx,
        rows.map((r) => r.id),
        ctx,
      );
    },

    async fromImport(tx, record, existing, ctx) {
      const r = record as TenantImportRow;
      const packageId = await repo.findPackageIdByName(tx, r.packageName);
      if (!packageId)
        throw new AppError('common.validation', {}, [
          { field: 'packageName', message: texts[ctx.lang].unknownPackage },
        ]);
      let expiresAt: string | null | undefined;
      if (r.expiresAt) {
        const d = new Date(r.expiresAt.length === 10 ? `${r.expiresAt}T23:59:59+08:00` : r.expiresAt);
        if (Number.isNaN(d.getTime())) throw invalidField('expiresAt', texts[ctx.lang].badDate);
        expiresAt = d.toISOString();
      }
      const fields = {
        name: r.name,
        packageId,
        maxAccounts: r.maxAccounts,
        contactName: r.contactName,
        contactMobile: r.contactMobile,
      };
      if (existing)
        return { ...fields, ...(expiresAt !== undefined && { expiresAt }), version: existing.version } as UpdateTenant;
      if (!r.adminUserName || !r.adminDisplayName || !r.adminPassword) {
        throw new AppError('common.validation', {}, [
          { field: 'adminUserName', message: texts[ctx.lang].adminRequired },
        ]);
      }
      return {
        ...fields,
        code: r.code,
        expiresAt: expiresAt ?? null,
        adminUserName: r.adminUserName,
        adminDisplayName: r.adminDisplayName,
        adminPassword: r.adminPassword,
      } as CreateTenant;
    },
  };

  const resource = createResourceService(tenantResource, store, { ...deps, tenancy: operatorTenancy(tenancy) });

  const setStatus = (ctx: WriteContext, id: string, status: 'enabled' | 'disabled') =>
    resource.act(ctx, id, status === 'enabled' ? 'enable' : 'disable', async (tx, row) => {
      if (isPlatform(row)) throw protectedPlatform();
      await repo.updateTenant(tx, id, { status }, ctx);
      return reload(tx, id);
    });

  return {
    resource,

    /** Its users can no longer sign in, refresh, or use the tokens they hold. */
    disable: (ctx: WriteContext, id: string) => setStatus(ctx, id, 'disabled'),
    enable: (ctx: WriteContext, id: string) => setStatus(ctx, id, 'enabled'),

    renew: (ctx: WriteContext, id: string, expiresAt: string | null) =>
      resource.act(ctx, id, 'renew', async (tx, row) => {
        if (expiresAt && new Date(expiresAt).getTime() <= ctx.now.getTime()) {
          throw invalidField('expiresAt', texts[ctx.lang].futureDate);
        }
        if (isPlatform(row)) throw protectedPlatform();
        await repo.updateTenant(tx, id, { expiresAt }, ctx);
        return reload(tx, id);
      }),

    /** For the sign-in page, before anyone is signed in: name and status only. */
    async resolve(by: { code?: string; domain?: string }): Promise<ResolvedTenant> {
      const row = await tenancy.inPlatformScope((tx) => repo.resolveTenant(tx, by));
      if (!row) throw notFound();
      const refusal = tenantRefusal(
        { id: '', code: row.code, name: row.name, status: row.status, expiresAt: row.expires_at },
        config.now(),
      );
      return { code: row.code, name: row.name, status: refusal === 'tenant.expired' ? 'expired' : row.status };
    },
  };
}

export type TenantService = ReturnType<typeof createTenantService>;
