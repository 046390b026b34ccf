import { z } from '@hono/zod-openapi';
import { field, importRowOf, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';

const color = z
  .string()
  .trim()
  .regex(/^(#[0-9a-fA-F]{6}|[a-z][a-z-]{1,29})$/, formatRule('tagColor'))
  .openapi({ example: 'success' });

export const DictItem = recordRow({
  typeCode: z.string(),
  value: z.string(),
  label: z.string(),
  labelEn: z.string().nullable(),
  color: z.string().nullable(),
  parentValue: z.string().nullable(),
  isDefault: z.boolean(),
  sort: z.number().int(),
  status: field.status,
  scope: z
    .enum(['platform', 'tenant'])
    .openapi({ description: 'platform: shared by every tenant; tenant: the caller’s own' }),
}).openapi('DictItem');
export type DictItem = z.infer<typeof DictItem>;

const fields = {
  label: field.requiredText(100),
  labelEn: field.optionalText(100),
  color: color.nullable().optional(),
  parentValue: field.optionalText(100),
  isDefault: z.boolean().optional(),
  sort: field.sortOrder().optional(),
  status: field.status.optional(),
};

export const CreateDictItem = requestBody('CreateDictItem', {
  typeCode: field.requiredText(100),
  value: field.requiredText(100).openapi({ example: 'grade_3a' }),
  ...fields,
});
export type CreateDictItem = z.infer<typeof CreateDictItem>;

export const UpdateDictItem = updateBody('UpdateDictItem', { ...fields });
export type UpdateDictItem = z.infer<typeof UpdateDictItem>;

export const DictItemImportRow = importRowOf(CreateDictItem.shape);
