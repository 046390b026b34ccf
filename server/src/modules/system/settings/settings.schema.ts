import { z } from '@hono/zod-openapi';
import { Version } from '../../../core/column-bounds';
import { requestBody } from '../../../core/schema-kit';

export const PublicSettingsQuery = z
  .object({ tenant: z.string().max(32).optional().openapi({ example: 'demo' }) })
  .strict();

export const PublicSettings = z
  .record(z.string(), z.unknown())
  .openapi('PublicSettings', { example: { 'branding.name': '医学教育管理后台', 'branding.nameEn': 'MedEdu Admin' } });

export const SETTING_CATEGORIES = [
  'security',
  'login',
  'upload',
  'exam',
  'message',
  'branding',
  'privacy',
  'integration',
] as const;
export const SETTING_VALUE_TYPES = ['string', 'number', 'boolean', 'enum', 'json', 'secret', 'file'] as const;
export type SettingValueType = (typeof SETTING_VALUE_TYPES)[number];
export const SECRET_MASK = '******';

export const SettingOption = z
  .object({ value: z.string(), label: z.string(), labelEn: z.string().optional() })
  .openapi('SettingOption');
export type SettingOption = z.infer<typeof SettingOption>;

/** A setting as the caller's tenant sees it: the effective value (tenant override, else platform default) and its metadata. */
export const Setting = z
  .object({
    id: z.string().openapi({ description: 'The platform row: the audit trail of the key' }),
    key: z.string().openapi({ example: 'security.password.minLength' }),
    category: z.enum(SETTING_CATEGORIES),
    name: z.string(),
    nameEn: z.string().nullable(),
    description: z.string().nullable(),
    valueType: z.enum(SETTING_VALUE_TYPES),
    value: z.unknown().openapi({ description: 'Secrets are never returned: `******` when set, else null' }),
    defaultValue: z.unknown().openapi({ description: 'The platform value (masked like `value` for secrets)' }),
    hasValue: z.boolean(),
    options: z.array(SettingOption).nullable(),
    min: z.number().nullable(),
    max: z.number().nullable(),
    isPublic: z.boolean(),
    isSystem: z.boolean(),
    tenantOverridable: z.boolean(),
    overridden: z.boolean().openapi({ description: 'The caller’s tenant has its own value' }),
    editable: z.boolean().openapi({ description: 'The caller may change it (permission and overridability)' }),
    version: z.number().int().openapi({
      description:
        'Send it back on PUT. For a tenant: its override’s version (0 while there is none); for the platform: the platform row’s',
    }),
    updatedAt: z.string().nullable(),
  })
  .openapi('Setting');
export type Setting = z.infer<typeof Setting>;

export const SettingList = z
  .object({ data: z.array(Setting), total: z.number().int(), success: z.literal(true) })
  .openapi('SettingList');

export const SettingListQuery = z.object({ category: z.enum(SETTING_CATEGORIES).optional() }).strict();

export const SettingKeyParam = z.object({
  key: z
    .string()
    .regex(/^[a-zA-Z][a-zA-Z0-9_.-]{0,99}$/)
    .openapi({ param: { name: 'key', in: 'path' }, example: 'security.password.minLength' }),
});

export const UpdateSetting = requestBody('UpdateSetting', {
  value: z.unknown().openapi({ description: 'Validated against the setting’s type, options and range' }),
  version: Version.optional(),
});
export type UpdateSetting = z.infer<typeof UpdateSetting>;
