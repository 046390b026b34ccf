import { sql } from 'kysely';
import type { Tx } from '../../../core/tenancy';
import type { IndustryNode } from './industry.schema';

export async function findIndustryChildren(
  tx: Tx,
  parentCode: string | undefined,
  status?: string,
): Promise<IndustryNode[]> {
  let q = tx
    .selectFrom('industry as i')
    .selectAll('i')
    .select(sql<boolean>`EXISTS (SELECT 1 FROM industry c WHERE c.parent_code = i.code)`.as('has_children'));
  q = parentCode ? q.where('i.parent_code', '=', parentCode) : q.where('i.parent_code', 'is', null);
  if (status) q = q.where('i.status', '=', status as 'enabled' | 'disabled');
  const rows = await q.orderBy('i.sort').orderBy('i.code').execute();
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    name: r.name,
    nameEn: r.name_en,
    parentCode: r.parent_code,
    level: r.level,
    standardVersion: r.standard_version,
    wechatIndustryId: r.wechat_industry_id,
    sort: r.sort,
    status: r.status,
    remark: r.remark,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at?.toISOString() ?? null,
    version: r.version,
    hasChildren: Boolean(r.has_children),
  }));
}

export async function industryChildCodes(tx: Tx, codes: string[]): Promise<string[]> {
  if (codes.length === 0) return [];
  const rows = await tx.selectFrom('industry').select('code').where('parent_code', 'in', codes).execute();
  return rows.map((r) => r.code);
}
