import { z } from '@hono/zod-openapi';
import type { ColumnType } from 'kysely';
import { sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { ID_PATTERN, Id } from '../../../core/resource/id-param';
import { createdAtFilter, type ListSpec } from '../../../core/resource/list-query';
import { columnsOf, tableRepository } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import type { Audited, Id as IdColumn, Nullable, Ref } from '../../../db/types';
import { type PersonRow, personInput, personOf, personRow } from '../person/person';

/** The lifecycle of a trainee (docs/domain.md §4.9) and the moves it allows. */
export const TRAINEE_STATUSES = [
  'applied',
  'in_training',
  'suspended',
  'extended',
  'graduated',
  'terminated',
  'withdrawn',
] as const;
export type TraineeStatus = (typeof TRAINEE_STATUSES)[number];

export const TRANSITIONS: Record<TraineeStatus, readonly TraineeStatus[]> = {
  applied: ['in_training', 'withdrawn'],
  in_training: ['suspended', 'extended', 'graduated', 'terminated', 'withdrawn'],
  suspended: ['in_training', 'extended', 'terminated', 'withdrawn'],
  extended: ['graduated', 'suspended', 'terminated', 'withdrawn'],
  graduated: [],
  terminated: [],
  withdrawn: [],
};

export const REGISTRATION_STATUSES = ['not_submitted', 'pending', 'approved', 'rejected'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];
export const RECRUIT_TYPES = ['social', 'unit_entrusted', 'postgraduate', 'other'] as const;
export const BASE_CHANGE_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type BaseChangeStatus = (typeof BASE_CHANGE_STATUSES)[number];
/** The statuses in which a trainee changes base by a request (before admission, the base is edited as any field). */
export const IN_TRAINING: readonly TraineeStatus[] = ['in_training', 'suspended', 'extended'];

interface TraineeTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  person_id: Ref;
  trainee_no: string;
  trainee_type_id: Ref;
  training_base_id: Ref;
  specialty_base_id: Nullable<Ref>;
  specialty_code: Nullable<string>;
  cohort_year: Nullable<number>;
  training_start: Nullable<string>;
  planned_end: Nullable<string>;
  actual_end: Nullable<string>;
  work_unit_id: Nullable<Ref>;
  tutor_doctor_id: Nullable<Ref>;
  recruit_type: Nullable<(typeof RECRUIT_TYPES)[number]>;
  graduate_school: Nullable<string>;
  graduate_major: Nullable<string>;
  graduation_date: Nullable<string>;
  status: ColumnType<TraineeStatus, TraineeStatus | undefined, TraineeStatus>;
  registration_status: ColumnType<RegistrationStatus, RegistrationStatus | undefined, RegistrationStatus>;
  audit_level: ColumnType<number, number | undefined, number>;
  custom_fields: ColumnType<Record<string, unknown>, string | undefined, string>;
  remark: Nullable<string>;
}

interface TraineeHistoryTable {
  id: IdColumn;
  tenant_id: Ref;
  trainee_id: Ref;
  kind: 'status' | 'registration' | 'base';
  from_state: string;
  to_state: string;
  audit_level: Nullable<number>;
  reason: Nullable<string>;
  effective_date: Nullable<string>;
  created_at: ColumnType<Date, Date | undefined, never>;
  created_by: Nullable<Ref>;
}
interface TraineeBaseChangeTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  trainee_id: Ref;
  from_training_base_id: Ref;
  from_specialty_base_id: Nullable<Ref>;
  to_training_base_id: Ref;
  to_specialty_base_id: Nullable<Ref>;
  reason: string;
  effective_date: string;
  status: ColumnType<BaseChangeStatus, BaseChangeStatus | undefined, BaseChangeStatus>;
  decided_by: Nullable<Ref>;
  decided_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  decision_comment: Nullable<string>;
}
declare module '../../../db/types' {
  interface DB {
    trainee: TraineeTable;
    trainee_history: TraineeHistoryTable;
    trainee_base_change: TraineeBaseChangeTable;
  }
}

const own = {
  traineeNo: z.string(),
  traineeTypeId: z.string(),
  trainingBaseId: z.string(),
  specialtyBaseId: z.string().nullable(),
  specialtyCode: z.string().nullable(),
  cohortYear: z.number().int().nullable(),
  trainingStart: z.string().nullable(),
  plannedEnd: z.string().nullable(),
  actualEnd: z.string().nullable(),
  workUnitId: z.string().nullable(),
  tutorDoctorId: z.string().nullable(),
  recruitType: z.enum(RECRUIT_TYPES).nullable(),
  graduateSchool: z.string().nullable(),
  graduateMajor: z.string().nullable(),
  graduationDate: z.string().nullable(),
  status: z.enum(TRAINEE_STATUSES),
  registrationStatus: z.enum(REGISTRATION_STATUSES),
  auditLevel: z.number().int().openapi({ description: 'Levels of the registration audit already approved' }),
  customFields: z
    .record(z.string(), z.unknown())
    .openapi({ description: "Values of the type's custom fields, by key" }),
  remark: z.string().nullable(),
};
const names = {
  nextStatuses: z
    .array(z.enum(TRAINEE_STATUSES))
    .openapi({ description: 'Where the lifecycle may move it now (into training once its registration is approved)' }),
  traineeTypeName: z.string(),
  trainingBaseName: z.string(),
  specialtyBaseName: z.string().nullable(),
  workUnitName: z.string().nullable(),
  tutorName: z.string().nullable(),
};

export const Trainee = recordRow({ ...personRow, ...own, ...names }).openapi('Trainee');
export type Trainee = z.infer<typeof Trainee>;

const date = z.iso.date().nullable().optional();
const optionalRef = (table: 'organization' | 'unit' | 'doctor') => ref(table).nullable().optional();
const fields = {
  ...personInput,
  traineeNo: z
    .string()
    .trim()
    .min(1)
    .max(30)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional()
    .openapi({ description: "Made from the type's number pattern when left out" }),
  trainingBaseId: ref('organization'),
  specialtyBaseId: optionalRef('organization'),
  specialtyCode: field.optionalText(50),
  cohortYear: z.number().int().min(1950).max(2100).nullable().optional(),
  trainingStart: date,
  plannedEnd: date,
  workUnitId: optionalRef('unit'),
  tutorDoctorId: optionalRef('doctor').openapi({ description: 'A doctor who is a tutor, active' }),
  recruitType: z.enum(RECRUIT_TYPES).nullable().optional(),
  graduateSchool: field.optionalText(100),
  graduateMajor: field.optionalText(100),
  graduationDate: date,
  customFields: z
    .record(z.string().max(64), z.unknown())
    .optional()
    .openapi({ description: "Values of the type's custom fields, by key (checked against its definitions)" }),
  remark: field.remark,
};

export const CreateTrainee = requestBody('CreateTrainee', { ...fields, traineeTypeId: ref('trainee_type') });
export type CreateTrainee = z.infer<typeof CreateTrainee>;

export const UpdateTrainee = updateBody('UpdateTrainee', {
  ...fields,
  name: personInput.name.optional(),
  trainingBaseId: ref('organization').optional(),
});
export type UpdateTrainee = z.infer<typeof UpdateTrainee>;

/** A move of the lifecycle: where to, why, from when. */
const transition = {
  to: z.enum(TRAINEE_STATUSES),
  reason: z.string().trim().min(1).max(500),
  effectiveDate: z.iso.date(),
};
export const TransitionTrainee = requestBody('TransitionTrainee', { ...transition, version: Version });
export type TransitionTrainee = z.infer<typeof TransitionTrainee>;
export const TransitionTrainees = requestBody('TransitionTrainees', {
  ...transition,
  ids: z.array(Id).min(1).max(500),
});
export type TransitionTrainees = z.infer<typeof TransitionTrainees>;

/** A decision of the registration audit at its current level. */
const decision = {
  decision: z.enum(['approve', 'reject']),
  comment: z.string().trim().max(500).optional(),
};
export const AuditTrainee = requestBody('AuditTrainee', { ...decision, version: Version });
export type AuditTrainee = z.infer<typeof AuditTrainee>;
export const AuditTrainees = requestBody('AuditTrainees', { ...decision, ids: z.array(Id).min(1).max(500) });
export type AuditTrainees = z.infer<typeof AuditTrainees>;

/** A tutor for several trainees at once (none: their tutor is taken away). */
export const AssignTutor = requestBody('AssignTutor', {
  ids: z.array(Id).min(1).max(500),
  tutorDoctorId: ref('doctor').nullable(),
});
export type AssignTutor = z.infer<typeof AssignTutor>;

export const SubmitTrainee = requestBody('SubmitTrainee', { version: Version });

export const TraineeHistory = z
  .object({
    id: z.string(),
    kind: z.enum(['status', 'registration', 'base']),
    fromState: z.string(),
    toState: z.string(),
    auditLevel: z.number().int().nullable(),
    reason: z.string().nullable(),
    effectiveDate: z.string().nullable(),
    createdAt: z.string(),
    createdBy: z.string().nullable(),
    createdByName: z.string().nullable(),
  })
  .openapi('TraineeHistory');
export type TraineeHistory = z.infer<typeof TraineeHistory>;

/** A request to move a trainee in training to another base, decided once. */
export const RequestBaseChange = requestBody('RequestBaseChange', {
  toTrainingBaseId: ref('organization'),
  toSpecialtyBaseId: ref('organization').nullable().optional().openapi({ description: 'None: no specialty base' }),
  reason: z.string().trim().min(1).max(500),
  effectiveDate: z.iso.date(),
  version: Version,
});
export type RequestBaseChange = z.infer<typeof RequestBaseChange>;
export const DecideBaseChange = requestBody('DecideBaseChange', {
  decision: z.enum(['approve', 'reject']),
  comment: z.string().trim().max(500).optional(),
  version: Version,
});
export type DecideBaseChange = z.infer<typeof DecideBaseChange>;
export const TraineeBaseChange = z
  .object({
    id: z.string(),
    fromTrainingBaseName: z.string().nullable(),
    fromSpecialtyBaseName: z.string().nullable(),
    toTrainingBaseId: z.string(),
    toTrainingBaseName: z.string().nullable(),
    toSpecialtyBaseName: z.string().nullable(),
    reason: z.string(),
    effectiveDate: z.string(),
    status: z.enum(BASE_CHANGE_STATUSES),
    decisionComment: z.string().nullable(),
    decidedByName: z.string().nullable(),
    decidedAt: z.string().nullable(),
    createdByName: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('TraineeBaseChange');
export type TraineeBaseChange = z.infer<typeof TraineeBaseChange>;

export const RevealedIdNo = z.object({ idNo: z.string().nullable() }).openapi('RevealedIdNo');

/** Trainees of each type by status: the type view's counts. */
export const TraineeCounts = z
  .array(
    z.object({
      traineeTypeId: z.string(),
      traineeTypeName: z.string(),
      total: z.number().int(),
      byStatus: z.record(z.string(), z.number().int()),
    }),
  )
  .openapi('TraineeCounts');
export type TraineeCounts = z.infer<typeof TraineeCounts>;

export const traineeList: ListSpec = {
  sort: {
    traineeNo: 'trainee_no',
    cohortYear: 'cohort_year',
    trainingStart: 'training_start',
    status: 'status',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  defaultSort: '-createdAt',
  filters: {
    keyword: { kind: 'keyword', columns: [] },
    traineeTypeId: { kind: 'eq', column: 'trainee_type_id', pattern: ID_PATTERN },
    trainingBaseId: { kind: 'eq', column: 'training_base_id', pattern: ID_PATTERN },
    specialtyBaseId: { kind: 'eq', column: 'specialty_base_id', pattern: ID_PATTERN },
    workUnitId: { kind: 'eq', column: 'work_unit_id', pattern: ID_PATTERN },
    tutorDoctorId: { kind: 'eq', column: 'tutor_doctor_id', pattern: ID_PATTERN },
    status: { kind: 'in', column: 'status', values: TRAINEE_STATUSES },
    registrationStatus: { kind: 'in', column: 'registration_status', values: REGISTRATION_STATUSES },
    cohortYear: { kind: 'in', column: 'cohort_year', pattern: /^\d{4}$/ },
    custom: { kind: 'eq' },
    createdAt: createdAtFilter,
  },
};

/** A trainee as its table and its joins give it: the person still one object. */
type TraineeRecord = Omit<Trainee, keyof PersonRow | 'nextStatuses'> & { person: PersonRow };

export const traineeTable = tableRepository<'trainee', TraineeRecord>({
  name: 'trainee',
  columns: columnsOf(Trainee, { except: [...(Object.keys(personRow) as (keyof PersonRow)[]), ...keysOf(names)] }),
  /** The person's id is selected with the person. */
  writeOnly: { personId: 'person_id' },
  json: ['customFields'],
  tenantOwned: true,
  computed: {
    person: personOf('trainee.person_id'),
    traineeTypeName: sql`(SELECT t.name FROM trainee_type t WHERE t.id = trainee.trainee_type_id)`,
    trainingBaseName: sql`(SELECT o.name FROM organization o WHERE o.id = trainee.training_base_id)`,
    specialtyBaseName: sql`(SELECT o.name FROM organization o WHERE o.id = trainee.specialty_base_id)`,
    workUnitName: sql`(SELECT u.name FROM unit u WHERE u.id = trainee.work_unit_id)`,
    tutorName: sql`(SELECT p.name FROM doctor d JOIN person p ON p.id = d.person_id WHERE d.id = trainee.tutor_doctor_id)`,
  },
});

function keysOf<T extends object>(shape: T): (keyof T)[] {
  return Object.keys(shape) as (keyof T)[];
}

/** Where a trainee may move now: its status's moves, into training only once its registration is approved. */
export const nextStatuses = (row: Pick<Trainee, 'status' | 'registrationStatus'>): TraineeStatus[] =>
  TRANSITIONS[row.status].filter(
    (to) => !(row.status === 'applied' && to === 'in_training' && row.registrationStatus !== 'approved'),
  );

/** The row the API answers: the person's fields beside the trainee's, and where it may move. */
export const flatten = ({ person, id, ...rest }: TraineeRecord): Trainee => ({
  id,
  ...person,
  ...rest,
  nextStatuses: nextStatuses(rest),
});

export const traineeResource = defineResource({
  path: 'people/trainee',
  type: 'trainee',
  permission: 'trainee:trainee',
  schemas: { row: Trainee, create: CreateTrainee, update: UpdateTrainee },
  list: traineeList,
  importKey: 'traineeNo',
  // an import is made for one type: its columns are the type's importable fields too (trainee.import.ts)
  importParams: z.object({ traineeTypeId: ref('trainee_type') }),
  label: (row) => `${row.traineeNo} ${row.name}`,
  columns: [
    { key: 'traineeNo', example: 'R202600001' },
    { key: 'name', example: '张三' },
    { key: 'gender', example: 'male' },
    { key: 'idNoMasked', only: 'export' },
    { key: 'mobile', example: '13800000000' },
    { key: 'traineeTypeName', only: 'export' },
    { key: 'trainingBaseName', only: 'export' },
    { key: 'specialtyBaseName', only: 'export' },
    { key: 'workUnitName', only: 'export' },
    { key: 'tutorName', only: 'export' },
    { key: 'cohortYear', example: '2026' },
    { key: 'trainingStart', example: '2026-09-01' },
    { key: 'plannedEnd', example: '2029-08-31' },
    { key: 'status', only: 'export' },
    { key: 'registrationStatus', only: 'export' },
    { key: 'createdAt', only: 'export' },
  ],
});
