import { z } from '@hono/zod-openapi';

export const IdParam = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,17}$/, 'must be a positive integer id')
    .openapi({ param: { name: 'id', in: 'path' }, example: '2' }),
});

export const AdminUser = z
  .object({
    id: z.string(),
    userName: z.string(),
    displayName: z.string(),
    email: z.string().nullable(),
    mobile: z.string().nullable(),
    orgId: z.string().nullable(),
    status: z.enum(['enabled', 'disabled', 'locked']),
    lastLoginAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string().nullable(),
    version: z.number().int(),
  })
  .openapi('AdminUser');
export type AdminUser = z.infer<typeof AdminUser>;
