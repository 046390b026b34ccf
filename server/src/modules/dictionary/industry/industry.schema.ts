import { z } from '@hono/zod-openapi';
import { INT4_MAX, Version } from '../../../core/column-bounds';
import {
  importRowOf,
  optionalText,
  recordRow,
  remark,
  requiredText,
  Status,
  sortOrder,
} from '../../../core/schema-kit';
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
  status: Status,
  remark: z.string().nullable(),
}).openapi('Industry');
export type Industry = z.infer<typeof Industry>;

export const IndustryNode = Industry.extend({ hasChildren: z.boolean() }).openapi('IndustryNode');
export type IndustryNode = z.infer<typeof IndustryNode>;

const fields = {
  name: requiredText(100),
  nameEn: optionalText(200),
  standardVersion: optionalText(30),
  wechatIndustryId: z.number().int().min(1).max(INT4_MAX).nullable().optional(),
  sort: sortOrder().optional(),
  status: Status.optional(),
  remark,
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

export const IndustryImportRow = importRowOf(CreateIndustry.omit({ remark: true }).shape);

export const IndustryTreeQuery = z
  .object({ parentCode: code.optional().openapi({ description: 'Absent: the sections' }), status: Status.optional() })
  .strict();
