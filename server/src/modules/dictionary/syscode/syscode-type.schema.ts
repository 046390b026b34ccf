import { z } from '@hono/zod-openapi';
import { Version } from '../../../core/column-bounds';
import { formatRule } from '../../../core/validation';

const status = z.enum(['enabled', 'disabled']);

export const DictType = z
  .object({
    id: z.string(),
    code: z.string(),
    name: z.string(),
    isSystem: z.boolean().openapi({ description: 'Referenced by the API: cannot be deleted' }),
    tenantExtensible: z.boolean().openapi({ description: 'Tenants may add their own items' }),
    status,
    remark: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string().nullable(),
    version: z.number().int(),
  })
  .openapi('DictType');
export type DictType = z.infer<typeof DictType>;

const fields = {
  name: z.string().trim().min(1).max(100),
  tenantExtensible: z.boolean().optional(),
  status: status.optional(),
  remark: z.string().max(500).nullable().optional(),
};

export const CreateDictType = z
  .object({
    code: z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9_]{1,99}$/, formatRule('dictTypeCode'))
      .openapi({ example: 'hospital_grade' }),
    ...fields,
  })
  .strict()
  .openapi('CreateDictType');
export type CreateDictType = z.infer<typeof CreateDictType>;

export const UpdateDictType = z
  .object({ ...fields, version: Version })
  .strict()
  .openapi('UpdateDictType');
export type UpdateDictType = z.infer<typeof UpdateDictType>;

export const DictTypeImportRow = z.object({
  code: CreateDictType.shape.code,
  name: fields.name,
  tenantExtensible: z.stringbool().optional(),
  status: status.optional(),
  remark: z.string().max(500).optional(),
});
