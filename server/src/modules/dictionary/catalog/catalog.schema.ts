import { z } from '@hono/zod-openapi';

export const SysCode = z
  .object({
    type: z.string(),
    value: z.string(),
    label: z.string(),
    labelEn: z.string().nullable(),
    color: z.string().nullable(),
    sort: z.number().int(),
  })
  .openapi('SysCode');
export type SysCode = z.infer<typeof SysCode>;

export const ErrCode = z
  .object({
    code: z.string().openapi({ example: 'common.unauthorized' }),
    httpStatus: z.number().int(),
    messageZh: z.string(),
    messageEn: z.string(),
  })
  .openapi('ErrCode');
export type ErrCode = z.infer<typeof ErrCode>;
