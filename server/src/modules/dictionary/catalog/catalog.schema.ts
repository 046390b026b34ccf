import { z } from '@hono/zod-openapi';
import { DictItem } from '../syscode/syscode-item.schema';

/** A dictionary item as the console's caches hold it: the item's display fields, under its type's code. */
export const SysCode = DictItem.pick({ value: true, label: true, labelEn: true, color: true, sort: true })
  .extend({ type: z.string() })
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
