import { type Kysely, sql } from 'kysely';
import { APP_ROLE, SYSTEM_ROLE } from '../db/migrations/0002_tenancy_rls';
import type { DB } from '../db/types';
import { forbidden } from './errors';

declare const inTransaction: unique symbol;

/** The one connection of a transaction that Tenancy opened, with its role and tenant set: only Tenancy makes one. */
export type Tx = Kysely<DB> & { readonly [inTransaction]: true };

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
   * and seeding. Call it only from core/system-lookups.ts, core/tenant-jobs.ts, db/seed and modules/file/stores.ts
   * (a tenant's files may be kept in the platform tenant's store).
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

type Role = typeof APP_ROLE | typeof SYSTEM_ROLE;

const TENANT_ID = /^[1-9]\d{0,18}$/;

/**
 * The statement that sets the role and the tenant until the transaction ends, with both as literals: the role is one
 * of ours and the tenant id only digits (checked here), so that it can travel with BEGIN as one simple query.
 */
function scope(role: Role, tenantId: string | null): string {
  if (tenantId !== null && !TENANT_ID.test(tenantId)) throw new Error(`invalid tenant id ${tenantId}`);
  return `SELECT set_config('role', '${role}', true), set_config('app.tenant_id', '${tenantId ?? ''}', true)`;
}

/**
 * Each transaction costs two round trips besides its work: BEGIN with the scope in one simple query, and COMMIT
 * (ROLLBACK when the work or the commit fails, as Kysely's own transactions do).
 */
export function createTenancy(db: Kysely<DB>, watch: TransactionWatch = (transaction) => transaction()): Tenancy {
  const run = <T>(role: Role, tenantId: string | null, work: (tx: Tx) => Promise<T>) => {
    const begin = sql.raw(`BEGIN; ${scope(role, tenantId)}`);
    return watch(() =>
      db.connection().execute(async (connection) => {
        const tx = connection as Tx;
        try {
          await begin.execute(tx);
          const result = await work(tx);
          await sql.raw('COMMIT').execute(tx);
          return result;
        } catch (error) {
          await sql.raw('ROLLBACK').execute(tx);
          throw error;
        }
      }),
    );
  };
  return {
    inTenant(tenantId, work) {
      return run(APP_ROLE, tenantId, work);
    },
    inPlatformScope(work) {
      return run(APP_ROLE, null, work);
    },
    asSystem(work) {
      return run(SYSTEM_ROLE, null, work);
    },
    asPlatformOperator(tenantId, work) {
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
  await sql.raw(scope(SYSTEM_ROLE, operatorTenantId)).execute(tx);
  return result;
}

/** From here to the end of the transaction, `tx` sees the database as one tenant does (the application role). */
export async function enterTenant(tx: Tx, tenantId: string): Promise<void> {
  await sql.raw(scope(APP_ROLE, tenantId)).execute(tx);
}

/** The transaction's tenant as an operand of a condition (`readIndexed`'s reads name it themselves). */
export const currentTenant = sql<string>`NULLIF(current_setting('app.tenant_id', true), '')::bigint`;

/**
 * A read that GIN indexes answer within the transaction's tenant. Under row-level security a condition is tested
 * before the policy, and so by an index, only when its operators are leakproof; those of trigrams and of array
 * overlap and containment are not, so under the application role a keyword or a knowledge-point filter is tested on
 * every row of the tenant. `read` runs as the system role, whose policy (`true`) no condition waits for, and must
 * name the tenant itself (`currentTenant`). It answers ids and counts, never rows to show: the caller reads the rows
 * again under the application role's policy, so a read that forgot its tenant could miscount, not show a row of
 * another tenant. The transaction's role is restored after it.
 */
export async function readIndexed<T>(tx: Tx, read: () => Promise<T>): Promise<T> {
  const { rows } = await sql<{ was: string }>`SELECT current_setting('role') AS was,
    set_config('role', ${SYSTEM_ROLE}, true)`.execute(tx);
  const result = await read();
  await sql`SELECT set_config('role', ${rows[0]?.was ?? APP_ROLE}, true)`.execute(tx);
  return result;
}
