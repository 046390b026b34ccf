import type { Tx } from '../../core/tenancy';
import { PLATFORM_TENANT } from '../../core/tenancy';

/** A storage configuration as the stores read it (its secret still sealed). */
export interface StorageRecord {
  id: string;
  /** The code of the tenant that holds it: its outbound policy applies to the endpoint. */
  owner: string;
  provider: 'local' | 's3';
  endpoint: string | null;
  region: string | null;
  bucket: string | null;
  path_style: boolean;
  base_path: string | null;
  access_key_id: string | null;
  secret_enc: Uint8Array | null;
  signed_url_ttl_sec: number;
}

/** The SQL of the object stores (stores.ts): storage configurations as the stores read them, and their use. */

/** The columns a store is made from. */
const STORAGE_COLUMNS = [
  'id',
  'provider',
  'endpoint',
  'region',
  'bucket',
  'path_style',
  'base_path',
  'access_key_id',
  'secret_enc',
  'signed_url_ttl_sec',
] as const;

/** Storage configurations with their owners' codes, under the alias `s`. */
const storageRecords = (tx: Tx) =>
  tx
    .selectFrom('storage_config as s')
    .innerJoin('tenant as t', 't.id', 's.tenant_id')
    .select([...STORAGE_COLUMNS.map((c) => `s.${c}` as const), 't.code as owner']);

/** One configuration, as the transaction's scope sees it. */
export const storageRecordOf = (tx: Tx, id: string): Promise<StorageRecord | undefined> =>
  storageRecords(tx).where('s.id', '=', id).executeTakeFirst();

/** The enabled master configuration the transaction's scope sees (a tenant's own, under its scope). */
export const enabledMasterRecord = (tx: Tx): Promise<StorageRecord | undefined> =>
  storageRecords(tx).where('s.is_master', '=', true).where('s.status', '=', 'enabled').executeTakeFirst();

/** The platform tenant's enabled master configuration (read as the system). */
export const platformMasterRecord = (tx: Tx): Promise<StorageRecord | undefined> =>
  storageRecords(tx)
    .where('t.code', '=', PLATFORM_TENANT)
    .where('s.is_master', '=', true)
    .where('s.status', '=', 'enabled')
    .executeTakeFirst();

/** The endpoints of every enabled S3 configuration, each once (null: AWS itself). */
export async function enabledS3Endpoints(tx: Tx): Promise<(string | null)[]> {
  const rows = await tx
    .selectFrom('storage_config')
    .select('endpoint')
    .distinct()
    .where('provider', '=', 's3')
    .where('status', '=', 'enabled')
    .execute();
  return rows.map((r) => r.endpoint);
}

/** How many files each of the configurations holds, in every tenant the transaction sees. */
export async function fileCountsOf(tx: Tx, ids: readonly string[]): Promise<Map<string, number>> {
  const rows = await tx
    .selectFrom('file')
    .select(['storage_config_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('storage_config_id', 'in', [...ids])
    .groupBy('storage_config_id')
    .execute();
  return new Map(rows.map((r) => [String(r.storage_config_id), Number(r.n)]));
}

/**
 * Whether some tenant's new files go to the local disk: its enabled master is a local configuration, or it has none
 * and `fallback` (the platform's master's provider, local for the built-in disk) is local.
 */
export async function someTenantOnLocalDisk(tx: Tx, fallback: 'local' | 's3'): Promise<boolean> {
  const row = await tx
    .selectFrom('tenant as t')
    .leftJoin('storage_config as s', (join) =>
      join.onRef('s.tenant_id', '=', 't.id').on('s.is_master', '=', true).on('s.status', '=', 'enabled'),
    )
    .select('t.id')
    .where((eb) => eb(eb.fn.coalesce('s.provider', eb.val(fallback)), '=', 'local'))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
