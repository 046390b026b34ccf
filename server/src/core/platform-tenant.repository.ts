import { sql } from 'kysely';
import { PLATFORM_TENANT, type Tx } from './tenancy';
import { onceIn } from './tx-memo';

/**
 * The platform tenant's id as an operand of a condition. Its rows of settings, dictionary items and message templates
 * are the platform's, which every tenant reads (migration 0070: tenant_id leads every key, for Citus).
 */
export const platformTenant = sql<string>`(SELECT id FROM tenant WHERE code = ${PLATFORM_TENANT})`;

/** The platform tenant's id, read once per transaction: whose rows are the platform's shared ones. */
export function platformTenantId(tx: Tx): Promise<string> {
  return onceIn(tx, 'platform-tenant', async () => {
    const row = await tx
      .selectFrom('tenant')
      .select('id')
      .where('code', '=', PLATFORM_TENANT)
      .executeTakeFirstOrThrow();
    return String(row.id);
  });
}
