import { z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { AppError, type FieldError, invalidField } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { IdNumberCipher } from '../../../core/id-number';
import { labelOf } from '../../../core/labels';
import { dictionaryValues } from '../../../core/resource/dictionary-values.repository';
import { filterValue, type ListQuery } from '../../../core/resource/list-query';
import { codeOf, type ValueLabels } from '../../../core/resource/readable-cells';
import type { ColumnSpec } from '../../../core/resource/resource';
import type { ImportShape } from '../../../core/resource/resource.service';
import { field, importRowOf } from '../../../core/schema-kit';
import type { Tx } from '../../../core/tenancy';
import { onceIn } from '../../../core/tx-memo';
import { formatRule, formatText } from '../../../core/validation';
import { personInput } from '../person/person';
import { DICT_TYPES, type FieldType, isIdCardNo, OPTION_TYPES } from '../trainee-field/custom-field';
import { activeFields, checkCustomValues } from './custom-values';
import { RECRUIT_TYPES, type Trainee } from './trainee.resource';

const texts = {
  'zh-CN': {
    noType: '学员类型不存在',
    noBase: (kind: string) => `没有该名称或编码的${kind}`,
    base: '培训基地',
    specialty: '专业基地',
    noPattern: '该学员类型没有编号规则，须填写学员编号',
  },
  'en-US': {
    noType: 'is not an existing trainee type',
    noBase: (kind: string) => `no ${kind} has this name or code`,
    base: 'training base',
    specialty: 'specialty base',
    noPattern: 'is required: the trainee type has no number pattern',
  },
};

/**
 * A sheet's columns besides the type's own fields, with an example each (the person, then the training): a coded
 * one's by its code, which the template shows as its label (`CODED`).
 */
const STATIC: [key: string, example: string][] = [
  ['name', '张三'],
  ['gender', 'male'],
  ['idType', 'resident_id'],
  ['idNo', '11010519491231002X'],
  ['mobile', '13800000000'],
  ['email', ''],
  ['birthDate', '1998-05-01'],
  ['education', 'bachelor'],
  ['traineeNo', ''],
  ['trainingBase', 'B1'],
  ['specialtyBase', ''],
  ['cohortYear', '2026'],
  ['trainingStart', '2026-09-01'],
  ['plannedEnd', '2029-08-31'],
  ['recruitType', 'social'],
  ['graduateSchool', ''],
  ['graduateMajor', ''],
];

/** The dictionaries of the coded columns: a cell names a value by its label in either language, or its code. */
const CODED: Record<string, string> = {
  gender: 'gender',
  idType: 'id_type',
  education: 'education',
  recruitType: 'recruit_type',
};

const CUSTOM = 'customFields.';
const MULTIPLE: readonly FieldType[] = ['multi_select', 'checkbox', 'dict_multi', 'file', 'image'];

/** A custom field's choices (its options', its dictionary's), by value: what its cells may name by label. */
async function choicesOf(
  tx: Tx,
  f: { fieldType: FieldType; options: { value: string; label: string }[] | null; dictTypeCode: string | null },
): Promise<ValueLabels | undefined> {
  if (DICT_TYPES.includes(f.fieldType) && f.dictTypeCode) return dictionaryValues(tx, f.dictTypeCode);
  if (OPTION_TYPES.includes(f.fieldType) && f.options?.length)
    return new Map(f.options.map((o) => [o.value, { 'zh-CN': o.label, 'en-US': o.label }]));
  return undefined;
}

/** A custom field's cell (text) as the value its kind stores; the value rule then checks it. */
function cellValue(kind: FieldType, text: string): unknown {
  if (kind === 'number' || kind === 'integer') return Number(text);
  if (kind === 'switch') return ['true', '1', 'yes', '是'].includes(text.trim().toLowerCase());
  if (kind === 'date_range') return text.split(/\s*[~,，]\s*/);
  if (MULTIPLE.includes(kind)) return text.split(/\s*[,，]\s*/).filter(Boolean);
  return text;
}

/**
 * Trainees' import (and export), one type at a time (docs/domain.md §4.9): the sheet's columns are the person's, the training's
 * and the type's importable fields; a row finds its trainee by the ID number (its keyed hash) within the type, so an
 * upsert updates who is there and adds who is not. Every row is checked as it would be written (its bases by name or
 * code, its custom values by their definitions, a resident ID number by its check digit), so a dry run reports them.
 */
export function traineeImport(cipher: IdNumberCipher, find: (tx: Tx, ids: string[]) => Promise<Trainee[]>) {
  /**
   * `<hash>:<type>`: the key of a row with an ID number, within its type; during a key rotation `<hash>+<hash>…:<type>`,
   * the number's hash under each key of the ring (a trainee not yet re-sealed keeps the previous one).
   */
  const matchKey = (idNo: string, typeId: string) =>
    `${cipher
      .hashes(idNo)
      .map((h) => h.toString('hex'))
      .join('+')}:${typeId}`;

  async function shape(tx: Tx, params: Record<string, unknown>): Promise<ImportShape<Trainee>> {
    const typeId = String(params.traineeTypeId);
    const type = await tx.selectFrom('trainee_type').select('id').where('id', '=', typeId).executeTakeFirst();
    if (!type) throw invalidField('traineeTypeId', texts['en-US'].noType);
    const own = (await activeFields(tx, typeId)).filter((f) => f.importable);
    // the example names one of the tenant's own training bases, so that the template imports as it comes
    const firstBase = await tx
      .selectFrom('organization')
      .select('code')
      .where('org_type', '=', 'training_base')
      .where('status', '=', 'enabled')
      .orderBy('sort')
      .orderBy('code')
      .executeTakeFirst();
    const examples: Record<string, string> = { ...Object.fromEntries(STATIC), trainingBase: firstBase?.code ?? 'B1' };
    const columns: ColumnSpec<Trainee>[] = [
      ...STATIC.map(([key]) => ({
        key,
        example: examples[key],
        label: labelOf(`people.trainee.${key}`),
        dictionary: CODED[key],
      })),
      ...(await Promise.all(
        own.map(async (f) => ({
          key: `${CUSTOM}${f.key}`,
          example: '',
          label: { 'zh-CN': f.label, 'en-US': f.labelEn || f.label },
          // a list of several choices is one cell: its items are read by their labels as it is stored (fromImport)
          values: MULTIPLE.includes(f.fieldType) ? undefined : await choicesOf(tx, f),
        })),
      )),
    ];
    const cells = Object.fromEntries(own.map((f) => [`${CUSTOM}${f.key}`, z.string().max(10_000).optional()]));
    const importRow = importRowOf(
      {
        ...personInput,
        traineeNo: z.string().trim().min(1).max(30).optional(),
        trainingBase: field.requiredText(150),
        specialtyBase: field.optionalText(150),
        cohortYear: z
          .string()
          .regex(/^\d{4}$/, formatRule('year'))
          .transform(Number)
          .pipe(z.number().int().min(1950).max(2100))
          .optional(),
        trainingStart: z.iso.date().optional(),
        plannedEnd: z.iso.date().optional(),
        recruitType: z.enum(RECRUIT_TYPES).optional(),
        graduateSchool: field.optionalText(100),
        graduateMajor: field.optionalText(100),
      },
      cells,
    ).transform((row: Record<string, unknown>) => ({
      ...row,
      traineeTypeId: typeId,
      ...(typeof row.idNo === 'string' && row.idNo ? { matchKey: matchKey(row.idNo, typeId) } : {}),
    }));
    return { columns, importRow, importKey: 'matchKey' };
  }

  /** The id of an organisation of `orgType` by its name or code (none: there is no such one). */
  async function orgByName(tx: Tx, text: string, orgType: 'training_base' | 'specialty_base') {
    const org = await onceIn(tx, `organization:${orgType}:${text}`, () =>
      tx
        .selectFrom('organization')
        .select('id')
        .where('org_type', '=', orgType)
        .where((eb) => eb.or([eb('name', '=', text), eb('code', '=', text)]))
        .executeTakeFirst(),
    );
    return org && String(org.id);
  }

  /** An export of one type's trainees: the generic columns, then the type's exportable fields. */
  async function exportColumns(tx: Tx, query: ListQuery, columns: ColumnSpec<Trainee>[]) {
    const type = filterValue(query, 'traineeTypeId');
    if (type?.kind !== 'eq') return columns;
    const own = (await activeFields(tx, type.value)).filter((f) => f.exportable);
    return [
      ...columns,
      ...own.map((f) => ({
        key: `${CUSTOM}${f.key}`,
        label: { 'zh-CN': f.label, 'en-US': f.labelEn || f.label },
        cell: (row: Trainee) => {
          const value = row.customFields[f.key];
          if (value === undefined || value === null) return null;
          return Array.isArray(value) ? value.join(', ') : (value as string | number | boolean);
        },
      })),
    ];
  }

  return {
    shape,
    exportColumns,

    /** A checked import row as the trainee's create or update input; every problem of the row at once. */
    async fromImport(tx: Tx, record: Record<string, unknown>, existing: Trainee | undefined, lang: Lang) {
      const t = texts[lang];
      const {
        trainingBase,
        specialtyBase,
        traineeTypeId,
        matchKey: _,
        ...rest
      } = record as Record<string, unknown> & { traineeTypeId: string };
      const problems: FieldError[] = [];
      const idNo = rest.idNo as string | undefined;
      if (idNo && (rest.idType ?? 'resident_id') === 'resident_id' && !isIdCardNo(idNo))
        problems.push({ field: 'idNo', message: formatText('idCardNo', lang) });
      const values: Record<string, unknown> = {};
      const given: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(rest)) {
        if (key.startsWith(CUSTOM)) given[key.slice(CUSTOM.length)] = value;
        else values[key] = value;
      }
      const defs = new Map((await activeFields(tx, traineeTypeId)).map((f) => [f.key, f]));
      const typed: Record<string, unknown> = {};
      for (const [key, text] of Object.entries(given)) {
        const def = defs.get(key);
        const value = cellValue(def?.fieldType ?? 'text', String(text));
        const choices = def && MULTIPLE.includes(def.fieldType) ? await choicesOf(tx, def) : undefined;
        typed[key] = choices && Array.isArray(value) ? value.map((item) => codeOf(String(item), choices)) : value;
      }
      const customFields = await checkCustomValues(
        tx,
        { typeId: traineeTypeId, self: existing?.id },
        typed,
        existing?.customFields ?? {},
        lang,
      ).catch((err: unknown) => {
        if (!(err instanceof AppError) || !err.fields) throw err;
        problems.push(...err.fields);
        return {};
      });
      if (!existing && !values.traineeNo) {
        const type = await onceIn(tx, `trainee-type-pattern:${traineeTypeId}`, () =>
          tx.selectFrom('trainee_type').select('trainee_no_pattern').where('id', '=', traineeTypeId).executeTakeFirst(),
        );
        if (!type?.trainee_no_pattern) problems.push({ field: 'traineeNo', message: t.noPattern });
      }
      if (trainingBase !== undefined) {
        values.trainingBaseId = await orgByName(tx, String(trainingBase), 'training_base');
        if (!values.trainingBaseId) problems.push({ field: 'trainingBase', message: t.noBase(t.base) });
      }
      if (specialtyBase) {
        values.specialtyBaseId = await orgByName(tx, String(specialtyBase), 'specialty_base');
        if (!values.specialtyBaseId) problems.push({ field: 'specialtyBase', message: t.noBase(t.specialty) });
      }
      if (problems.length) throw new AppError('common.validation', {}, problems);
      return existing
        ? { ...values, customFields, version: existing.version }
        : { ...values, customFields, traineeTypeId };
    },

    /** The trainees of `keys` (`<hash>[+<hash>…]:<type>`), each carrying its key. */
    async findAllByKey(tx: Tx, keys: string[]): Promise<Trainee[]> {
      if (keys.length === 0) return [];
      /** `<hash>:<type>` → the key it is one of. */
      const keyOfPair = new Map<string, string>();
      for (const key of keys) {
        const [hashes = '', type] = key.split(':');
        for (const hash of hashes.split('+')) keyOfPair.set(`${hash}:${type}`, key);
      }
      const pairs = [...keyOfPair.keys()].map((k) => k.split(':') as [string, string]);
      const rows = await tx
        .selectFrom('trainee')
        .innerJoin('person', 'person.id', 'trainee.person_id')
        .select(['trainee.id', 'trainee.trainee_type_id', sql<string>`encode(person.id_no_hash, 'hex')`.as('hash')])
        .where(
          'person.id_no_hash',
          'in',
          pairs.map(([hash]) => Buffer.from(hash, 'hex')),
        )
        .execute();
      const keyOf = new Map(
        rows.flatMap((r) => {
          const key = keyOfPair.get(`${r.hash}:${r.trainee_type_id}`);
          return key === undefined ? [] : [[String(r.id), key] as const];
        }),
      );
      if (keyOf.size === 0) return [];
      const found = await find(tx, [...keyOf.keys()]);
      return found.map((row) => Object.assign(row, { matchKey: keyOf.get(row.id) }));
    },
  };
}
