import { sql } from 'kysely';
import { AppError, invalidField, versionConflict } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import { issuesToFields } from '../../../core/validation';
import { DICT_TYPES, type FieldRule, OPTION_TYPES, valueRule } from './custom-field';
import {
  type CreateTraineeField,
  type ReorderTraineeFields,
  type TraineeField,
  traineeFieldResource,
  type UpdateTraineeField,
} from './trainee-field.resource';

const texts = {
  'zh-CN': {
    noType: '学员类型不存在',
    keyTaken: '该学员类型已有同名字段',
    dictRequired: '字典类型字段须指定字典',
    noDict: '字典不存在',
    optionsRequired: '选择类字段至少需要一个选项',
    optionsOnly: '只有单选、多选、单选框和复选框字段有选项',
    minAboveMax: '最小值不能大于最大值',
    notAllFields: '须按新顺序列出该学员类型的每个字段，各一次',
    hasValues: '已有学员填写了该字段，标识和类型不能再改（可归档后新建字段）',
  },
  'en-US': {
    noType: 'is not an existing trainee type',
    keyTaken: 'another field of this trainee type has this key',
    dictRequired: 'is required for a dictionary field',
    noDict: 'is not an existing dictionary',
    optionsRequired: 'a choice field needs at least one option',
    optionsOnly: 'only select, multi-select, radio and checkbox fields have options',
    minAboveMax: 'a minimum must not exceed its maximum',
    notAllFields: 'list every field of the trainee type once, in the new order',
    hasValues: 'trainees hold values under this field: its key and kind stay (archive it and add another)',
  },
};

/** A definition as it will stand after a write: the current one with the input over it. */
type Definition = Pick<TraineeField, 'fieldType' | 'dictTypeCode' | 'options' | 'validation' | 'defaultValue'>;

/**
 * Custom fields' rules (docs/domain.md §4.8): keys unique within their type; a dictionary field names an existing
 * dictionary; a choice field has options and no other field has; bounds in order; the default value a value the field
 * accepts; the key and kind of a field that trainees hold values under stay as they are. Fields are archived, never
 * deleted (their values outlive them); reorder sets a type's order at once.
 */
export function createTraineeFieldService(deps: ResourceDeps) {
  const { store: plain, repository } = traineeFieldResource;

  async function checkKey(tx: Tx, typeId: string, key: string, self: string | undefined, lang: Lang) {
    const other = await tx
      .selectFrom('trainee_type_field')
      .select('id')
      .where('trainee_type_id', '=', typeId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (other && String(other.id) !== self) throw invalidField('key', texts[lang].keyTaken);
  }

  /** Whether a trainee of the field's type holds a value under its key (its key and kind are then kept). */
  async function hasValues(tx: Tx, field: TraineeField) {
    const held = await tx
      .selectFrom('trainee')
      .select('id')
      .where('trainee_type_id', '=', field.traineeTypeId)
      .where(sql<boolean>`custom_fields ? ${field.key}`)
      .executeTakeFirst();
    return Boolean(held);
  }

  async function checkDefinition(tx: Tx, def: Definition, lang: Lang) {
    const t = texts[lang];
    if (DICT_TYPES.includes(def.fieldType)) {
      if (!def.dictTypeCode) throw invalidField('dictTypeCode', t.dictRequired);
      const dict = await tx
        .selectFrom('dict_type')
        .select('id')
        .where('code', '=', def.dictTypeCode)
        .executeTakeFirst();
      if (!dict) throw invalidField('dictTypeCode', t.noDict);
    }
    const choice = OPTION_TYPES.includes(def.fieldType);
    if (choice && !def.options?.length) throw invalidField('options', t.optionsRequired);
    if (!choice && def.options?.length) throw invalidField('options', t.optionsOnly);
    const v = def.validation ?? {};
    if (v.min !== undefined && v.max !== undefined && v.min > v.max) throw invalidField('validation', t.minAboveMax);
    if (v.minLength !== undefined && v.maxLength !== undefined && v.minLength > v.maxLength)
      throw invalidField('validation', t.minAboveMax);
    if (def.defaultValue !== null && def.defaultValue !== undefined) {
      const parsed = valueRule(def as FieldRule).safeParse(def.defaultValue);
      if (!parsed.success) {
        const [first] = issuesToFields(parsed.error.issues, lang, def.defaultValue);
        throw invalidField('defaultValue', first?.message ?? '');
      }
    }
  }

  const store: ResourceStore<TraineeField, CreateTraineeField, UpdateTraineeField> = {
    ...plain,
    async create(tx, input, ctx) {
      const type = await tx
        .selectFrom('trainee_type')
        .select('id')
        .where('id', '=', input.traineeTypeId)
        .executeTakeFirst();
      if (!type) throw invalidField('traineeTypeId', texts[ctx.lang].noType);
      await checkKey(tx, input.traineeTypeId, input.key, undefined, ctx.lang);
      await checkDefinition(
        tx,
        {
          fieldType: input.fieldType,
          dictTypeCode: input.dictTypeCode ?? null,
          options: input.options ?? null,
          validation: input.validation ?? null,
          defaultValue: input.defaultValue ?? null,
        },
        ctx.lang,
      );
      // a new field goes last
      const last = await tx
        .selectFrom('trainee_type_field')
        .select(sql<number>`coalesce(max(sort) + 1, 0)::int`.as('next'))
        .where('trainee_type_id', '=', input.traineeTypeId)
        .executeTakeFirstOrThrow();
      return plain.create(tx, { ...input, sort: input.sort ?? last.next }, ctx);
    },
    async update(tx, current, input, ctx) {
      const renamed = input.key !== undefined && input.key !== current.key;
      const retyped = input.fieldType !== undefined && input.fieldType !== current.fieldType;
      if ((renamed || retyped) && (await hasValues(tx, current))) {
        throw invalidField(renamed ? 'key' : 'fieldType', texts[ctx.lang].hasValues);
      }
      if (renamed) await checkKey(tx, current.traineeTypeId, input.key as string, current.id, ctx.lang);
      const pick = <K extends keyof Definition>(k: K) =>
        (input[k] === undefined ? current[k] : input[k]) as Definition[K];
      await checkDefinition(
        tx,
        {
          fieldType: pick('fieldType'),
          dictTypeCode: pick('dictTypeCode'),
          options: pick('options'),
          validation: pick('validation'),
          defaultValue: pick('defaultValue'),
        },
        ctx.lang,
      );
      return plain.update(tx, current, input, ctx);
    },
    async remove() {
      throw new AppError('traineeField.archiveInstead');
    },
  };

  const resource = createResourceService(traineeFieldResource, store, deps);

  /** Archives (hides from forms, keeps the values) or restores a field. */
  const setStatus = (ctx: WriteContext, id: string, version: number, status: TraineeField['status']) =>
    resource.act(ctx, id, status === 'archived' ? 'archive' : 'restore', async (tx, row) => {
      if (row.version !== version) throw versionConflict();
      const after = await repository.update(tx, id, { status }, ctx, version);
      if (!after) throw versionConflict();
      return after;
    });

  /** Sets the order of a type's fields: `ids` lists every field of the type once. */
  const reorder = (ctx: WriteContext, input: ReorderTraineeFields) =>
    deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
      const rows = await tx
        .selectFrom('trainee_type_field')
        .select('id')
        .where('trainee_type_id', '=', input.traineeTypeId)
        .execute();
      const known = new Set(rows.map((r) => String(r.id)));
      const given = new Set(input.ids);
      if (rows.length === 0) throw invalidField('traineeTypeId', texts[ctx.lang].noType);
      if (given.size !== input.ids.length || given.size !== known.size || input.ids.some((id) => !known.has(id)))
        throw invalidField('ids', texts[ctx.lang].notAllFields);
      const values = sql.join(input.ids.map((id, sort) => sql`(${id}::bigint, ${sort}::int)`));
      await sql`UPDATE trainee_type_field f SET sort = o.sort, updated_at = now(), updated_by = ${ctx.actorId},
          version = f.version + 1
        FROM (VALUES ${values}) AS o (id, sort) WHERE f.id = o.id AND f.sort IS DISTINCT FROM o.sort`.execute(tx);
      await deps.audit.record(tx, ctx, {
        action: 'people:trainee-field:reorder',
        resourceType: 'trainee_type',
        resourceId: input.traineeTypeId,
        summary: input.ids.join(', '),
      });
      const { rows: fields } = await repository.list(
        tx,
        { page: null, sort: [{ column: 'sort', desc: false }], filters: [] },
        (q) => q.where('trainee_type_id', '=', input.traineeTypeId),
      );
      return fields;
    });

  return { resource, setStatus, reorder };
}

export type TraineeFieldService = ReturnType<typeof createTraineeFieldService>;
