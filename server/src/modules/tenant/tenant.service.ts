import type { TenantRow } from './tenant.repository';

export type TenantRefusal = 'tenant.disabled' | 'tenant.expired';

/** Why a tenant may not sign in or use its tokens right now, if it may not. */
export function tenantRefusal(tenant: TenantRow, now: Date): TenantRefusal | undefined {
  if (tenant.status !== 'enabled') return 'tenant.disabled';
  if (tenant.expiresAt && tenant.expiresAt.getTime() <= now.getTime()) return 'tenant.expired';
  return undefined;
}
