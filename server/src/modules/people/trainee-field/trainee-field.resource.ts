import { z } from '@hono/zod-openapi';
import type { ColumnType } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { ID_PATTERN, Id } from '../../../core/resource/id-param';
import { columnsOf } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';
import type { Audited, Defaulted, Id as IdColumn, Nullable, Ref } from '../../../db/types';
import { FIELD_TYPES, FieldOption, FieldValidation } from './custom-field';

/** The custom fields of a trainee type (docs/domain.md §4.8): their table, schemas and definition. */
type NullableJson = ColumnType<unknown, string | null | undefined, string | null>;
interface TraineeTypeFieldTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  trainee_type_id: Ref;
  key: string;
  label: string;
  label_en: Nullable<string>;
  group_name: Nullable<string>;
  field_type: (typeof FIELD_TYPES)[number];
  dict_type_code: Nullable<string>;
  options: NullableJson;
  required: Defaulted<boolean>;
  unique_scope: Defaulted<'none' | 'type' | 'tenant'>;
  locked: Defaulted<boolean>;
  visibility: Defaulted<'hidden' | 'admin_only' | 'self_and_admin' | 'public'>;
  show_in_list: Defaulted<boolean>;
  filterable: Defaulted<boolean>;
  exportable: Defaulted<boolean>;
  importable: Defaulted<boolean>;
  default_value: NullableJson;
  placeholder: Nullable<string>;
  help_text: Nullable<string>;
  validation: NullableJson;
  sort: Defaulted<number>;
  status: Defaulted<'active' | 'archived'>;
}
declare module '../../../db/types' {
  interface DB {
    trainee_type_field: TraineeTypeFieldTable;
  }
}

export const UNIQUE_SCOPES = ['none', 'type', 'tenant'] as const;
export const VISIBILITIES = ['hidden', 'admin_only', 'self_and_admin', 'public'] as const;
export const FIELD_STATUSES = ['active', 'archived'] as const;

const key = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9_]*$/, formatRule('fieldKey'))
  .openapi({ example: 'graduate_school' });

export const TraineeField = recordRow({
  traineeTypeId: z.string(),
  key: z.string(),
  label: z.string(),
  labelEn: z.string().nullable(),
  groupName: z.string().nullable(),
  fieldType: z.enum(FIELD_TYPES),
  dictTypeCode: z.string().nullable(),
  options: z.array(FieldOption).nullable(),
  required: z.boolean(),
  uniqueScope: z.enum(UNIQUE_SCOPES),
  locked: z.boolean(),
  visibility: z.enum(VISIBILITIES),
  showInList: z.boolean(),
  filterable: z.boolean(),
  exportable: z.boolean(),
  importable: z.boolean(),
  defaultValue: z.unknown().nullable().openapi({ description: 'A value of the field, as its kind holds one' }),
  placeholder: z.string().nullable(),
  helpText: z.string().nullable(),
  validation: FieldValidation.nullable(),
  sort: z.number().int(),
  status: z.enum(FIELD_STATUSES),
}).openapi('TraineeField');
export type TraineeField = z.infer<typeof TraineeField>;

const fields = {
  label: field.requiredText(100),
  labelEn: field.optionalText(100),
  groupName: field.optionalText(50),
  fieldType: z.enum(FIELD_TYPES),
  dictTypeCode: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .nullable()
    .optional()
    .openapi({ description: 'Required for dict and dict_multi' }),
  options: z
    .array(FieldOption)
    .max(100)
    .refine((list) => new Set(list.map((o) => o.value)).size === list.length, formatRule('duplicate'))
    .nullable()
    .optional()
    .openapi({ description: 'Required for select, multi_select, radio and checkbox' }),
  required: z.boolean().optional(),
  uniqueScope: z.enum(UNIQUE_SCOPES).optional(),
  locked: z.boolean().optional(),
  visibility: z.enum(VISIBILITIES).optional(),
  showInList: z.boolean().optional(),
  filterable: z.boolean().optional(),
  exportable: z.boolean().optional(),
  importable: z.boolean().optional(),
  defaultValue: z.unknown().optional().openapi({ description: 'A value of the field, as its kind holds one' }),
  placeholder: field.optionalText(100),
  helpText: field.optionalText(200),
  validation: FieldValidation.nullable().optional(),
  sort: field.sortOrder().optional(),
  status: z.enum(FIELD_STATUSES).optional(),
};

export const CreateTraineeField = requestBody('CreateTraineeField', {
  traineeTypeId: ref('trainee_type'),
  key,
  ...fields,
});
export type CreateTraineeField = z.infer<typeof CreateTraineeField>;

/** Everything but the type it belongs to; the key while no trainee holds a value of it. */
export const UpdateTraineeField = updateBody('UpdateTraineeField', {
  ...fields,
  key: key.optional(),
  label: fields.label.optional(),
  fieldType: fields.fieldType.optional(),
});
export type UpdateTraineeField = z.infer<typeof UpdateTraineeField>;

/** A type's fields in their new order: every field of the type, once. */
export const ReorderTraineeFields = requestBody('ReorderTraineeFields', {
  traineeTypeId: ref('trainee_type'),
  ids: z.array(Id).min(1).max(500),
});
export type ReorderTraineeFields = z.infer<typeof ReorderTraineeFields>;

export const ArchiveTraineeField = requestBody('ArchiveTraineeField', { version: Version });

export const traineeFieldResource = defineResource({
  path: 'people/trainee-field',
  permission: 'people:trainee-field',
  menu: { parent: 'people', order: 3, buttons: ['reorder', 'archive'], route: '/user/trainee-type-field' },
  schemas: { row: TraineeField, create: CreateTraineeField, update: UpdateTraineeField },
  table: {
    name: 'trainee_type_field',
    columns: columnsOf(TraineeField),
    json: ['options', 'defaultValue', 'validation'],
    tenantOwned: true,
  },
  list: {
    sort: ['sort', 'key', 'label', 'fieldType', 'updatedAt'],
    defaultSort: 'sort',
    filters: {
      keyword: { kind: 'keyword', columns: ['key', 'label', 'label_en', 'group_name'] },
      traineeTypeId: { kind: 'eq', column: 'trainee_type_id', pattern: ID_PATTERN },
      fieldType: { kind: 'in', column: 'field_type', values: [...FIELD_TYPES] },
      status: { kind: 'in', column: 'status', values: [...FIELD_STATUSES] },
    },
  },
  importKey: 'key',
  label: (row) => `${row.key} ${row.label}`,
  columns: [
    { key: 'key' },
    { key: 'label' },
    { key: 'labelEn' },
    { key: 'groupName' },
    { key: 'fieldType' },
    { key: 'dictTypeCode' },
    { key: 'required' },
    { key: 'uniqueScope' },
    { key: 'visibility' },
    { key: 'sort' },
    { key: 'status' },
  ],
});

declare module '../../../db/seed/permissions' {
  interface ResourceMenus {
    traineeFields: typeof traineeFieldResource;
  }
}
