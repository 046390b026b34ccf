import { sql } from 'kysely';
import { platformTenant } from '../../../core/platform-tenant.repository';
import type { Tx } from '../../../core/tenancy';

export interface SysCodeRow {
  tenantId: string | null;
  type: string;
  value: string;
  label: string;
  labelEn: string | null;
  color: string | null;
  sort: number;
}

/** Enabled items of enabled types, platform (`tenantId` null) and (inside a tenant) the tenant's own. */
export async function findSysCodes(tx: Tx): Promise<SysCodeRow[]> {
  const rows = await tx
    .selectFrom('dict_item as i')
    .innerJoin('dict_type as t', 't.code', 'i.type_code')
    .select([
      sql<boolean>`i.tenant_id = ${platformTenant}`.as('shared'),
      'i.tenant_id',
      'i.type_code',
      'i.value',
      'i.label',
      'i.label_en',
      'i.color',
      'i.sort',
    ])
    .where('i.status', '=', 'enabled')
    .where('t.status', '=', 'enabled')
    .orderBy('i.type_code')
    .orderBy('i.sort')
    .orderBy('i.id')
    .execute();
  return rows.map((r) => ({
    tenantId: r.shared ? null : r.tenant_id,
    type: r.type_code,
    value: r.value,
    label: r.label,
    labelEn: r.label_en,
    color: r.color,
    sort: r.sort,
  }));
}

export interface ErrorCodeRow {
  key: string;
  httpStatus: number;
  messageZh: string;
  messageEn: string;
}

export async function findErrorCodes(tx: Tx): Promise<ErrorCodeRow[]> {
  const rows = await tx
    .selectFrom('error_code')
    .select(['key', 'http_status', 'message_zh', 'message_en'])
    .where('status', '=', 'enabled')
    .orderBy('code')
    .execute();
  return rows.map((r) => ({ key: r.key, httpStatus: r.http_status, messageZh: r.message_zh, messageEn: r.message_en }));
}
