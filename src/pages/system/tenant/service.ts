import type { CreateTenant, Tenant, UpdateTenant } from '@server/modules/system/tenant/tenant.schema';
import type { TenantPackage } from '@server/modules/system/tenant-package/tenant-package.schema';
import { resourceService } from '@/services/resource';

export const tenants = resourceService<Tenant, CreateTenant, UpdateTenant>('system/tenant');
export const tenantPackages = resourceService<TenantPackage>('system/tenant-package');

export type TenantAction = 'disable' | 'enable';

export const changeTenantStatus = (id: string, action: TenantAction) => tenants.action(id, action);
/** A new expiry (ISO date-time), or null: never expires. */
export const renewTenant = (id: string, expiresAt: string | null) => tenants.action(id, 'renew', { expiresAt });

/** Enabled packages for the tenant form's select. */
export async function packageOptions() {
  const { data } = await tenantPackages.list({ current: '1', pageSize: '200', status: 'enabled', sort: 'name' });
  return data.map((p) => ({ label: p.name, value: p.id }));
}
