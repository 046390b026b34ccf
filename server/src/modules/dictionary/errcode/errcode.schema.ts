import { z } from '@hono/zod-openapi';
import { field, importRowOf, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';

export const SHOW_TYPES = [0, 1, 2, 3, 9] as const;
/** Codes declared in server/src/core/error-codes.ts live below this; manual codes above, so a later release never collides. */
export const MANUAL_CODE_MIN = 2_000_000;

const showType = z
  .union(
    SHOW_TYPES.map((n) => z.literal(n)) as unknown as [
      z.ZodLiteral<0>,
      z.ZodLiteral<1>,
      z.ZodLiteral<2>,
      z.ZodLiteral<3>,
      z.ZodLiteral<9>,
    ],
  )
  .openapi({ description: '0 silent, 1 warning, 2 error, 3 notification, 9 redirect (Ant Design Pro ErrorShowType)' });
const message = z.string().trim().min(1).max(500);

export const ErrorCode = recordRow({
  code: z.number().int(),
  key: z.string(),
  module: z.string(),
  httpStatus: z.number().int(),
  messageZh: z.string(),
  messageEn: z.string(),
  showType: z.number().int(),
  source: z.enum(['built_in', 'manual']),
  messageCustomized: z.boolean().openapi({ description: 'A built-in message was edited: restarts keep the edit' }),
  status: field.status,
}).openapi('ErrorCode');
export type ErrorCode = z.infer<typeof ErrorCode>;

export const CreateErrorCode = requestBody('CreateErrorCode', {
  code: z.number().int().min(MANUAL_CODE_MIN).max(2_147_483_647).openapi({ example: 2_004_001 }),
  key: z
    .string()
    .trim()
    .regex(/^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)+$/, formatRule('errorCodeKey'))
    .max(100),
  module: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9-]{0,49}$/, formatRule('module')),
  httpStatus: z.number().int().min(400).max(599),
  messageZh: message,
  messageEn: message,
  showType: showType.optional(),
  status: field.status.optional(),
});
export type CreateErrorCode = z.infer<typeof CreateErrorCode>;

export const UpdateErrorCode = updateBody('UpdateErrorCode', {
  module: CreateErrorCode.shape.module.optional().openapi({ description: 'Manual codes only' }),
  httpStatus: CreateErrorCode.shape.httpStatus.optional().openapi({ description: 'Manual codes only' }),
  messageZh: message.optional(),
  messageEn: message.optional(),
  showType: showType.optional(),
  status: field.status.optional(),
});
export type UpdateErrorCode = z.infer<typeof UpdateErrorCode>;

/** The show type is a number written in its cell. */
export const ErrorCodeImportRow = importRowOf(CreateErrorCode.shape, {
  showType: z.coerce.number().pipe(showType).optional(),
});
