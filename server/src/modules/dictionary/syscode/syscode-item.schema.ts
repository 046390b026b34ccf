import { z } from '@hono/zod-openapi';
import { Version } from '../../../core/column-bounds';
import { importRowOf, optionalText, recordRow, requiredText, Status, sortOrder } from '../../../core/schema-kit';
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
  status: Status,
  scope: z
    .enum(['platform', 'tenant'])
    .openapi({ description: 'platform: shared by every tenant; tenant: the caller’s own' }),
}).openapi('DictItem');
export type DictItem = z.infer<typeof DictItem>;

const fields = {
  label: requiredText(100),
  labelEn: optionalText(100),
  color: color.nullable().optional(),
  parentValue: optionalText(100),
  isDefault: z.boolean().optional(),
  sort: sortOrder().optional(),
  status: Status.optional(),
};

export const CreateDictItem = z
  .object({
    typeCode: requiredText(100),
    value: requiredText(100).openapi({ example: 'grade_3a' }),
    ...fields,
  })
  .strict()
  .openapi('CreateDictItem');
export type CreateDictItem = z.infer<typeof CreateDictItem>;

export const UpdateDictItem = z
  .object({ ...fields, version: Version })
  .strict()
  .openapi('UpdateDictItem');
export type UpdateDictItem = z.infer<typeof UpdateDictItem>;

export const DictItemImportRow = importRowOf(CreateDictItem.shape);
