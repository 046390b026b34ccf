import { z } from '@hono/zod-openapi';
import { INT4_MAX } from '../../../core/column-bounds';
import { notRef } from '../../../core/references';
import { field, importRowOf, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';

const code = z
  .string()
  .trim()
  .regex(/^([A-Z]|\d{2,4})$/, formatRule('industryCode'))
  .openapi({ example: '84' });

export const Industry = recordRow({
  code: z.string(),
  name: z.string(),
  nameEn: z.string().nullable(),
  parentCode: z.string().nullable(),
  level: z
    .number()
    .int()
    .openapi({ description: '1 section (门类), 2 division (大类), 3 group (中类), 4 class (小类)' }),
  standardVersion: z.string().nullable(),
  wechatIndustryId: z.number().int().nullable(),
  sort: z.number().int(),
  status: field.status,
  remark: z.string().nullable(),
}).openapi('Industry');
export type Industry = z.infer<typeof Industry>;

export const IndustryNode = Industry.extend({ hasChildren: z.boolean() }).openapi('IndustryNode');
export type IndustryNode = z.infer<typeof IndustryNode>;

const fields = {
  name: field.requiredText(100),
  nameEn: field.optionalText(200),
  standardVersion: field.optionalText(30),
  wechatIndustryId: notRef(z.number().int().min(1).max(INT4_MAX).nullable().optional()),
  sort: field.sortOrder().optional(),
  status: field.status.optional(),
  remark: field.remark,
};

export const CreateIndustry = requestBody('CreateIndustry', {
  code,
  parentCode: code.nullable().optional().openapi({ description: 'Absent: a section (level 1)' }),
  ...fields,
});
export type CreateIndustry = z.infer<typeof CreateIndustry>;

export const UpdateIndustry = updateBody('UpdateIndustry', { ...fields });
export type UpdateIndustry = z.infer<typeof UpdateIndustry>;

export const IndustryImportRow = importRowOf(CreateIndustry.omit({ remark: true }).shape);

export const IndustryTreeQuery = z
  .object({
    parentCode: code.optional().openapi({ description: 'Absent: the sections' }),
    status: field.status.optional(),
  })
  .strict();
