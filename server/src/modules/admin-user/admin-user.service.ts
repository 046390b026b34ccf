import { notFound } from '../../core/errors';
import type { Tenancy } from '../../core/tenancy';
import { type AdminUserRow, findAdminUserById } from './admin-user.repository';
import type { AdminUser } from './admin-user.schema';

export function toAdminUser(row: AdminUserRow): AdminUser {
  return {
    id: row.id,
    userName: row.username,
    displayName: row.displayName,
    email: row.email,
    mobile: row.mobile,
    orgId: row.orgId,
    status: row.status,
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt?.toISOString() ?? null,
    version: row.version,
  };
}

export function createAdminUserService(deps: { tenancy: Tenancy }) {
  return {
    async get(tenantId: string, id: string): Promise<AdminUser> {
      const row = await deps.tenancy.inTenant(tenantId, (tx) => findAdminUserById(tx, id));
      if (!row) throw notFound();
      return toAdminUser(row);
    },
  };
}

export type AdminUserService = ReturnType<typeof createAdminUserService>;
