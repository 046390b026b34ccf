import { AppError, invalidField, versionConflict } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import { unitReferences } from './unit.references';
import {
  type CreateUnit,
  type MergeUnits,
  UNIT_DICTIONARIES,
  type Unit,
  type UnitAlias,
  type UpdateUnit,
  unitResource,
} from './unit.resource';

const texts = {
  'zh-CN': {
    nameTaken: '已有同名单位',
    creditCodeTaken: '该统一社会信用代码已被其他单位使用',
    notInDictionary: (type: string) => `不是字典 ${type} 中的有效值`,
    noIndustry: '行业代码不存在',
    noDistrict: '行政区划代码不存在',
    mergeItself: '不能把单位合并到自身',
    noSource: '要合并的单位不存在',
  },
  'en-US': {
    nameTaken: 'another unit has this name',
    creditCodeTaken: 'another unit has this unified social credit code',
    notInDictionary: (type: string) => `is not an enabled item of the dictionary ${type}`,
    noIndustry: 'is not an industry code',
    noDistrict: 'is not a district code',
    mergeItself: 'a unit cannot be merged into itself',
    noSource: 'includes a unit that does not exist',
  },
};

type Fields = Partial<CreateUnit>;

/**
 * The units' rules (docs/domain.md §4.2): name and credit code unique in the tenant (checked first, so the answer
 * names the field; the credit code's check character is the schema's), coded fields taken from their dictionaries,
 * the industry and the district existing; and merging duplicates: their references and names move to the unit kept.
 */
export function createUnitService(deps: ResourceDeps) {
  const { store: plain, repository } = unitResource;

  async function checkUnique(tx: Tx, input: Fields, self: string | undefined, lang: Lang) {
    if (input.name !== undefined) {
      const other = await repository.findBy(tx, 'name', input.name);
      if (other && other.id !== self) throw invalidField('name', texts[lang].nameTaken);
    }
    if (input.creditCode) {
      const other = await repository.findBy(tx, 'creditCode', input.creditCode);
      if (other && other.id !== self) throw invalidField('creditCode', texts[lang].creditCodeTaken);
    }
  }

  /** Every coded field names an enabled item of its dictionary (the platform's or the tenant's), a real industry and district. */
  async function checkCodes(tx: Tx, input: Fields, lang: Lang) {
    for (const [field, type] of Object.entries(UNIT_DICTIONARIES)) {
      const value = input[field as keyof typeof UNIT_DICTIONARIES];
      if (!value) continue;
      const item = await tx
        .selectFrom('dict_item')
        .select('id')
        .where('type_code', '=', type)
        .where('value', '=', value)
        .where('status', '=', 'enabled')
        .executeTakeFirst();
      if (!item) throw invalidField(field, texts[lang].notInDictionary(type));
    }
    const places = [
      ['industryCode', 'industry', texts[lang].noIndustry],
      ['districtCode', 'district', texts[lang].noDistrict],
    ] as const;
    for (const [field, table, message] of places) {
      const code = input[field];
      if (!code) continue;
      const found = await tx.selectFrom(table).select('id').where('code', '=', code).executeTakeFirst();
      if (!found) throw invalidField(field, message);
    }
  }

  const store: ResourceStore<Unit, CreateUnit, UpdateUnit> = {
    ...plain,
    async create(tx, input, ctx) {
      await checkUnique(tx, input, undefined, ctx.lang);
      await checkCodes(tx, input, ctx.lang);
      return plain.create(tx, input, ctx);
    },
    async update(tx, current, input, ctx) {
      await checkUnique(tx, input, current.id, ctx.lang);
      await checkCodes(tx, input, ctx.lang);
      return plain.update(tx, current, input, ctx);
    },
    async fromImport(tx, record, existing, ctx) {
      const fields = record as Fields;
      await checkCodes(tx, fields, ctx.lang);
      if (fields.creditCode) await checkUnique(tx, { creditCode: fields.creditCode }, existing?.id, ctx.lang);
      return existing ? ({ ...fields, version: existing.version } as UpdateUnit) : (fields as CreateUnit);
    },
  };

  const resource = createResourceService(unitResource, store, deps);

  /**
   * Merges `sourceIds` into the unit `id`: every reference to them moves to it (unit.references.ts), their names and
   * credit codes (and the names merged into them earlier) stay as its aliases, and they are deleted; all or nothing.
   */
  const merge = (ctx: WriteContext, id: string, input: MergeUnits) => {
    const sourceIds = [...new Set(input.sourceIds)];
    const t = texts[ctx.lang];
    let merged: Unit[] = [];
    return resource.act(
      ctx,
      id,
      'merge',
      async (tx, target) => {
        if (target.version !== input.version) throw versionConflict();
        if (sourceIds.includes(target.id)) throw invalidField('sourceIds', t.mergeItself);
        merged = [];
        for (const sourceId of sourceIds) {
          const source = await repository.find(tx, sourceId);
          if (!source) throw invalidField('sourceIds', t.noSource);
          merged.push(source);
        }
        for (const reference of unitReferences) await reference.repoint(tx, sourceIds, target.id);
        await tx.updateTable('unit_alias').set({ unit_id: target.id }).where('unit_id', 'in', sourceIds).execute();
        await tx
          .insertInto('unit_alias')
          .values(
            merged.map((source) => ({
              tenant_id: ctx.tenantId,
              unit_id: target.id,
              name: source.name,
              credit_code: source.creditCode,
              created_by: ctx.actorId,
            })),
          )
          .onConflict((oc) => oc.columns(['tenant_id', 'unit_id', 'name']).doNothing())
          .execute();
        await tx.deleteFrom('unit').where('id', 'in', sourceIds).execute();
        // the kept unit's version moves on: an edit opened before the merge is stale
        const after = await repository.update(tx, target.id, {}, ctx, target.version);
        if (!after) throw versionConflict();
        return (await repository.find(tx, target.id)) ?? after;
      },
      () => merged.map((m) => m.name).join(', '),
    );
  };

  return {
    resource,
    merge,
    /** The names merged into a unit, newest first. */
    aliases: (tenantId: string, id: string): Promise<UnitAlias[]> =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        if (!(await repository.find(tx, id))) throw new AppError('common.notFound');
        const rows = await tx
          .selectFrom('unit_alias')
          .select(['id', 'name', 'credit_code', 'created_at'])
          .where('unit_id', '=', id)
          .orderBy('id', 'desc')
          .execute();
        return rows.map((r) => ({
          id: String(r.id),
          name: r.name,
          creditCode: r.credit_code,
          createdAt: new Date(r.created_at).toISOString(),
        }));
      }),
  };
}

export type UnitService = ReturnType<typeof createUnitService>;
