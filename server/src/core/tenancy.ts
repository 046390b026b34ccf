import { type Kysely, sql, type Transaction } from 'kysely';
import { APP_ROLE, SYSTEM_ROLE } from '../db/migrations/0002_tenancy_rls';
import type { DB } from '../db/types';
import { forbidden } from './errors';

export type Tx = Transaction<DB>;

/** The code of the tenant whose users operate the platform. */
export const PLATFORM_TENANT = 'platform';

/**
 * Every query of a request runs in a transaction under a role that cannot bypass row-level
 * security, with app.tenant_id set for that transaction only (set_config(..., true) is SET LOCAL).
 */
export interface Tenancy {
  /** Work inside one tenant: RLS shows and accepts only that tenant's rows (plus platform rows of hybrid tables). */
  inTenant<T>(tenantId: string, work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Before sign-in (public endpoints): global tables and the platform rows of hybrid tables only. */
  inPlatformScope<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Cross-tenant work that must happen before the tenant is known (tenant by code, token by hash)
   * and seeding. Call it only from core/system-lookups.ts and db/seed.
   */
  asSystem<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Platform-wide writes of a platform operator (tenants, packages, permissions, OAuth clients): global tables and
   * every tenant's rows, in one transaction. Refuses (403) unless `tenantId` is the platform tenant; call it only
   * from services behind platform-only permission codes.
   */
  asPlatformOperator<T>(tenantId: string, work: (tx: Tx) => Promise<T>): Promise<T>;
}

/** Wraps each transaction: the principal cache forgets what a transaction may have changed once it has ended. */
export type TransactionWatch = <T>(transaction: () => Promise<T>) => Promise<T>;

export function createTenancy(db: Kysely<DB>, watch: TransactionWatch = (transaction) => transaction()): Tenancy {
  const run = <T>(role: string, tenantId: string, work: (tx: Tx) => Promise<T>) =>
    watch(() =>
      db.transaction().execute(async (tx) => {
        await sql`SELECT set_config('role', ${role}, true), set_config('app.tenant_id', ${tenantId}, true)`.execute(tx);
        return work(tx);
      }),
    );
  return {
    inTenant(tenantId, work) {
      if (!/^[1-9]\d{0,18}$/.test(tenantId)) throw new Error(`invalid tenant id ${tenantId}`);
      return run(APP_ROLE, tenantId, work);
    },
    inPlatformScope(work) {
      return run(APP_ROLE, '', work);
    },
    asSystem(work) {
      return run(SYSTEM_ROLE, '', work);
    },
    asPlatformOperator(tenantId, work) {
      if (!/^[1-9]\d{0,18}$/.test(tenantId)) throw new Error(`invalid tenant id ${tenantId}`);
      return run(SYSTEM_ROLE, tenantId, async (tx) => {
        const tenant = await tx.selectFrom('tenant').select('code').where('id', '=', tenantId).executeTakeFirst();
        if (tenant?.code !== PLATFORM_TENANT) throw forbidden();
        return work(tx);
      });
    },
  };
}

/** A Tenancy whose `inTenant` is the platform operator's scope: resources over global tables hand it to the generic service. */
export function operatorTenancy(tenancy: Tenancy): Tenancy {
  return { ...tenancy, inTenant: (tenantId, work) => tenancy.asPlatformOperator(tenantId, work) };
}

/**
 * Inside a platform operator's transaction, runs `work` as one tenant would see the database (the application role,
 * that tenant's rows only), then returns to the operator's scope. For reads that must not mix tenants (settings).
 */
export async function seenByTenant<T>(
  tx: Tx,
  tenantId: string,
  operatorTenantId: string,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  await enterTenant(tx, tenantId);
  const result = await work(tx);
  await sql`SELECT set_config('role', ${SYSTEM_ROLE}, true), set_config('app.tenant_id', ${operatorTenantId}, true)`.execute(
    tx,
  );
  return result;
}

/** From here to the end of the transaction, `tx` sees the database as one tenant does (the application role). */
export async function enterTenant(tx: Tx, tenantId: string): Promise<void> {
  await sql`SELECT set_config('role', ${APP_ROLE}, true), set_config('app.tenant_id', ${tenantId}, true)`.execute(tx);
}
