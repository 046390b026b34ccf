import { sql } from 'kysely';
import { platformTenant } from '../../../core/platform-tenant.repository';
import type { Actor } from '../../../core/resource/table.repository';
import { currentTenant, type Tx } from '../../../core/tenancy';
import type { SettingValueType } from './settings.schema';

export interface SettingValueRow {
  key: string;
  /** null for the platform's row (the platform tenant's), else the tenant whose override it is */
  tenantId: string | null;
  value: unknown;
}

/** Whether a row is the platform's: its tenant is the platform tenant (migration 0070). */
const shared = sql<boolean>`tenant_id = ${platformTenant}`.as('shared');
const tenantOf = (r: { shared: boolean; tenant_id: string }) => (r.shared ? null : r.tenant_id);

/** Rows visible in the transaction's scope: platform defaults and, inside a tenant, its overrides. */
export async function findSettingValues(tx: Tx, keys: readonly string[]): Promise<SettingValueRow[]> {
  if (keys.length === 0) return [];
  const rows = await tx
    .selectFrom('system_setting')
    .select(['key', 'tenant_id', 'value', shared])
    .where('key', 'in', keys)
    .execute();
  return rows.map((r) => ({ key: r.key, tenantId: tenantOf(r), value: r.value }));
}

/**
 * The code of the transaction's tenant when it overrides one of `keys`, else undefined (the platform's values are in
 * force): whose address a group of settings is.
 */
export async function findOverridingTenant(tx: Tx, keys: readonly string[]): Promise<string | undefined> {
  if (keys.length === 0) return undefined;
  const row = await tx
    .selectFrom('system_setting as s')
    .innerJoin('tenant as t', 't.id', 's.tenant_id')
    .select('t.code')
    .where('s.key', 'in', keys)
    .where('s.tenant_id', '=', currentTenant)
    .limit(1)
    .executeTakeFirst();
  return row?.code;
}

/** The sealed values of the secret settings among `keys` visible in the transaction's scope (null: none set). */
export async function findSealedSettingValues(
  tx: Tx,
  keys: readonly string[],
): Promise<{ key: string; tenantId: string | null; value: Uint8Array | null }[]> {
  if (keys.length === 0) return [];
  const rows = await tx
    .selectFrom('system_setting')
    .select(['key', 'tenant_id', 'value_enc', shared])
    .where('key', 'in', keys)
    .where('value_type', '=', 'secret')
    .execute();
  return rows.map((r) => ({ key: r.key, tenantId: tenantOf(r), value: r.value_enc }));
}

/** Secret settings whose value is still text in `value` (as a release before sealing kept them): every tenant's. */
export async function findClearSecretSettings(tx: Tx): Promise<{ id: string; value: string }[]> {
  const { rows } = await sql<{ id: string | number; value: string }>`
    SELECT id, value #>> '{}' AS value FROM system_setting
    WHERE value_type = 'secret' AND jsonb_typeof(value) = 'string' AND value <> '""'::jsonb
    ORDER BY id`.execute(tx);
  return rows.map((r) => ({ id: String(r.id), value: r.value }));
}

/** The row's secret moved into `value_enc`, sealed; its version stays: the value did not change. */
export async function writeSealedSetting(tx: Tx, id: string, sealed: Buffer): Promise<void> {
  await tx
    .updateTable('system_setting')
    .set({ value: JSON.stringify(''), value_enc: sealed })
    .where('id', '=', id)
    .execute();
}

export async function findPublicSettingValues(tx: Tx): Promise<SettingValueRow[]> {
  const rows = await tx
    .selectFrom('system_setting')
    .select(['key', 'tenant_id', 'value', shared])
    .where('key', 'in', (qb) =>
      qb
        .selectFrom('system_setting')
        .select('key')
        .where('tenant_id', '=', platformTenant)
        .where('is_public', '=', true)
        .where('value_type', '!=', 'secret'),
    )
    .execute();
  return rows.map((r) => ({ key: r.key, tenantId: tenantOf(r), value: r.value }));
}

export interface SettingRecord {
  id: string;
  /** null for the platform's row, as in SettingValueRow */
  tenantId: string | null;
  key: string;
  category: string;
  name: string;
  nameEn: string | null;
  description: string | null;
  value: unknown;
  /** A secret setting has a (sealed) value. */
  secretSet: boolean;
  valueType: SettingValueType;
  options: unknown;
  min: number | null;
  max: number | null;
  isPublic: boolean;
  isSystem: boolean;
  visible: boolean;
  tenantOverridable: boolean;
  version: number;
  updatedAt: Date | null;
}

const settingColumns = [
  'id',
  'tenant_id',
  'key',
  'category',
  'name',
  'name_en',
  'description',
  'value',
  'value_type',
  'options',
  'min_value',
  'max_value',
  'is_public',
  'is_system',
  'visible',
  'tenant_overridable',
  'version',
  'updated_at',
  'sort',
] as const;

type SettingSelect = { [K in (typeof settingColumns)[number] | 'shared' | 'secret_set']: unknown };

function toRecord(r: SettingSelect): SettingRecord {
  return {
    id: r.id as string,
    tenantId: r.shared ? null : (r.tenant_id as string),
    key: r.key as string,
    category: r.category as string,
    name: r.name as string,
    nameEn: r.name_en as string | null,
    description: r.description as string | null,
    value: r.value,
    secretSet: Boolean(r.secret_set),
    valueType: r.value_type as SettingValueType,
    options: r.options,
    min: r.min_value === null ? null : Number(r.min_value),
    max: r.max_value === null ? null : Number(r.max_value),
    isPublic: r.is_public as boolean,
    isSystem: r.is_system as boolean,
    visible: r.visible as boolean,
    tenantOverridable: r.tenant_overridable as boolean,
    version: r.version as number,
    updatedAt: (r.updated_at as Date | null) ?? null,
  };
}

/** Platform rows and (inside a tenant) the tenant's overrides, in display order. */
export async function listSettingRecords(
  tx: Tx,
  filter: { category?: string; key?: string } = {},
): Promise<SettingRecord[]> {
  let q = tx
    .selectFrom('system_setting')
    .select([...settingColumns, shared, sql<boolean>`value_enc IS NOT NULL`.as('secret_set')]);
  if (filter.category) q = q.where('category', '=', filter.category);
  if (filter.key) q = q.where('key', '=', filter.key);
  const rows = await q.orderBy('sort').orderBy('key').orderBy('id').execute();
  return rows.map((r) => toRecord(r as SettingSelect));
}

/** A value as stored: a secret's is sealed in `sealed`, its `value` then an empty string. */
export interface StoredSetting {
  value: unknown;
  sealed?: Buffer | null;
}

/** A tenant override starts at version 1 (0 stands for "none yet"). */
export async function insertSettingOverride(
  tx: Tx,
  platform: SettingRecord,
  tenantId: string,
  { value, sealed }: StoredSetting,
  actor: Actor,
): Promise<void> {
  await tx
    .insertInto('system_setting')
    .values({
      tenant_id: tenantId,
      key: platform.key,
      category: platform.category,
      name: platform.name,
      value: JSON.stringify(value),
      value_enc: sealed ?? null,
      value_type: platform.valueType as SettingValueType,
      version: 1,
      created_at: actor.now,
      created_by: actor.actorId,
    })
    .execute();
}

/** Optimistic when `version` is given; false when stale. */
export async function updateSettingValue(
  tx: Tx,
  id: string,
  { value, sealed }: StoredSetting,
  actor: Actor,
  version?: number,
): Promise<boolean> {
  let q = tx
    .updateTable('system_setting')
    .set({
      value: JSON.stringify(value),
      ...(sealed === undefined ? {} : { value_enc: sealed }),
      updated_at: actor.now,
      updated_by: actor.actorId,
      version: sql`version + 1`,
    })
    .where('id', '=', id);
  if (version !== undefined) q = q.where('version', '=', version);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteSettingRow(tx: Tx, id: string): Promise<void> {
  await tx.deleteFrom('system_setting').where('id', '=', id).execute();
}
