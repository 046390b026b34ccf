import type { Tenancy } from './tenancy';

/**
 * The only queries that run before the tenant of a request is known. Each one is narrow: it
 * answers which tenant a code or a token belongs to, and nothing about that tenant's data.
 */
export interface SystemLookups {
  tenantIdByCode(code: string): Promise<string | undefined>;
  tokenByHash(tokenHash: string): Promise<{ tokenId: string; tenantId: string; kind: 'access' | 'refresh' } | undefined>;
  /** A sign-in for a tenant code that does not exist still leaves a trace. */
  logUnknownTenantSignIn(entry: { username: string; clientId: string; ip: string | null; userAgent: string | null }): Promise<void>;
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
    tokenByHash: (tokenHash) =>
      tenancy.asSystem(async (tx) => {
        const row = await tx
          .selectFrom('auth_token')
          .select(['id', 'tenant_id', 'kind'])
          .where('token_hash', '=', tokenHash)
          .executeTakeFirst();
        return row && { tokenId: row.id, tenantId: row.tenant_id, kind: row.kind };
      }),
    logUnknownTenantSignIn: (entry) =>
      tenancy.asSystem(async (tx) => {
        await tx
          .insertInto('login_log')
          .values({
            tenant_id: null,
            username: entry.username.slice(0, 100),
            client_id: entry.clientId.slice(0, 64),
            log_type: 'login_password',
            result: 'unknown_tenant',
            ip: entry.ip,
            user_agent: entry.userAgent?.slice(0, 500) ?? null,
          })
          .execute();
      }),
  };
}
