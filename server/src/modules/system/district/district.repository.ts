import { sql } from 'kysely';
import { type ListSpec, statusFilter } from '../../../core/resource/list-query';
import { type Actor, columnsOf, tableRepository } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import { District, type DistrictLevel } from './district.schema';

export const districtList: ListSpec = {
  sort: { code: 'code', name: 'name', sort: 'sort', level: 'level', updatedAt: 'updated_at' },
  defaultSort: 'code',
  filters: {
    keyword: { kind: 'keyword', columns: ['code', 'name', 'short_name', 'pinyin'] },
    level: { kind: 'in', column: 'level', values: ['province', 'city', 'county', 'township'] },
    parentCode: { kind: 'eq', column: 'parent_code', pattern: /^\d{6}(\d{3})?$/ },
    status: statusFilter,
  },
};

export const districts = tableRepository<'district', District>({
  name: 'district',
  columns: columnsOf(District),
  tree: { key: 'code', parent: 'parent_code' },
});

export interface DistrictSnapshot {
  code: string;
  name: string;
  shortName: string | null;
  level: DistrictLevel;
  parentCode: string | null;
  path: string;
  pinyin: string | null;
  sort: number;
  status: 'enabled' | 'disabled';
  replacedByCode: string | null;
}

/** Every district, for an import's diff. */
export async function snapshot(tx: Tx): Promise<Map<string, DistrictSnapshot>> {
  const rows = await tx
    .selectFrom('district')
    .select([
      'code',
      'name',
      'short_name',
      'level',
      'parent_code',
      'path',
      'pinyin',
      'sort',
      'status',
      'replaced_by_code',
    ])
    .execute();
  return new Map(
    rows.map((r) => [
      r.code,
      {
        code: r.code,
        name: r.name,
        shortName: r.short_name,
        level: r.level,
        parentCode: r.parent_code,
        path: r.path,
        pinyin: r.pinyin,
        sort: r.sort,
        status: r.status,
        replacedByCode: r.replaced_by_code,
      },
    ]),
  );
}

export async function insertDistricts(tx: Tx, rows: DistrictSnapshot[], actor: Actor): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await tx
      .insertInto('district')
      .values(
        rows.slice(i, i + 500).map((r) => ({
          code: r.code,
          name: r.name,
          short_name: r.shortName,
          level: r.level,
          parent_code: r.parentCode,
          path: r.path,
          pinyin: r.pinyin,
          sort: r.sort,
          status: r.status,
          replaced_by_code: r.replacedByCode,
          created_at: actor.now,
          created_by: actor.actorId,
        })),
      )
      .execute();
  }
}

export async function updateDistrictByCode(tx: Tx, r: DistrictSnapshot, actor: Actor): Promise<void> {
  await tx
    .updateTable('district')
    .set({
      name: r.name,
      short_name: r.shortName,
      pinyin: r.pinyin,
      sort: r.sort,
      status: r.status,
      replaced_by_code: r.replacedByCode,
      updated_at: actor.now,
      updated_by: actor.actorId,
      version: sql`version + 1`,
    })
    .where('code', '=', r.code)
    .execute();
}

export type DistrictValues = Partial<Omit<District, 'id' | 'createdAt' | 'updatedAt' | 'version'>>;
