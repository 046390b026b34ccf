import { z } from '@hono/zod-openapi';
import { field, requestBody, updateBody } from '../../core/schema-kit';
import { formatRule } from '../../core/validation';

const clientFields = {
  client_id: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ example: 'console', description: 'Required unless sent with HTTP Basic' }),
  client_secret: z.string().max(200).optional(),
  scope: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: "Space-separated; within the client's scopes (all of them when omitted)" }),
};

export const PasswordGrant = z
  .object({
    grant_type: z.literal('password'),
    tenant: z.string().min(1).max(32).openapi({ example: 'demo' }),
    username: z.string().min(1).max(50).openapi({ example: 'admin' }),
    password: z.string().min(1).max(128).openapi({ example: 'admin123' }),
    ...clientFields,
  })
  .openapi('PasswordGrant');

export const RefreshGrant = z
  .object({
    grant_type: z.literal('refresh_token'),
    refresh_token: z.string().min(1).max(200),
    ...clientFields,
  })
  .openapi('RefreshGrant');

/** Not strict: the token endpoint ignores parameters it does not recognise (RFC 6749 §3.2); other requests are. */
export const TokenRequest = z.discriminatedUnion('grant_type', [PasswordGrant, RefreshGrant]).openapi('TokenRequest');
export type TokenRequest = z.infer<typeof TokenRequest>;

export const TokenResponse = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    token_type: z.literal('bearer'),
    expires_in: z.number().int().openapi({ description: 'Seconds until the access token expires' }),
    refresh_expires_in: z.number().int().openapi({ description: 'Seconds until the refresh token expires' }),
    scope: z.string().openapi({ description: 'The scopes granted, space-separated' }),
  })
  .openapi('TokenResponse');
export type TokenResponse = z.infer<typeof TokenResponse>;

export const Me = z
  .object({
    userId: z.string(),
    userName: z.string(),
    displayName: z.string(),
    email: z.string().nullable(),
    mobile: z.string().nullable(),
    version: z.number().int(),
    mustChangePassword: z
      .boolean()
      .openapi({ description: 'Set after an administrator reset the password or imported the account' }),
    permissions: z.array(z.string()),
    roles: z.array(z.object({ code: z.string(), name: z.string() })),
    tenant: z.object({ id: z.string(), code: z.string(), name: z.string() }),
    orgId: z.string().nullable(),
    clientType: z.string(),
  })
  .openapi('Me');
export type Me = z.infer<typeof Me>;

export const UpdateMe = updateBody('UpdateMe', {
  displayName: field.requiredText(50),
  email: z.email().max(100).nullable().optional(),
  mobile: z
    .string()
    .max(20)
    .regex(/^\+?[0-9][0-9 -]{4,19}$/, formatRule('phone'))
    .nullable()
    .optional(),
});
export type UpdateMe = z.infer<typeof UpdateMe>;

export const ChangePassword = requestBody('ChangePassword', {
  currentPassword: z.string().min(1).max(128),
  newPassword: z.string().min(1).max(128),
});
export type ChangePassword = z.infer<typeof ChangePassword>;
