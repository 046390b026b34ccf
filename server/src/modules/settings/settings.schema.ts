import { z } from '@hono/zod-openapi';

export const PublicSettingsQuery = z
  .object({ tenant: z.string().max(32).optional().openapi({ example: 'demo' }) })
  .strict();

export const PublicSettings = z
  .record(z.string(), z.unknown())
  .openapi('PublicSettings', { example: { 'branding.name': '医学教育管理后台', 'branding.nameEn': 'MedEdu Admin' } });
