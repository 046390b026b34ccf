import { z } from '@hono/zod-openapi';
import { INT4_MAX, Version } from '../../../core/column-bounds';
import { formatRule } from '../../../core/validation';

const status = z.enum(['enabled', 'disabled']);
const code = z
  .string()
  .trim()
  .regex(/^([A-Z]|\d{2,4})$/, formatRule('industryCode'))
  .openapi({ example: '84' });

export const Industry = z
  .object({
    id: z.string(),
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
    status,
    remark: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string().nullable(),
    version: z.number().int(),
  })
  .openapi('Industry');
export type Industry = z.infer<typeof Industry>;

export const IndustryNode = Industry.extend({ hasChildren: z.boolean() }).openapi('IndustryNode');
export type IndustryNode = z.infer<typeof IndustryNode>;

const fields = {
  name: z.string().trim().min(1).max(100),
  nameEn: z.string().trim().max(200).nullable().optional(),
  standardVersion: z.string().trim().max(30).nullable().optional(),
  wechatIndustryId: z.number().int().min(1).max(INT4_MAX).nullable().optional(),
  sort: z.number().int().min(0).max(1_000_000).optional(),
  status: status.optional(),
  remark: z.string().max(500).nullable().optional(),
};

export const CreateIndustry = z
  .object({
    code,
    parentCode: code.nullable().optional().openapi({ description: 'Absent: a section (level 1)' }),
    ...fields,
  })
  .strict()
  .openapi('CreateIndustry');
export type CreateIndustry = z.infer<typeof CreateIndustry>;

export const UpdateIndustry = z
  .object({ ...fields, version: Version })
  .strict()
  .openapi('UpdateIndustry');
export type UpdateIndustry = z.infer<typeof UpdateIndustry>;

export const IndustryImportRow = z.object({
  code,
  parentCode: code.optional(),
  name: fields.name,
  nameEn: z.string().trim().max(200).optional(),
  standardVersion: z.string().trim().max(30).optional(),
  wechatIndustryId: z.coerce.number().int().min(1).max(INT4_MAX).optional(),
  sort: z.coerce.number().int().min(0).max(1_000_000).optional(),
  status: status.optional(),
});

export const IndustryTreeQuery = z
  .object({ parentCode: code.optional().openapi({ description: 'Absent: the sections' }), status: status.optional() })
  .strict();
