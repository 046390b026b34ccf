import { z } from '@hono/zod-openapi';
import type { ColumnType } from 'kysely';
import { sql } from 'kysely';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { ID_PATTERN } from '../../../core/resource/id-param';
import { createdAtFilter } from '../../../core/resource/list-query';
import { columnsOf, tableRepository } from '../../../core/resource/table.repository';
import { field, importRowOf, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import type { Audited, Defaulted, Id as IdColumn, Nullable, Ref } from '../../../db/types';
import { type PersonRow, personInput, personOf, personRow } from '../person/person';
import type { PersonRecord } from '../person/person-record';

/** Doctors (docs/domain.md §4.6): internal ones in a department, external ones at a unit; tutors supervise trainees. */
export const DOCTOR_STATUSES = ['active', 'inactive', 'left'] as const;
export type DoctorStatus = (typeof DOCTOR_STATUSES)[number];

interface DoctorTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  person_id: Ref;
  doctor_no: Nullable<string>;
  doctor_type_id: Ref;
  org_id: Nullable<Ref>;
  unit_id: Nullable<Ref>;
  professional_title: Nullable<string>;
  practice_category: Nullable<string>;
  practice_scope: Nullable<string>;
  qualification_cert_no: Nullable<string>;
  license_no: Nullable<string>;
  license_issued_on: Nullable<string>;
  specialty_code: Nullable<string>;
  subspecialty: Nullable<string>;
  is_tutor: Defaulted<boolean>;
  teacher_since: Nullable<string>;
  bio_html: Nullable<string>;
  status: ColumnType<DoctorStatus, DoctorStatus | undefined, DoctorStatus>;
  remark: Nullable<string>;
}
declare module '../../../db/types' {
  interface DB {
    doctor: DoctorTable;
  }
}

const own = {
  doctorNo: z.string().nullable(),
  doctorTypeId: z.string(),
  orgId: z.string().nullable(),
  unitId: z.string().nullable(),
  professionalTitle: z.string().nullable(),
  practiceCategory: z.string().nullable(),
  practiceScope: z.string().nullable(),
  qualificationCertNo: z.string().nullable(),
  licenseNo: z.string().nullable(),
  licenseIssuedOn: z.string().nullable(),
  specialtyCode: z.string().nullable(),
  subspecialty: z.string().nullable(),
  isTutor: z.boolean(),
  teacherSince: z.string().nullable(),
  status: z.enum(DOCTOR_STATUSES),
  remark: z.string().nullable(),
};
const joined = {
  doctorTypeName: z.string(),
  orgName: z.string().nullable(),
  unitName: z.string().nullable(),
  traineeCount: z.number().int().openapi({ description: 'Trainees whose tutor the doctor is' }),
};

export const Doctor = recordRow({ ...personRow, ...own, ...joined }).openapi('Doctor');
export type Doctor = z.infer<typeof Doctor>;

const dictValue = z.string().trim().min(1).max(50);
const number = (example: string) =>
  z
    .string()
    .trim()
    .toUpperCase()
    .min(1)
    .max(50)
    .regex(/^[A-Z0-9_-]+$/)
    .nullable()
    .optional()
    .openapi({ example });
const fields = {
  ...personInput,
  doctorNo: number('D0001').openapi({ description: 'The hospital job number; unique when given' }),
  doctorTypeId: ref('doctor_type'),
  orgId: ref('organization').nullable().optional().openapi({ description: 'The department of an internal doctor' }),
  unitId: ref('unit').nullable().optional().openapi({ description: 'The employer of an external doctor' }),
  professionalTitle: dictValue.nullable().optional().openapi({ description: 'Dictionary `professional_title`' }),
  practiceCategory: dictValue.nullable().optional().openapi({ description: 'Dictionary `practice_category`' }),
  practiceScope: field.optionalText(50),
  qualificationCertNo: number('199811110000001'),
  licenseNo: number('110110000000001').openapi({
    description: 'The practice licence; unique when given, required by a type that says so',
  }),
  licenseIssuedOn: z.iso.date().nullable().optional(),
  specialtyCode: field.optionalText(50),
  subspecialty: field.optionalText(100),
  isTutor: z.boolean().optional(),
  teacherSince: z.iso.date().nullable().optional(),
  status: z.enum(DOCTOR_STATUSES).optional(),
  remark: field.remark,
};

export const CreateDoctor = requestBody('CreateDoctor', fields);
export type CreateDoctor = z.infer<typeof CreateDoctor>;
export const UpdateDoctor = updateBody('UpdateDoctor', {
  ...fields,
  name: personInput.name.optional(),
  doctorTypeId: ref('doctor_type').optional(),
});
export type UpdateDoctor = z.infer<typeof UpdateDoctor>;

/** An import row: the type, department and unit by their names (or codes). */
export const DoctorImportRow = importRowOf({
  ...CreateDoctor.omit({ doctorTypeId: true, orgId: true, unitId: true, remark: true, status: true }).shape,
  doctorType: field.requiredText(50),
  department: field.optionalText(100),
  unit: field.optionalText(150),
});

export const doctorTable = tableRepository<'doctor', PersonRecord<Doctor>>({
  name: 'doctor',
  columns: columnsOf(Doctor, {
    except: [
      ...(Object.keys(personRow) as (keyof PersonRow)[]),
      'doctorTypeName',
      'orgName',
      'unitName',
      'traineeCount',
    ],
  }),
  writeOnly: { personId: 'person_id' },
  tenantOwned: true,
  computed: {
    person: personOf('doctor.person_id'),
    doctorTypeName: sql`(SELECT t.name FROM doctor_type t WHERE t.id = doctor.doctor_type_id)`,
    orgName: sql`(SELECT o.name FROM organization o WHERE o.id = doctor.org_id)`,
    unitName: sql`(SELECT u.name FROM unit u WHERE u.id = doctor.unit_id)`,
    traineeCount: sql`(SELECT count(*)::int FROM trainee r WHERE r.tutor_doctor_id = doctor.id)`,
  },
});

export const doctorResource = defineResource({
  path: 'people/doctor',
  type: 'doctor',
  permission: 'people:doctor',
  schemas: { row: Doctor, create: CreateDoctor, update: UpdateDoctor, importRow: DoctorImportRow },
  list: {
    sort: {
      doctorNo: 'doctor_no',
      status: 'status',
      teacherSince: 'teacher_since',
      createdAt: 'created_at',
      updatedAt: 'updated_at',
    },
    defaultSort: '-createdAt',
    filters: {
      keyword: { kind: 'keyword', columns: [] },
      doctorTypeId: { kind: 'eq', column: 'doctor_type_id', pattern: ID_PATTERN },
      orgId: { kind: 'eq', column: 'org_id', pattern: ID_PATTERN },
      unitId: { kind: 'eq', column: 'unit_id', pattern: ID_PATTERN },
      status: { kind: 'in', column: 'status', values: DOCTOR_STATUSES },
      isTutor: { kind: 'eq', column: 'is_tutor', pattern: /^(true|false)$/ },
      professionalTitle: { kind: 'eq', column: 'professional_title', pattern: /^[\w-]{1,50}$/ },
      createdAt: createdAtFilter,
    },
  },
  importKey: 'idNo',
  label: (row) => `${row.doctorNo ?? ''} ${row.name}`.trim(),
  columns: [
    { key: 'doctorNo', example: 'D0001' },
    { key: 'name', example: '李医生' },
    { key: 'gender', example: 'female' },
    { key: 'idNo', example: '11010519491231002X', only: 'import' },
    { key: 'idNoMasked', only: 'export' },
    { key: 'mobile', example: '13800000003' },
    { key: 'doctorType', example: 'teaching', only: 'import' },
    { key: 'doctorTypeName', only: 'export' },
    { key: 'department', example: 'D1', only: 'import' },
    { key: 'orgName', only: 'export' },
    { key: 'unit', example: '', only: 'import' },
    { key: 'unitName', only: 'export' },
    { key: 'professionalTitle', example: 'attending' },
    { key: 'practiceCategory', example: 'clinical' },
    { key: 'licenseNo', example: '' },
    { key: 'isTutor', example: 'true' },
    { key: 'status', only: 'export' },
    { key: 'traineeCount', only: 'export' },
    { key: 'createdAt', only: 'export' },
  ],
});
