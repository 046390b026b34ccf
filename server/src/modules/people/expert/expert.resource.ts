import { z } from '@hono/zod-openapi';
import type { ColumnType } from 'kysely';
import { sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { ID_PATTERN } from '../../../core/resource/id-param';
import { createdAtFilter } from '../../../core/resource/list-query';
import { columnsOf, tableRepository } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';
import type { Audited, Id as IdColumn, Nullable, Ref } from '../../../db/types';
import { type PersonRow, personInput, personOf, personRow } from '../person/person';
import type { PersonRecord } from '../person/person-record';

/**
 * Experts (docs/domain.md §4.10): the pool of people who write and review items, examine, evaluate bases, lecture and
 * moderate content; a doctor promoted, or an external person. Active only once a qualification of theirs is approved.
 */
export const EXPERT_STATUSES = ['applied', 'in_review', 'active', 'suspended', 'expired', 'retired'] as const;
export type ExpertStatus = (typeof EXPERT_STATUSES)[number];
export const EXPERT_LEVELS = ['national', 'provincial', 'municipal', 'institutional'] as const;
export const EXPERT_ROLES = [
  'item_writer',
  'item_reviewer',
  'examiner',
  'base_evaluator',
  'lecturer',
  'content_moderator',
] as const;
export const EXPERT_SOURCES = ['self_applied', 'nominated', 'imported'] as const;

/**
 * Where an expert's status may go by hand: reviewed, then active (with an approved qualification) ⇄ suspended; an
 * expired term is renewed by activating again; retiring is for good. The daily job moves active experts whose term has
 * ended to `expired`.
 */
export const EXPERT_TRANSITIONS: Record<ExpertStatus, readonly ExpertStatus[]> = {
  applied: ['in_review', 'retired'],
  in_review: ['active', 'applied', 'retired'],
  active: ['suspended', 'retired'],
  suspended: ['active', 'retired'],
  expired: ['active', 'retired'],
  retired: [],
};

interface ExpertTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  person_id: Ref;
  doctor_id: Nullable<Ref>;
  expert_no: string;
  unit_id: Nullable<Ref>;
  org_id: Nullable<Ref>;
  professional_title: Nullable<string>;
  specialties: ColumnType<string[], string[] | undefined, string[]>;
  expert_level: ColumnType<string, string | undefined, string>;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  term_start: Nullable<string>;
  term_end: Nullable<string>;
  bio_html: Nullable<string>;
  achievements_html: Nullable<string>;
  source: ColumnType<string, string | undefined, string>;
  status: ColumnType<ExpertStatus, ExpertStatus | undefined, ExpertStatus>;
  remark: Nullable<string>;
}
declare module '../../../db/types' {
  interface DB {
    expert: ExpertTable;
  }
}

const own = {
  doctorId: z.string().nullable().openapi({ description: 'The doctor promoted, when the expert is one' }),
  expertNo: z.string(),
  orgId: z.string().nullable(),
  unitId: z.string().nullable(),
  professionalTitle: z.string().nullable(),
  specialties: z.array(z.string()),
  expertLevel: z.enum(EXPERT_LEVELS),
  roles: z.array(z.enum(EXPERT_ROLES)),
  termStart: z.string().nullable(),
  termEnd: z.string().nullable(),
  source: z.enum(EXPERT_SOURCES),
  status: z.enum(EXPERT_STATUSES),
  remark: z.string().nullable(),
};
const joined = {
  orgName: z.string().nullable(),
  unitName: z.string().nullable(),
  approvedQualifications: z
    .number()
    .int()
    .openapi({ description: "The person's approved qualifications (activation needs one)" }),
};

export const Expert = recordRow({ ...personRow, ...own, ...joined }).openapi('Expert');
export type Expert = z.infer<typeof Expert>;

const dictValue = z.string().trim().min(1).max(50);
const unique = <T extends z.ZodType>(item: T) =>
  z.array(item).refine((list) => new Set(list).size === list.length, formatRule('duplicate'));

/** The expert's own fields (the person's are the form's others, or the doctor's when promoted). */
const expertFields = {
  expertNo: z
    .string()
    .trim()
    .toUpperCase()
    .min(1)
    .max(30)
    .regex(/^[A-Z0-9_-]+$/)
    .openapi({ example: 'E0001' }),
  orgId: ref('organization').nullable().optional().openapi({ description: 'The department of an internal expert' }),
  unitId: ref('unit').nullable().optional().openapi({ description: 'The employer of an external expert' }),
  professionalTitle: dictValue.nullable().optional().openapi({ description: 'Dictionary `professional_title`' }),
  specialties: unique(dictValue)
    .min(1)
    .max(20)
    .openapi({ description: 'Dictionary `training_specialty`; at least one' }),
  expertLevel: z.enum(EXPERT_LEVELS).optional(),
  roles: unique(z.enum(EXPERT_ROLES)).max(EXPERT_ROLES.length).optional(),
  termStart: z.iso.date().nullable().optional(),
  termEnd: z.iso.date().nullable().optional(),
  source: z.enum(EXPERT_SOURCES).optional(),
  remark: field.remark,
};

export const CreateExpert = requestBody('CreateExpert', { ...personInput, ...expertFields });
export type CreateExpert = z.infer<typeof CreateExpert> & { doctorId?: string };
/** The status changes by its own action (`status`), not by an edit. */
export const UpdateExpert = updateBody('UpdateExpert', {
  ...personInput,
  ...expertFields,
  name: personInput.name.optional(),
  expertNo: expertFields.expertNo.optional(),
  specialties: expertFields.specialties.optional(),
});
export type UpdateExpert = z.infer<typeof UpdateExpert>;

/** A doctor made an expert: the person is the doctor's; the expert starts as applied (nominated). */
export const PromoteExpert = requestBody('PromoteExpert', expertFields);
export type PromoteExpert = z.infer<typeof PromoteExpert>;

export const ChangeExpertStatus = requestBody('ChangeExpertStatus', {
  to: z.enum(EXPERT_STATUSES),
  reason: z.string().trim().min(1).max(500),
  version: Version,
});
export type ChangeExpertStatus = z.infer<typeof ChangeExpertStatus>;

export const expertTable = tableRepository<'expert', PersonRecord<Expert>>({
  name: 'expert',
  columns: columnsOf(Expert, {
    except: [...(Object.keys(personRow) as (keyof PersonRow)[]), 'orgName', 'unitName', 'approvedQualifications'],
  }),
  writeOnly: { personId: 'person_id' },
  tenantOwned: true,
  computed: {
    person: personOf('expert.person_id'),
    orgName: sql`(SELECT o.name FROM organization o WHERE o.id = expert.org_id)`,
    unitName: sql`(SELECT u.name FROM unit u WHERE u.id = expert.unit_id)`,
    approvedQualifications: sql`(SELECT count(*)::int FROM qualification q
      WHERE q.person_id = expert.person_id AND q.review_status = 'approved')`,
  },
});

export const expertResource = defineResource({
  path: 'people/expert',
  type: 'expert',
  permission: 'expert:expert',
  schemas: { row: Expert, create: CreateExpert, update: UpdateExpert },
  list: {
    sort: {
      expertNo: 'expert_no',
      status: 'status',
      termEnd: 'term_end',
      createdAt: 'created_at',
      updatedAt: 'updated_at',
    },
    defaultSort: '-createdAt',
    filters: {
      keyword: { kind: 'keyword', columns: [] },
      status: { kind: 'in', column: 'status', values: EXPERT_STATUSES },
      expertLevel: { kind: 'in', column: 'expert_level', values: EXPERT_LEVELS },
      orgId: { kind: 'eq', column: 'org_id', pattern: ID_PATTERN },
      unitId: { kind: 'eq', column: 'unit_id', pattern: ID_PATTERN },
      doctorId: { kind: 'eq', column: 'doctor_id', pattern: ID_PATTERN },
      personId: { kind: 'eq', column: 'person_id', pattern: ID_PATTERN },
      // the array filters (a specialty, a role) are the store's: `column = ANY(...)`
      specialty: { kind: 'eq', pattern: /^[\w-]{1,50}$/ },
      role: { kind: 'in', values: EXPERT_ROLES },
      createdAt: createdAtFilter,
    },
  },
  label: (row) => `${row.expertNo} ${row.name}`,
  columns: [
    { key: 'expertNo' },
    { key: 'name' },
    { key: 'gender' },
    { key: 'idNoMasked' },
    { key: 'mobile' },
    { key: 'orgName' },
    { key: 'unitName' },
    { key: 'professionalTitle' },
    { key: 'expertLevel' },
    { key: 'specialties' },
    { key: 'roles' },
    { key: 'termStart' },
    { key: 'termEnd' },
    { key: 'source' },
    { key: 'status' },
    { key: 'createdAt' },
  ],
});
