import { z } from '@hono/zod-openapi';
import { field, importRowOf, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';

export const DictType = recordRow({
  code: z.string(),
  name: z.string(),
  isSystem: z.boolean().openapi({ description: 'Referenced by the API: cannot be deleted' }),
  tenantExtensible: z.boolean().openapi({ description: 'Tenants may add their own items' }),
  status: field.status,
  remark: z.string().nullable(),
}).openapi('DictType');
export type DictType = z.infer<typeof DictType>;

const fields = {
  name: field.requiredText(100),
  tenantExtensible: z.boolean().optional(),
  status: field.status.optional(),
  remark: field.remark,
};

export const CreateDictType = requestBody('CreateDictType', {
  code: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_]{1,99}$/, formatRule('dictTypeCode'))
    .openapi({ example: 'hospital_grade' }),
  ...fields,
});
export type CreateDictType = z.infer<typeof CreateDictType>;

export const UpdateDictType = updateBody('UpdateDictType', { ...fields });
export type UpdateDictType = z.infer<typeof UpdateDictType>;

export const DictTypeImportRow = importRowOf(CreateDictType.shape);
