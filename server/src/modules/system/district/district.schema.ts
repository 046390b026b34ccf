import { z } from '@hono/zod-openapi';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';

export const DISTRICT_LEVELS = ['province', 'city', 'county', 'township'] as const;
export type DistrictLevel = (typeof DISTRICT_LEVELS)[number];
/** GB/T 2260 six-digit codes (province 110000, city 110100, county 110101), nine digits for townships. */
const code = z
  .string()
  .trim()
  .regex(/^(\d{6}|\d{9})$/, formatRule('districtCode'))
  .openapi({ example: '110101' });

export const District = recordRow({
  code: z.string(),
  name: z.string(),
  shortName: z.string().nullable(),
  level: z.enum(DISTRICT_LEVELS),
  parentCode: z.string().nullable(),
  path: z.string().openapi({ description: 'Codes from the root: /110000/110100/110101/' }),
  pinyin: z.string().nullable(),
  sort: z.number().int(),
  status: field.status,
  replacedByCode: z.string().nullable(),
  remark: z.string().nullable(),
}).openapi('District');
export type District = z.infer<typeof District>;

export const DistrictNode = District.extend({ hasChildren: z.boolean() }).openapi('DistrictNode');
export type DistrictNode = z.infer<typeof DistrictNode>;

const fields = {
  name: field.requiredText(50),
  shortName: field.optionalText(50),
  pinyin: field.optionalText(100),
  sort: field.sortOrder().optional(),
  status: field.status.optional(),
  replacedByCode: code.nullable().optional().openapi({ description: 'The code that replaces a retired one' }),
  remark: field.remark,
};

export const CreateDistrict = requestBody('CreateDistrict', {
  code,
  level: z.enum(DISTRICT_LEVELS).optional().openapi({ description: 'Derived from the code when absent' }),
  parentCode: code.nullable().optional().openapi({ description: 'Derived from the code when absent' }),
  ...fields,
});
export type CreateDistrict = z.infer<typeof CreateDistrict>;

export const UpdateDistrict = updateBody('UpdateDistrict', { ...fields });
export type UpdateDistrict = z.infer<typeof UpdateDistrict>;

export const DistrictImportRow = z.object({
  code,
  name: fields.name,
  shortName: z.string().trim().max(50).optional(),
  level: z.enum(DISTRICT_LEVELS).optional(),
  parentCode: code.optional(),
  pinyin: z.string().trim().max(100).optional(),
  sort: z.coerce.number().pipe(field.sortOrder()).optional(),
  status: field.status.optional(),
  replacedByCode: code.optional(),
});
export type DistrictImportRow = z.infer<typeof DistrictImportRow>;

export const TreeQuery = z
  .object({
    parentCode: code.optional().openapi({ description: 'Absent: the provinces' }),
    status: field.status.optional(),
  })
  .strict();

export const DistrictImportForm = z
  .object({
    file: z
      .custom<File>((v) => v instanceof File, 'must be an xlsx file')
      .openapi({ type: 'string', format: 'binary' }),
    dryRun: z.enum(['true', 'false']).default('true'),
    retireMissing: z
      .enum(['true', 'false'])
      .default('false')
      .openapi({ description: 'Retire (disable) existing codes of the levels in the file that the file leaves out' }),
  })
  .openapi('DistrictImportForm');

const failure = z.object({ row: z.number().int(), column: z.string(), message: z.string() });
export const DistrictImportReport = z
  .object({
    dryRun: z.boolean(),
    created: z.number().int(),
    updated: z.number().int(),
    failed: z.array(failure),
    added: z.array(
      z.object({
        code: z.string(),
        name: z.string(),
        level: z.enum(DISTRICT_LEVELS),
        parentCode: z.string().nullable(),
      }),
    ),
    renamed: z.array(z.object({ code: z.string(), from: z.string(), to: z.string() })),
    retired: z.array(z.object({ code: z.string(), name: z.string(), replacedByCode: z.string().nullable() })),
    counts: z.object({
      added: z.number().int(),
      renamed: z.number().int(),
      retired: z.number().int(),
      updated: z.number().int().openapi({ description: 'Other changes (short name, pinyin, order, re-enabled)' }),
      unchanged: z.number().int(),
    }),
  })
  .openapi('DistrictImportReport');
export type DistrictImportReport = z.infer<typeof DistrictImportReport>;
