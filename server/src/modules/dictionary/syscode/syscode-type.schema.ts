import { z } from '@hono/zod-openapi';
import { Version } from '../../../core/column-bounds';
import { importRowOf, recordRow, remark, requiredText, Status } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';

export const DictType = recordRow({
  code: z.string(),
  name: z.string(),
  isSystem: z.boolean().openapi({ description: 'Referenced by the API: cannot be deleted' }),
  tenantExtensible: z.boolean().openapi({ description: 'Tenants may add their own items' }),
  status: Status,
  remark: z.string().nullable(),
}).openapi('DictType');
export type DictType = z.infer<typeof DictType>;

const fields = {
  name: requiredText(100),
  tenantExtensible: z.boolean().optional(),
  status: Status.optional(),
  remark,
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

export const DictTypeImportRow = importRowOf(CreateDictType.shape);
