import { z } from '@hono/zod-openapi';
import type { ColumnType } from 'kysely';
import { sql } from 'kysely';
import { defineResource } from '../../../core/resource/define-resource';
import { statusFilter } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { field, importRowOf, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';
import type { Audited, CommonStatus, Defaulted, Id as IdColumn, Nullable, Ref } from '../../../db/types';

/** Kinds of trainee (docs/domain.md §4.7): their rules and, in trainee-field, the fields their form asks for. */
export const TRAINEE_CATEGORIES = [
  'residency',
  'specialist',
  'postgraduate',
  'refresher',
  'intern',
  'gp_assistant',
  'cme',
  'other',
] as const;

interface TraineeTypeTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  code: string;
  name: string;
  category: (typeof TRAINEE_CATEGORIES)[number];
  default_training_years: Nullable<number>;
  requires_registration_audit: Defaulted<boolean>;
  audit_levels: ColumnType<unknown, string | undefined, string>;
  trainee_no_pattern: Nullable<string>;
  color: Nullable<string>;
  sort: Defaulted<number>;
  status: Defaulted<CommonStatus>;
  remark: Nullable<string>;
}
declare module '../../../db/types' {
  interface DB {
    trainee_type: TraineeTypeTable;
  }
}

const code = field.code().openapi({ example: 'residency' });
/** `R{yyyy}{seq:5}`: literal letters, digits, _ or -, the year, and one sequence of a fixed width. */
const traineeNoPattern = z
  .string()
  .trim()
  .max(50)
  .regex(
    /^(?=.*\{seq:[1-9]\})(?!.*\{seq:[1-9]\}.*\{seq:)([A-Za-z0-9_-]|\{yyyy\}|\{yy\}|\{seq:[1-9]\})+$/,
    formatRule('traineeNoPattern'),
  )
  .openapi({ example: 'R{yyyy}{seq:5}' });
const roleCode = z
  .string()
  .trim()
  .min(2)
  .max(50)
  .regex(/^[a-z][a-z0-9_-]*$/, formatRule('roleCode'));

export const TraineeType = recordRow({
  code: z.string(),
  name: z.string(),
  category: z.enum(TRAINEE_CATEGORIES),
  defaultTrainingYears: z.number().nullable(),
  requiresRegistrationAudit: z.boolean(),
  auditLevels: z.array(z.string()).openapi({ description: 'Role codes that approve a registration, in order' }),
  traineeNoPattern: z.string().nullable(),
  color: z.string().nullable(),
  sort: z.number().int(),
  status: field.status,
  remark: z.string().nullable(),
  /** Its active custom fields (computed: list and get only). */
  fieldCount: z.number().int().optional(),
}).openapi('TraineeType');
export type TraineeType = z.infer<typeof TraineeType>;

const fields = {
  code,
  name: field.requiredText(50),
  category: z.enum(TRAINEE_CATEGORIES),
  defaultTrainingYears: z.number().multipleOf(0.5).min(0.5).max(10).nullable().optional(),
  requiresRegistrationAudit: z.boolean().optional(),
  auditLevels: z
    .array(roleCode)
    .max(5)
    .refine((list) => new Set(list).size === list.length, formatRule('duplicate'))
    .optional()
    .openapi({ description: 'Role codes that approve a registration, in order (required when it is audited)' }),
  traineeNoPattern: traineeNoPattern.nullable().optional(),
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

export const CreateTraineeType = requestBody('CreateTraineeType', fields);
export type CreateTraineeType = z.infer<typeof CreateTraineeType>;

export const UpdateTraineeType = updateBody('UpdateTraineeType', {
  ...fields,
  code: code.optional(),
  name: fields.name.optional(),
  category: fields.category.optional(),
});
export type UpdateTraineeType = z.infer<typeof UpdateTraineeType>;

/** A copy of a type with its active fields, under a code and name of its own. */
export const CloneTraineeType = requestBody('CloneTraineeType', { code, name: field.requiredText(50) });
export type CloneTraineeType = z.infer<typeof CloneTraineeType>;

export const TraineeTypeImportRow = importRowOf(
  CreateTraineeType.omit({ remark: true, auditLevels: true, color: true }).shape,
);

export const traineeTypeResource = defineResource({
  path: 'people/trainee-type',
  permission: 'people:trainee-type',
  menu: { parent: 'people', order: 2, buttons: ['clone'], route: '/user/trainee-type' },
  schemas: { row: TraineeType, create: CreateTraineeType, update: UpdateTraineeType, importRow: TraineeTypeImportRow },
  table: {
    name: 'trainee_type',
    columns: columnsOf(TraineeType, { except: ['fieldCount'] }),
    json: ['auditLevels'],
    tenantOwned: true,
    computed: {
      fieldCount: sql`(SELECT count(*)::int FROM trainee_type_field f
        WHERE f.trainee_type_id = trainee_type.id AND f.status = 'active')`,
    },
  },
  list: {
    sort: ['code', 'name', 'category', 'sort', 'updatedAt'],
    defaultSort: 'sort,code',
    filters: {
      keyword: { kind: 'keyword', columns: ['code', 'name'] },
      category: { kind: 'in', column: 'category', values: [...TRAINEE_CATEGORIES] },
      status: statusFilter,
    },
  },
  importKey: 'code',
  label: (row) => `${row.code} ${row.name}`,
  columns: [
    { key: 'code', example: 'residency' },
    { key: 'name', example: '住院医师规范化培训' },
    { key: 'category', example: 'residency' },
    { key: 'defaultTrainingYears', example: '3' },
    { key: 'requiresRegistrationAudit', example: 'false' },
    { key: 'traineeNoPattern', example: 'R{yyyy}{seq:5}' },
    { key: 'sort', example: '0' },
    { key: 'status', example: 'enabled' },
    { key: 'fieldCount', only: 'export' },
  ],
});

declare module '../../../db/seed/permissions' {
  interface ResourceMenus {
    traineeTypes: typeof traineeTypeResource;
  }
}
