import { z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { statusFilter } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { field, importRowOf, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';
import type { Audited, CommonStatus, Defaulted, Id as IdColumn, Nullable, Ref } from '../../../db/types';
import { isCreditCode } from './credit-code';

/** External work units (docs/domain.md §4.2): their table, the names merged into them, schemas and definition. */
interface UnitTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  name: string;
  credit_code: Nullable<string>;
  unit_type: Nullable<string>;
  hospital_grade: Nullable<string>;
  hospital_level: Nullable<string>;
  ownership: Nullable<string>;
  industry_code: Nullable<string>;
  district_code: Nullable<string>;
  address: Nullable<string>;
  contact_name: Nullable<string>;
  contact_phone: Nullable<string>;
  email: Nullable<string>;
  website: Nullable<string>;
  is_partner: Defaulted<boolean>;
  status: Defaulted<CommonStatus>;
  remark: Nullable<string>;
}
interface UnitAliasTable {
  id: IdColumn;
  tenant_id: Ref;
  unit_id: Ref;
  name: string;
  credit_code: Nullable<string>;
  created_at: Defaulted<Date>;
  created_by: Nullable<Ref>;
}
declare module '../../../db/types' {
  interface DB {
    unit: UnitTable;
    unit_alias: UnitAliasTable;
  }
}

/** The dictionaries a unit's coded fields take their values from (seeded in db/seed/dictionaries.ts). */
export const UNIT_DICTIONARIES = {
  unitType: 'unit_type',
  hospitalGrade: 'hospital_grade',
  hospitalLevel: 'hospital_level',
  ownership: 'unit_ownership',
} as const;

const creditCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine(isCreditCode, formatRule('creditCode'))
  .openapi({ example: '91350100M000100Y43', description: 'Unified social credit code (GB 32100-2015), checked' });
const dictValue = z.string().trim().min(1).max(50);

export const Unit = recordRow({
  name: z.string(),
  creditCode: z.string().nullable(),
  unitType: z.string().nullable(),
  hospitalGrade: z.string().nullable(),
  hospitalLevel: z.string().nullable(),
  ownership: z.string().nullable(),
  industryCode: z.string().nullable(),
  districtCode: z.string().nullable(),
  address: z.string().nullable(),
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  email: z.string().nullable(),
  website: z.string().nullable(),
  isPartner: z.boolean(),
  status: field.status,
  remark: z.string().nullable(),
  /** The names of the units merged into this one (computed: list and get only). */
  aliases: z.string().nullable().optional().openapi({ description: 'Names merged into this unit, joined by " / "' }),
}).openapi('Unit');
export type Unit = z.infer<typeof Unit>;

const fields = {
  name: field.requiredText(150),
  creditCode: creditCode.nullable().optional(),
  unitType: dictValue.nullable().optional().openapi({ description: 'Dictionary unit_type' }),
  hospitalGrade: dictValue.nullable().optional().openapi({ description: 'Dictionary hospital_grade' }),
  hospitalLevel: dictValue.nullable().optional().openapi({ description: 'Dictionary hospital_level' }),
  ownership: dictValue.nullable().optional().openapi({ description: 'Dictionary unit_ownership' }),
  industryCode: z
    .string()
    .trim()
    .regex(/^([A-Z]|\d{2,4})$/, formatRule('industryCode'))
    .nullable()
    .optional(),
  districtCode: z
    .string()
    .trim()
    .regex(/^(\d{6}|\d{9})$/, formatRule('districtCode'))
    .nullable()
    .optional(),
  address: field.optionalText(200),
  contactName: field.optionalText(50),
  contactPhone: field.phone.nullable().optional(),
  email: z.email().max(100).nullable().optional(),
  website: z
    .url({ protocol: /^https?$/ })
    .max(200)
    .nullable()
    .optional(),
  isPartner: z.boolean().optional(),
  status: field.status.optional(),
  remark: field.remark,
};

export const CreateUnit = requestBody('CreateUnit', fields);
export type CreateUnit = z.infer<typeof CreateUnit>;

export const UpdateUnit = updateBody('UpdateUnit', { ...fields, name: fields.name.optional() });
export type UpdateUnit = z.infer<typeof UpdateUnit>;

export const MergeUnits = requestBody('MergeUnits', {
  sourceIds: z.array(ref('unit')).min(1).max(50).openapi({
    description: 'The duplicates merged into this unit: their references move here, their names stay as aliases',
  }),
  version: Version,
});
export type MergeUnits = z.infer<typeof MergeUnits>;

export const UnitAlias = z
  .object({
    id: z.string(),
    name: z.string(),
    creditCode: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('UnitAlias');
export type UnitAlias = z.infer<typeof UnitAlias>;

export const UnitImportRow = importRowOf(CreateUnit.omit({ remark: true }).shape);

export const unitResource = defineResource({
  path: 'people/unit',
  permission: 'people:unit',
  menu: { parent: 'org', order: 1, buttons: ['merge'], route: '/units/list' },
  schemas: { row: Unit, create: CreateUnit, update: UpdateUnit, importRow: UnitImportRow },
  table: {
    name: 'unit',
    columns: columnsOf(Unit, { except: ['aliases'] }),
    tenantOwned: true,
    computed: {
      aliases: sql`(SELECT string_agg(a.name, ' / ' ORDER BY a.id) FROM unit_alias a WHERE a.unit_id = unit.id)`,
    },
  },
  list: {
    sort: ['name', 'creditCode', 'unitType', 'status', 'updatedAt'],
    defaultSort: 'name',
    filters: {
      keyword: { kind: 'keyword', columns: ['name', 'credit_code', 'contact_name', 'address'] },
      unitType: { kind: 'eq', column: 'unit_type', pattern: /^[\w-]{1,50}$/ },
      districtCode: { kind: 'eq', column: 'district_code', pattern: /^\d{6}(\d{3})?$/ },
      status: statusFilter,
    },
  },
  importKey: 'name',
  columns: [
    { key: 'name', example: '第一人民医院' },
    { key: 'creditCode', example: '91350100M000100Y43' },
    { key: 'unitType', example: 'hospital' },
    { key: 'hospitalGrade', example: 'grade_3' },
    { key: 'hospitalLevel', example: 'a' },
    { key: 'ownership', example: 'public' },
    { key: 'industryCode', example: '84' },
    { key: 'districtCode', example: '110100' },
    { key: 'address', example: '' },
    { key: 'contactName', example: '' },
    { key: 'contactPhone', example: '010-12345678' },
    { key: 'email', example: '' },
    { key: 'website', example: '' },
    { key: 'isPartner', example: 'false' },
    { key: 'status', example: 'enabled' },
    { key: 'aliases', only: 'export' },
  ],
});

declare module '../../../db/seed/permissions' {
  interface ResourceMenus {
    units: typeof unitResource;
  }
}
