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

/** The management categories of doctors (docs/domain.md §4.5): teaching, supervising, refresher, external... */
interface DoctorTypeTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  code: string;
  name: string;
  description: Nullable<string>;
  teacher_eligible: Defaulted<boolean>;
  license_required: Defaulted<boolean>;
  color: Nullable<string>;
  sort: Defaulted<number>;
  status: Defaulted<CommonStatus>;
  remark: Nullable<string>;
}
declare module '../../../db/types' {
  interface DB {
    doctor_type: DoctorTypeTable;
  }
}

const code = field.code().openapi({ example: 'teaching' });

export const DoctorType = recordRow({
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  teacherEligible: z.boolean(),
  licenseRequired: z.boolean(),
  color: z.string().nullable(),
  sort: z.number().int(),
  status: field.status,
  remark: z.string().nullable(),
  /** How many doctors are of the type (computed: list and get only). */
  doctorCount: z.number().int().optional(),
}).openapi('DoctorType');
export type DoctorType = z.infer<typeof DoctorType>;

const fields = {
  code,
  name: field.requiredText(50),
  description: field.optionalText(500),
  teacherEligible: z.boolean().optional(),
  licenseRequired: z.boolean().optional(),
  color: z
    .string()
    .trim()
    .regex(/^(#[0-9a-fA-F]{6}|[a-z]+)$/, formatRule('tagColor'))
    .nullable()
    .optional(),
  sort: field.sortOrder().optional(),
  status: field.status.optional(),
  remark: field.remark,
};

export const CreateDoctorType = requestBody('CreateDoctorType', fields);
export type CreateDoctorType = z.infer<typeof CreateDoctorType>;
export const UpdateDoctorType = updateBody('UpdateDoctorType', {
  ...fields,
  code: code.optional(),
  name: fields.name.optional(),
});
export type UpdateDoctorType = z.infer<typeof UpdateDoctorType>;

/** Where a type's doctors go before it is deleted. */
export const MoveDoctors = requestBody('MoveDoctors', { targetTypeId: ref('doctor_type'), version: Version });
export type MoveDoctors = z.infer<typeof MoveDoctors>;

export const doctorTypeResource = defineResource({
  path: 'people/doctor-type',
  permission: 'people:doctor-type',
  schemas: {
    row: DoctorType,
    create: CreateDoctorType,
    update: UpdateDoctorType,
    importRow: importRowOf(CreateDoctorType.omit({ remark: true, color: true }).shape),
  },
  table: {
    name: 'doctor_type',
    columns: columnsOf(DoctorType, { except: ['doctorCount'] }),
    tenantOwned: true,
    computed: {
      doctorCount: sql`(SELECT count(*)::int FROM doctor d WHERE d.doctor_type_id = doctor_type.id)`,
    },
  },
  list: {
    sort: ['code', 'name', 'sort', 'updatedAt'],
    defaultSort: 'sort,code',
    filters: {
      keyword: { kind: 'keyword', columns: ['code', 'name'] },
      status: statusFilter,
    },
  },
  importKey: 'code',
  label: (row) => `${row.code} ${row.name}`,
  columns: [
    { key: 'code', example: 'teaching' },
    { key: 'name', example: '带教医师' },
    { key: 'description', example: '' },
    { key: 'teacherEligible', example: 'true' },
    { key: 'licenseRequired', example: 'true' },
    { key: 'sort', example: '0' },
    { key: 'status', example: 'enabled' },
    { key: 'doctorCount', only: 'export' },
  ],
});
