import { z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { INT4_MAX, Version } from '../../../core/column-bounds';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { ID_PATTERN, Id } from '../../../core/resource/id-param';
import { statusFilter } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { field, importRowOf, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';
import type { Audited, CommonStatus, Defaulted, Id as IdColumn, Nullable, Ref } from '../../../db/types';
import { BASE_LEVELS, ORG_TYPES, type OrgType } from './organization.rules';

/** The tenant's organisation tree (docs/domain.md §4.1): its table, schemas and definition. */
interface OrganizationTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  parent_id: Nullable<Ref>;
  path: string;
  depth: number;
  code: string;
  name: string;
  short_name: Nullable<string>;
  org_type: OrgType;
  base_level: Nullable<(typeof BASE_LEVELS)[number]>;
  specialty_code: Nullable<string>;
  standard_dept_code: Nullable<string>;
  phone: Nullable<string>;
  email: Nullable<string>;
  district_code: Nullable<string>;
  address: Nullable<string>;
  annual_capacity: Nullable<number>;
  accreditation_no: Nullable<string>;
  sort: Defaulted<number>;
  status: Defaulted<CommonStatus>;
  remark: Nullable<string>;
}
declare module '../../../db/types' {
  interface DB {
    organization: OrganizationTable;
  }
}

const orgType = z.enum(ORG_TYPES).openapi({ description: 'Where it may sit: see organization.rules.ts' });
const baseLevel = z.enum(BASE_LEVELS);
const code = field.code().openapi({ example: 'H01' });
const dictCode = z.string().trim().min(1).max(50);

export const Organization = recordRow({
  code: z.string(),
  name: z.string(),
  shortName: z.string().nullable(),
  orgType,
  parentId: z.string().nullable(),
  path: z.string().openapi({ description: 'Ids from the root: /1/7/42/' }),
  depth: z.number().int().openapi({ description: '0 for a root' }),
  /** The ancestors' names, root first (computed: list and get only). */
  ancestry: z.string().nullable().optional().openapi({ description: 'Names of the ancestors, root first' }),
  baseLevel: baseLevel.nullable(),
  specialtyCode: z.string().nullable(),
  standardDeptCode: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  districtCode: z.string().nullable(),
  address: z.string().nullable(),
  annualCapacity: z.number().int().nullable(),
  accreditationNo: z.string().nullable(),
  sort: z.number().int(),
  status: field.status,
  remark: z.string().nullable(),
}).openapi('Organization');
export type Organization = z.infer<typeof Organization>;

export const OrganizationNode = Organization.extend({ hasChildren: z.boolean() }).openapi('OrganizationNode');
export type OrganizationNode = z.infer<typeof OrganizationNode>;

const fields = {
  code,
  name: field.requiredText(100),
  shortName: field.optionalText(100),
  orgType,
  baseLevel: baseLevel.nullable().optional().openapi({ description: 'For bases' }),
  specialtyCode: dictCode
    .nullable()
    .optional()
    .openapi({ description: 'Dictionary training_specialty; required for a specialty base' }),
  standardDeptCode: dictCode.nullable().optional().openapi({ description: 'Dictionary standard_dept' }),
  phone: field.phone.nullable().optional(),
  email: z.email().max(100).nullable().optional(),
  districtCode: z
    .string()
    .trim()
    .regex(/^(\d{6}|\d{9})$/, formatRule('districtCode'))
    .nullable()
    .optional(),
  address: field.optionalText(200),
  annualCapacity: z.number().int().min(0).max(INT4_MAX).nullable().optional(),
  accreditationNo: field.optionalText(50),
  sort: field.sortOrder().optional(),
  status: field.status.optional(),
  remark: field.remark,
};

export const CreateOrganization = requestBody('CreateOrganization', {
  parentId: ref('organization').nullable().optional().openapi({ description: 'Absent or null: a root of the tree' }),
  ...fields,
});
export type CreateOrganization = z.infer<typeof CreateOrganization>;

/** Everything but the place in the tree, which `move` changes. */
export const UpdateOrganization = updateBody('UpdateOrganization', {
  ...fields,
  code: code.optional(),
  name: fields.name.optional(),
  orgType: orgType.optional(),
});
export type UpdateOrganization = z.infer<typeof UpdateOrganization>;

export const MoveOrganization = requestBody('MoveOrganization', {
  parentId: ref('organization').nullable().openapi({ description: 'The new parent; null: to the top of the tree' }),
  version: Version,
});
export type MoveOrganization = z.infer<typeof MoveOrganization>;

/** A sheet names the parent by its code (ids are not what people type). */
export const OrganizationImportRow = importRowOf(
  { ...CreateOrganization.omit({ parentId: true, remark: true }).shape },
  { parentCode: code.optional() },
);

export const OrganizationTreeQuery = z
  .object({
    parentId: Id.optional().openapi({ description: 'Absent: the roots' }),
    status: field.status.optional(),
  })
  .strict();

export const organizationResource = defineResource({
  path: 'people/organization',
  permission: 'people:organization',
  menu: { parent: 'org', order: 2, buttons: ['move'], route: '/user/organization' },
  schemas: {
    row: Organization,
    create: CreateOrganization,
    update: UpdateOrganization,
    importRow: OrganizationImportRow,
  },
  table: {
    name: 'organization',
    columns: columnsOf(Organization, { except: ['ancestry'] }),
    tenantOwned: true,
    tree: { key: 'id', parent: 'parent_id' },
    computed: {
      ancestry: sql`(SELECT string_agg(a.name, ' / ' ORDER BY a.depth) FROM organization a
        WHERE a.id = ANY (string_to_array(trim(both '/' from organization.path), '/')::bigint[])
          AND a.id <> organization.id)`,
    },
  },
  list: {
    sort: ['code', 'name', 'orgType', 'sort', 'depth', 'updatedAt'],
    defaultSort: 'depth,sort,code',
    filters: {
      keyword: { kind: 'keyword', columns: ['code', 'name', 'short_name'] },
      orgType: { kind: 'in', column: 'org_type', values: [...ORG_TYPES] },
      parentId: { kind: 'eq', column: 'parent_id', pattern: ID_PATTERN },
      status: statusFilter,
    },
  },
  importKey: 'code',
  label: (row) => `${row.code} ${row.name}`,
  columns: [
    { key: 'code', example: 'H01' },
    { key: 'name', example: '第一人民医院' },
    { key: 'shortName', example: '一院' },
    { key: 'orgType', example: 'hospital' },
    { key: 'parentCode', only: 'import', example: '' },
    { key: 'ancestry', only: 'export' },
    { key: 'baseLevel', example: '' },
    { key: 'specialtyCode', example: '' },
    { key: 'standardDeptCode', example: '' },
    { key: 'phone', example: '010-12345678' },
    { key: 'email', example: '' },
    { key: 'districtCode', example: '110101' },
    { key: 'address', example: '' },
    { key: 'annualCapacity', example: '' },
    { key: 'accreditationNo', example: '' },
    { key: 'sort', example: '0' },
    { key: 'status', example: 'enabled' },
  ],
});

declare module '../../../db/seed/permissions' {
  interface ResourceMenus {
    organizations: typeof organizationResource;
  }
}
