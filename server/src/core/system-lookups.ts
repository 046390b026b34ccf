import type { TokenKind } from '../db/types';
import { enterTenant, PLATFORM_TENANT, type Tenancy, type Tx } from './tenancy';

/**
 * The only queries that run before the tenant of a request is known. Each one is narrow: it
 * answers which tenant a code or a token belongs to, and nothing about that tenant's data.
 */
export interface SystemLookups {
  tenantIdByCode(code: string): Promise<string | undefined>;
  /**
   * Finds the token of that hash and kind and runs `work` inside its tenant, in the same transaction (one round of
   * BEGIN/COMMIT per request); undefined when there is no such token.
   */
  inTenantOfToken<T>(
    tokenHash: string,
    kind: TokenKind,
    work: (tx: Tx, token: { tokenId: string; tenantId: string }) => Promise<T>,
  ): Promise<T | undefined>;
  /** A sign-in for a tenant code that does not exist still leaves a trace. */
  logUnknownTenantSignIn(entry: {
    username: string;
    clientId: string;
    ip: string | null;
    userAgent: string | null;
  }): Promise<void>;
}

export function createSystemLookups(tenancy: Tenancy): SystemLookups {
  return {
    tenantIdByCode: (code) =>
      tenancy.asSystem(async (tx) => {
        const row = await tx
          .selectFrom('tenant')
          .select('id')
          .where('code', '=', code)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        return row?.id;
      }),
    inTenantOfToken: (tokenHash, kind, work) =>
      tenancy.asSystem(async (tx) => {
        const row = await tx
          .selectFrom('auth_token')
          .select(['id', 'tenant_id'])
          .where('token_hash', '=', tokenHash)
          .where('kind', '=', kind)
          .executeTakeFirst();
        if (!row) return undefined;
        await enterTenant(tx, row.tenant_id);
        return work(tx, { tokenId: row.id, tenantId: row.tenant_id });
      }),
    logUnknownTenantSignIn: (entry) =>
      tenancy.asSystem(async (tx) => {
        // Kept under the platform tenant (login_log is keyed by tenant); no platform tenant yet, no trace.
        await tx
          .insertInto('login_log')
          .columns(['tenant_id', 'username', 'client_id', 'log_type', 'result', 'ip', 'user_agent'])
          .expression((eb) =>
            eb
              .selectFrom('tenant')
              .select((s) => [
                'id',
                s.val(entry.username.slice(0, 100)).as('username'),
                s.val(entry.clientId.slice(0, 64)).as('client_id'),
                s.val('login_password').as('log_type'),
                s.val('unknown_tenant').as('result'),
                s.val(entry.ip).as('ip'),
                s.val(entry.userAgent?.slice(0, 500) ?? null).as('user_agent'),
              ])
              .where('code', '=', PLATFORM_TENANT),
          )
          .execute();
      }),
  };
}
