import { sql } from 'kysely';
import { AppError, type FieldError } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { Tx } from '../../../core/tenancy';
import { onceIn } from '../../../core/tx-memo';
import { issuesToFields } from '../../../core/validation';
import {
  DICT_TYPES,
  type FieldOption,
  type FieldType,
  type FieldValidation,
  valueRule,
} from '../trainee-field/custom-field';

const texts = {
  'zh-CN': {
    unknown: '不是该学员类型的字段',
    required: '必填',
    noItem: (values: string) => `字典中没有该项：${values}`,
    oneOf: (labels: string[]) => `应为以下之一：${labels.join(' / ')}`,
    noRecord: '不存在',
    taken: '已被其他学员使用',
  },
  'en-US': {
    unknown: 'is not a field of this trainee type',
    required: 'is required',
    noItem: (values: string) => `is not an item of its dictionary: ${values}`,
    oneOf: (labels: string[]) => `must be one of: ${labels.join(' / ')}`,
    noRecord: 'does not exist',
    taken: 'is used by another trainee',
  },
};

interface Definition {
  key: string;
  label: string;
  labelEn: string | null;
  importable: boolean;
  exportable: boolean;
  fieldType: FieldType;
  dictTypeCode: string | null;
  options: FieldOption[] | null;
  validation: FieldValidation | null;
  required: boolean;
  uniqueScope: 'none' | 'type' | 'tenant';
}

/** The active custom fields of a trainee type, in their order (read once per transaction). */
export function activeFields(tx: Tx, typeId: string): Promise<Definition[]> {
  return onceIn(tx, `trainee-fields:${typeId}`, () => readFields(tx, typeId));
}

async function readFields(tx: Tx, typeId: string): Promise<Definition[]> {
  const rows = await tx
    .selectFrom('trainee_type_field')
    .select([
      'key',
      'label',
      'label_en',
      'importable',
      'exportable',
      'field_type',
      'dict_type_code',
      'options',
      'validation',
      'required',
      'unique_scope',
    ])
    .where('trainee_type_id', '=', typeId)
    .where('status', '=', 'active')
    .orderBy('sort')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    key: r.key,
    label: r.label,
    labelEn: r.label_en,
    importable: r.importable,
    exportable: r.exportable,
    fieldType: r.field_type as FieldType,
    dictTypeCode: r.dict_type_code,
    options: r.options as FieldOption[] | null,
    validation: r.validation as FieldValidation | null,
    required: r.required,
    uniqueScope: r.unique_scope,
  }));
}

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * A trainee's custom values checked against its type's active definitions (docs/domain.md §4.8): no key the type does
 * not define, every required one given, each value of its kind and bounds, dictionary items existing, referenced
 * organisations and units existing in the tenant, unique values unique in their scope. Answers the values to store
 * (empty ones dropped, archived fields' values kept from `current`); all problems at once, each on
 * `customFields.<key>`.
 */
export async function checkCustomValues(
  tx: Tx,
  scope: { typeId: string; self?: string },
  input: Record<string, unknown>,
  current: Record<string, unknown>,
  lang: Lang,
): Promise<Record<string, unknown>> {
  const t = texts[lang];
  const defs = await activeFields(tx, scope.typeId);
  const byKey = new Map(defs.map((d) => [d.key, d]));
  const errors: FieldError[] = [];
  const at = (key: string) => `customFields.${key}`;
  const values: Record<string, unknown> = Object.fromEntries(Object.entries(current).filter(([k]) => !byKey.has(k)));
  for (const [key, raw] of Object.entries(input)) {
    const def = byKey.get(key);
    if (!def) {
      errors.push({ field: at(key), message: t.unknown });
      continue;
    }
    if (isEmpty(raw)) continue;
    const parsed = valueRule(def).safeParse(raw);
    if (!parsed.success) {
      // a value that is none of the field's options is told them as people see them
      const options = def.options?.length && parsed.error.issues.some((i) => i.code === 'invalid_value');
      if (options) errors.push({ field: at(key), message: t.oneOf((def.options ?? []).map((o) => o.label)) });
      else
        for (const e of issuesToFields(parsed.error.issues, lang, raw))
          errors.push({ field: at(key), message: e.message });
      continue;
    }
    values[key] = parsed.data;
  }
  for (const def of defs) {
    const value = values[def.key];
    if (value === undefined) {
      if (def.required) errors.push({ field: at(def.key), message: t.required });
      continue;
    }
    if (DICT_TYPES.includes(def.fieldType) && def.dictTypeCode) {
      const wanted = (Array.isArray(value) ? value : [value]) as string[];
      const found = await tx
        .selectFrom('dict_item')
        .select('value')
        .where('type_code', '=', def.dictTypeCode)
        .where('value', 'in', wanted)
        .execute();
      const missing = wanted.filter((v) => !found.some((f) => f.value === v));
      if (missing.length) errors.push({ field: at(def.key), message: t.noItem(missing.join(', ')) });
    }
    if (def.fieldType === 'org' || def.fieldType === 'unit') {
      const table = def.fieldType === 'org' ? 'organization' : 'unit';
      const found = await tx
        .selectFrom(table)
        .select('id')
        .where('id', '=', value as string)
        .executeTakeFirst();
      if (!found) errors.push({ field: at(def.key), message: t.noRecord });
    }
    if (def.uniqueScope !== 'none') {
      // Two writes of one value wait for each other here, so the second sees the first.
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`trainee-field:${def.key}`}))`.execute(tx);
      let q = tx
        .selectFrom('trainee')
        .select('id')
        .where(sql<boolean>`custom_fields @> ${JSON.stringify({ [def.key]: value })}::jsonb`);
      if (def.uniqueScope === 'type') q = q.where('trainee_type_id', '=', scope.typeId);
      if (scope.self) q = q.where('id', '!=', scope.self);
      if (await q.executeTakeFirst()) errors.push({ field: at(def.key), message: t.taken });
    }
  }
  if (errors.length) throw new AppError('common.validation', {}, errors);
  return values;
}
