import { z } from '@hono/zod-openapi';
import type { ColumnType } from 'kysely';
import { sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { ID_PATTERN } from '../../../core/resource/id-param';
import { createdAtFilter } from '../../../core/resource/list-query';
import { columnsOf, tableRepository } from '../../../core/resource/table.repository';
import { field, importRowOf, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import type { Audited, Defaulted, Id as IdColumn, Nullable, Ref } from '../../../db/types';
import { type PersonRow, personInput, personOf, personRow } from '../person/person';
import type { PersonRecord } from '../person/person-record';

/** Staff (docs/domain.md §4.4): employees of a department who run or teach the programme, maybe with an account. */
export const STAFF_STATUSES = ['active', 'on_leave', 'left'] as const;
export type StaffStatus = (typeof STAFF_STATUSES)[number];
export const EMPLOYMENT_TYPES = ['full_time', 'part_time', 'external'] as const;

/** Where a staff member's status may go: leaving is for good. */
export const STAFF_TRANSITIONS: Record<StaffStatus, readonly StaffStatus[]> = {
  active: ['on_leave', 'left'],
  on_leave: ['active', 'left'],
  left: [],
};

interface StaffTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  person_id: Ref;
  staff_no: string;
  org_id: Ref;
  position: Nullable<string>;
  professional_title: Nullable<string>;
  employment_type: Defaulted<(typeof EMPLOYMENT_TYPES)[number]>;
  hire_date: Nullable<string>;
  leave_date: Nullable<string>;
  is_teacher: Defaulted<boolean>;
  teacher_level: Nullable<string>;
  admin_user_id: Nullable<Ref>;
  status: ColumnType<StaffStatus, StaffStatus | undefined, StaffStatus>;
  remark: Nullable<string>;
}
interface StaffHistoryTable {
  id: IdColumn;
  tenant_id: Ref;
  staff_id: Ref;
  kind: 'transfer' | 'status' | 'account';
  from_org_id: Nullable<Ref>;
  to_org_id: Nullable<Ref>;
  from_state: Nullable<string>;
  to_state: Nullable<string>;
  reason: Nullable<string>;
  effective_date: Nullable<string>;
  created_at: ColumnType<Date, Date | undefined, never>;
  created_by: Nullable<Ref>;
}
declare module '../../../db/types' {
  interface DB {
    staff: StaffTable;
    staff_history: StaffHistoryTable;
  }
}

const own = {
  staffNo: z.string(),
  orgId: z.string(),
  position: z.string().nullable(),
  professionalTitle: z.string().nullable(),
  employmentType: z.enum(EMPLOYMENT_TYPES),
  hireDate: z.string().nullable(),
  leaveDate: z.string().nullable(),
  isTeacher: z.boolean(),
  teacherLevel: z.string().nullable(),
  adminUserId: z.string().nullable(),
  status: z.enum(STAFF_STATUSES),
  remark: z.string().nullable(),
};
const joined = {
  orgName: z.string(),
  adminUserName: z.string().nullable().openapi({ description: "The console account's user name" }),
};

export const Staff = recordRow({ ...personRow, ...own, ...joined }).openapi('Staff');
export type Staff = z.infer<typeof Staff>;

const dictValue = z.string().trim().min(1).max(50);
const fields = {
  ...personInput,
  staffNo: z
    .string()
    .trim()
    .toUpperCase()
    .min(1)
    .max(30)
    .regex(/^[A-Z0-9_-]+$/)
    .openapi({ example: 'S0001' }),
  orgId: ref('organization').openapi({ description: 'The department (an organisation)' }),
  position: dictValue.nullable().optional().openapi({ description: 'Dictionary `post`' }),
  professionalTitle: dictValue.nullable().optional().openapi({ description: 'Dictionary `professional_title`' }),
  employmentType: z.enum(EMPLOYMENT_TYPES).optional(),
  hireDate: z.iso.date().nullable().optional(),
  isTeacher: z.boolean().optional(),
  teacherLevel: field.optionalText(50),
  remark: field.remark,
};

export const CreateStaff = requestBody('CreateStaff', fields);
export type CreateStaff = z.infer<typeof CreateStaff>;
/** The department changes by transfer (kept in the history), not by an edit. */
const { orgId: _, ...editable } = fields;
export const UpdateStaff = updateBody('UpdateStaff', {
  ...editable,
  name: personInput.name.optional(),
  staffNo: fields.staffNo.optional(),
});
export type UpdateStaff = z.infer<typeof UpdateStaff>;

const step = { reason: z.string().trim().min(1).max(500), effectiveDate: z.iso.date() };
export const TransferStaff = requestBody('TransferStaff', { orgId: ref('organization'), ...step, version: Version });
export type TransferStaff = z.infer<typeof TransferStaff>;
export const ChangeStaffStatus = requestBody('ChangeStaffStatus', {
  to: z.enum(STAFF_STATUSES),
  ...step,
  version: Version,
});
export type ChangeStaffStatus = z.infer<typeof ChangeStaffStatus>;

export const CreateStaffAccount = requestBody('CreateStaffAccount', {
  userName: field.userName,
  roleIds: z
    .array(ref('role'))
    .min(1)
    .max(50)
    .optional()
    .openapi({ description: 'None: the role the settings name (`security.staffAccount.defaultRole`)' }),
  version: Version,
});
export type CreateStaffAccount = z.infer<typeof CreateStaffAccount>;
export const LinkStaffAccount = requestBody('LinkStaffAccount', { adminUserId: ref('admin_user'), version: Version });
export type LinkStaffAccount = z.infer<typeof LinkStaffAccount>;
export const StaffAccount = z
  .object({
    staff: Staff,
    temporaryPassword: z
      .string()
      .nullable()
      .openapi({ description: 'Shown once: the new account must replace it at its first sign-in' }),
  })
  .openapi('StaffAccount');

export const StaffHistory = z
  .object({
    id: z.string(),
    kind: z.enum(['transfer', 'status', 'account']),
    fromOrgName: z.string().nullable(),
    toOrgName: z.string().nullable(),
    fromState: z.string().nullable(),
    toState: z.string().nullable(),
    reason: z.string().nullable(),
    effectiveDate: z.string().nullable(),
    createdAt: z.string(),
    createdByName: z.string().nullable(),
  })
  .openapi('StaffHistory');
export type StaffHistory = z.infer<typeof StaffHistory>;

/** An import row: the department by its name or code. */
export const StaffImportRow = importRowOf({
  ...CreateStaff.omit({ orgId: true, remark: true }).shape,
  department: field.requiredText(100),
});

export const staffTable = tableRepository<'staff', PersonRecord<Staff>>({
  name: 'staff',
  columns: columnsOf(Staff, {
    except: [...(Object.keys(personRow) as (keyof PersonRow)[]), 'orgName', 'adminUserName'],
  }),
  writeOnly: { personId: 'person_id' },
  tenantOwned: true,
  computed: {
    person: personOf('staff.person_id'),
    orgName: sql`(SELECT o.name FROM organization o WHERE o.id = staff.org_id)`,
    adminUserName: sql`(SELECT u.username FROM admin_user u WHERE u.id = staff.admin_user_id)`,
  },
});

export const staffResource = defineResource({
  path: 'people/staff',
  type: 'staff',
  permission: 'people:staff',
  schemas: { row: Staff, create: CreateStaff, update: UpdateStaff, importRow: StaffImportRow },
  list: {
    sort: {
      staffNo: 'staff_no',
      hireDate: 'hire_date',
      status: 'status',
      createdAt: 'created_at',
      updatedAt: 'updated_at',
    },
    defaultSort: '-createdAt',
    filters: {
      keyword: { kind: 'keyword', columns: [] },
      orgId: { kind: 'eq', column: 'org_id', pattern: ID_PATTERN },
      status: { kind: 'in', column: 'status', values: STAFF_STATUSES },
      position: { kind: 'eq', column: 'position', pattern: /^[\w-]{1,50}$/ },
      employmentType: { kind: 'in', column: 'employment_type', values: EMPLOYMENT_TYPES },
      isTeacher: { kind: 'eq', column: 'is_teacher', pattern: /^(true|false)$/ },
      createdAt: createdAtFilter,
    },
  },
  importKey: 'idNo',
  label: (row) => `${row.staffNo} ${row.name}`,
  columns: [
    { key: 'staffNo', example: 'S0001' },
    { key: 'name', example: '王五' },
    { key: 'gender', example: 'male' },
    { key: 'idNo', example: '11010519491231002X', only: 'import' },
    { key: 'idNoMasked', only: 'export' },
    { key: 'mobile', example: '13800000002' },
    { key: 'email', example: '' },
    { key: 'department', example: 'D1', only: 'import' },
    { key: 'orgName', only: 'export' },
    { key: 'position', example: '' },
    { key: 'professionalTitle', example: '' },
    { key: 'employmentType', example: 'full_time' },
    { key: 'hireDate', example: '2020-09-01' },
    { key: 'isTeacher', example: 'true' },
    { key: 'teacherLevel', example: '' },
    { key: 'status', only: 'export' },
    { key: 'adminUserName', only: 'export' },
    { key: 'createdAt', only: 'export' },
  ],
});
