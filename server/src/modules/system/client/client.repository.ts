import { createdAtFilter, type ListQuery, type ListSpec, statusFilter } from '../../../core/resource/list-query';
import { type Actor, columnsOf, type TableRow, tableRepository } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import { OauthClient } from './client.schema';

export const oauthClientList: ListSpec = {
  sort: { clientId: 'client_id', name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' },
  defaultSort: 'createdAt',
  filters: {
    keyword: { kind: 'keyword', columns: ['client_id', 'name', 'description'] },
    clientType: { kind: 'in', column: 'client_type', values: ['confidential', 'public'] },
    status: statusFilter,
    createdAt: createdAtFilter,
  },
};

const clients = tableRepository({
  name: 'oauth_client',
  columns: columnsOf(OauthClient, { except: ['clientSecret'] }),
  writeOnly: { secretHash: 'secret_hash' },
  softDelete: true,
});

export type OauthClientValues = Partial<
  Omit<OauthClient, 'id' | 'createdAt' | 'updatedAt' | 'version' | 'clientSecret'>
> & { secretHash?: string };

const asClient = (row: TableRow | undefined) =>
  row && ({ ...row, allowedTenantIds: (row.allowedTenantIds as unknown[] | null)?.map(String) ?? null } as OauthClient);

export async function listOauthClients(tx: Tx, query: ListQuery) {
  const { rows, total } = await clients.list(tx, query);
  return { rows: rows.map((r) => asClient(r) as OauthClient), total };
}
export const findOauthClient = async (tx: Tx, id: string) => asClient(await clients.find(tx, id));
export const insertOauthClient = async (tx: Tx, values: OauthClientValues, actor: Actor) =>
  asClient(await clients.insert(tx, values, actor)) as OauthClient;
export const updateOauthClient = async (
  tx: Tx,
  id: string,
  values: OauthClientValues,
  actor: Actor,
  version?: number,
) => asClient(await clients.update(tx, id, values, actor, version));
export const softDeleteOauthClients = (tx: Tx, ids: string[], actor: Actor) => clients.remove(tx, ids, actor);
