import { z } from '@hono/zod-openapi';
import { Version } from '../../../core/column-bounds';
import { notRef, ref } from '../../../core/references';
import { field, recordRow } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';

export const GRANT_TYPES = ['password', 'refresh_token', 'client_credentials', 'authorization_code'] as const;

export const OauthClient = recordRow({
  clientId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  clientType: z.enum(['confidential', 'public']),
  grantTypes: z.array(z.enum(GRANT_TYPES)),
  redirectUris: z.array(z.string()),
  scopes: z.array(z.string()),
  accessTokenTtlSec: z.number().int(),
  refreshTokenTtlSec: z.number().int(),
  allowedTenantIds: z.array(z.string()).nullable().openapi({ description: 'null: every tenant' }),
  status: field.status,
})
  .extend({
    clientSecret: z
      .string()
      .optional()
      .openapi({ description: 'Only in the answer that creates a confidential client: shown once, stored as a hash' }),
  })
  .openapi('OauthClient');
export type OauthClient = z.infer<typeof OauthClient>;

const redirectUri = z
  .string()
  .trim()
  .max(500)
  .refine((v) => {
    try {
      const url = new URL(v);
      return /^https?:$|^[a-z][a-z0-9+.-]*:$/.test(url.protocol) && !url.hash;
    } catch {
      return false;
    }
  }, 'must be an absolute URL without a fragment');

const fields = {
  name: field.requiredText(100),
  description: z.string().max(500).nullable().optional(),
  grantTypes: z
    .array(z.enum(GRANT_TYPES))
    .min(1)
    .refine((v) => new Set(v).size === v.length, 'must not repeat a grant type'),
  redirectUris: z.array(redirectUri).max(20).default([]),
  scopes: z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .max(100)
        .regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/),
    )
    .max(50)
    .default([]),
  accessTokenTtlSec: z.number().int().min(60).max(86_400).default(1800),
  refreshTokenTtlSec: z
    .number()
    .int()
    .min(300)
    .max(365 * 86_400)
    .default(30 * 86_400),
  allowedTenantIds: z.array(ref('tenant')).max(1000).nullable().default(null),
  status: field.status.default('enabled'),
};

function grantRules(v: { grantTypes: string[]; redirectUris: string[]; clientType?: string }, ctx: z.RefinementCtx) {
  if (v.grantTypes.includes('authorization_code') && v.redirectUris.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['redirectUris'], message: 'is required for authorization_code' });
  }
  if (v.clientType === 'public' && v.grantTypes.includes('client_credentials')) {
    ctx.addIssue({ code: 'custom', path: ['grantTypes'], message: 'client_credentials needs a confidential client' });
  }
}

export const CreateOauthClient = z
  .object({
    clientId: notRef(
      z
        .string()
        .trim()
        .min(2)
        .max(64)
        .regex(/^[a-zA-Z0-9._-]+$/, formatRule('clientId')),
    ),
    clientType: z.enum(['confidential', 'public']),
    ...fields,
  })
  .strict()
  .superRefine(grantRules)
  .openapi('CreateOauthClient');
export type CreateOauthClient = z.infer<typeof CreateOauthClient>;

/** The client id and type are fixed once created. */
export const UpdateOauthClient = z
  .object({ ...fields, version: Version })
  .strict()
  .superRefine(grantRules)
  .openapi('UpdateOauthClient');
export type UpdateOauthClient = z.infer<typeof UpdateOauthClient>;

export const ClientSecret = z
  .object({ clientSecret: z.string().openapi({ description: 'Shown once; only its hash is stored' }) })
  .openapi('ClientSecret');

export const RevokedTokens = z.object({ revokedSessions: z.number().int() }).openapi('RevokedTokens');
