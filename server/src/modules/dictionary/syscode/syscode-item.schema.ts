import { z } from '@hono/zod-openapi';
import { Version } from '../../../core/column-bounds';
import { formatRule } from '../../../core/validation';

const status = z.enum(['enabled', 'disabled']);
const color = z
  .string()
  .trim()
  .regex(/^(#[0-9a-fA-F]{6}|[a-z][a-z-]{1,29})$/, formatRule('tagColor'))
  .openapi({ example: 'success' });

export const DictItem = z
  .object({
    id: z.string(),
    typeCode: z.string(),
    value: z.string(),
    label: z.string(),
    labelEn: z.string().nullable(),
    color: z.string().nullable(),
    parentValue: z.string().nullable(),
    isDefault: z.boolean(),
    sort: z.number().int(),
    status,
    scope: z
      .enum(['platform', 'tenant'])
      .openapi({ description: 'platform: shared by every tenant; tenant: the caller’s own' }),
    createdAt: z.string(),
    updatedAt: z.string().nullable(),
    version: z.number().int(),
  })
  .openapi('DictItem');
export type DictItem = z.infer<typeof DictItem>;

const fields = {
  label: z.string().trim().min(1).max(100),
  labelEn: z.string().trim().max(100).nullable().optional(),
  color: color.nullable().optional(),
  parentValue: z.string().trim().max(100).nullable().optional(),
  isDefault: z.boolean().optional(),
  sort: z.number().int().min(0).max(1_000_000).optional(),
  status: status.optional(),
};

export const CreateDictItem = z
  .object({
    typeCode: z.string().trim().min(1).max(100),
    value: z.string().trim().min(1).max(100).openapi({ example: 'grade_3a' }),
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

export const DictItemImportRow = z.object({
  typeCode: CreateDictItem.shape.typeCode,
  value: CreateDictItem.shape.value,
  label: fields.label,
  labelEn: z.string().trim().max(100).optional(),
  color: color.optional(),
  parentValue: z.string().trim().max(100).optional(),
  isDefault: z.stringbool().optional(),
  sort: z.coerce.number().int().min(0).max(1_000_000).optional(),
  status: status.optional(),
});
