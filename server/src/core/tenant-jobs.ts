import type { Tenancy, Tx } from './tenancy';

/**
 * Scheduled work across tenants (the daily expiry of qualifications and of experts' terms): the tenants `due` finds,
 * as the system, then `work` in each tenant's own transaction, under its row-level security. Answers the sum of what
 * each tenant's work answers (how many rows it changed).
 */
export async function inEachTenant(
  tenancy: Tenancy,
  due: (tx: Tx) => Promise<{ tenant_id: string | number }[]>,
  work: (tx: Tx, tenantId: string) => Promise<number>,
): Promise<number> {
  const tenants = await tenancy.asSystem(due);
  let done = 0;
  for (const { tenant_id } of tenants) {
    const tenantId = String(tenant_id);
    done += await tenancy.inTenant(tenantId, (tx) => work(tx, tenantId));
  }
  return done;
}
