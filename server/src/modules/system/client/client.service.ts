import { AppError, invalidField, notFound } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { PasswordHasher } from '../../../core/password';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import { allLive } from '../../../core/resource/table.repository';
import { operatorTenancy, type Tx } from '../../../core/tenancy';
import { newToken } from '../../../core/tokens';
import { revokeSessions } from '../../auth/auth.repository';
import * as repo from './client.repository';
import { oauthClientResource } from './client.resource';
import type { CreateOauthClient, OauthClient, UpdateOauthClient } from './client.schema';

type Deps = ResourceDeps & { hasher: PasswordHasher };

const texts = {
  'zh-CN': { unknownTenant: '包含不存在的租户' },
  'en-US': { unknownTenant: 'contains a tenant that does not exist' },
};

/**
 * OAuth clients are global and platform-only. A confidential client's secret is shown once (create, rotate) and
 * stored as an argon2 hash; disabling, deleting or revoking ends every session issued to the client.
 */
export function createOauthClientService(deps: Deps) {
  const { hasher } = deps;

  async function checkTenants(tx: Tx, ids: string[] | null, lang: Lang): Promise<string[] | null> {
    if (ids === null) return null;
    const unique = [...new Set(ids)];
    if (!(await allLive(tx, 'tenant', unique))) {
      throw invalidField('allowedTenantIds', texts[lang].unknownTenant);
    }
    return unique;
  }

  const store: ResourceStore<OauthClient, CreateOauthClient, UpdateOauthClient> = {
    list: repo.listOauthClients,
    find: repo.findOauthClient,
    async create(tx, input, ctx) {
      const allowedTenantIds = await checkTenants(tx, input.allowedTenantIds, ctx.lang);
      const clientSecret = input.clientType === 'confidential' ? newToken() : undefined;
      const row = await repo.insertOauthClient(
        tx,
        { ...input, allowedTenantIds, ...(clientSecret && { secretHash: await hasher.hash(clientSecret) }) },
        ctx,
      );
      return clientSecret ? { ...row, clientSecret } : row;
    },
    async update(tx, current, { version, ...values }, ctx) {
      if (current.clientType === 'public' && values.grantTypes.includes('client_credentials')) {
        throw new AppError('common.validation', {}, [
          { field: 'grantTypes', message: 'client_credentials needs a confidential client' },
        ]);
      }
      const allowedTenantIds = await checkTenants(tx, values.allowedTenantIds, ctx.lang);
      const after = await repo.updateOauthClient(tx, current.id, { ...values, allowedTenantIds }, ctx, version);
      if (after && after.status === 'disabled' && current.status !== 'disabled') {
        await revokeSessions(tx, { clientId: current.clientId }, 'client_disabled', ctx.now);
      }
      return after;
    },
    async remove(tx, rows, ctx) {
      await repo.softDeleteOauthClients(
        tx,
        rows.map((r) => r.id),
        ctx,
      );
      for (const row of rows) await revokeSessions(tx, { clientId: row.clientId }, 'client_deleted', ctx.now);
    },
  };

  const resource = createResourceService(oauthClientResource, store, {
    ...deps,
    tenancy: operatorTenancy(deps.tenancy),
  });

  return {
    resource,

    /** A new secret, returned once; the old one stops working at once. */
    async rotateSecret(ctx: WriteContext, id: string): Promise<{ clientSecret: string }> {
      const clientSecret = newToken();
      const secretHash = await hasher.hash(clientSecret);
      await resource.act(ctx, id, 'rotate-secret', async (tx, row) => {
        if (row.clientType !== 'confidential') throw new AppError('client.noSecret');
        const after = await repo.updateOauthClient(tx, id, { secretHash }, ctx);
        if (!after) throw notFound();
        return after;
      });
      return { clientSecret };
    },

    /** Every session issued to the client, in every tenant: its access and refresh tokens stop working at once. */
    async revokeTokens(ctx: WriteContext, id: string): Promise<{ revokedSessions: number }> {
      let revokedSessions = 0;
      await resource.act(ctx, id, 'revoke-tokens', async (tx, row) => {
        revokedSessions = await revokeSessions(tx, { clientId: row.clientId }, 'client_revoked', ctx.now);
        return row;
      });
      return { revokedSessions };
    },
  };
}

export type OauthClientService = ReturnType<typeof createOauthClientService>;
