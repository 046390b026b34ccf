import { z } from '@hono/zod-openapi';
import { field, importRowOf, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';

export const CHANNELS = ['in_app', 'wechat_mp', 'sms', 'email'] as const;
export const AUDIT_LEVELS = ['none', 'normal', 'sensitive'] as const;

export const BusinessItemVariable = requestBody('BusinessItemVariable', {
  name: z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]{0,49}$/),
  label: z.string().min(1).max(100),
  example: z.string().max(200).optional(),
  type: z.enum(['string', 'number', 'date', 'url']).optional(),
});

export type BusinessItemVariable = z.infer<typeof BusinessItemVariable>;

export const BusinessItem = recordRow({
  code: z.string(),
  name: z.string(),
  nameEn: z.string().nullable(),
  module: z.string(),
  description: z.string().nullable(),
  notifiable: z.boolean(),
  variables: z.array(BusinessItemVariable),
  defaultChannels: z.array(z.enum(CHANNELS)),
  defaultTemplateCode: z.string().nullable(),
  auditLevel: z.enum(AUDIT_LEVELS),
  status: field.status,
}).openapi('BusinessItem');
export type BusinessItem = z.infer<typeof BusinessItem>;

const fields = {
  name: field.requiredText(100),
  nameEn: field.optionalText(200),
  module: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9-]{0,49}$/, formatRule('module'))
    .openapi({ example: 'assess' }),
  description: z.string().max(1000).nullable().optional(),
  notifiable: z.boolean().optional(),
  variables: z.array(BusinessItemVariable).max(50).optional(),
  defaultChannels: z.array(z.enum(CHANNELS)).max(CHANNELS.length).optional(),
  defaultTemplateCode: field.optionalText(100),
  auditLevel: z.enum(AUDIT_LEVELS).optional(),
  status: field.status.optional(),
};

const code = z
  .string()
  .trim()
  .max(100)
  .regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/, formatRule('businessItemKey'))
  .openapi({ example: 'paper.published' });

export const CreateBusinessItem = requestBody('CreateBusinessItem', { code, ...fields });
export type CreateBusinessItem = z.infer<typeof CreateBusinessItem>;

export const UpdateBusinessItem = updateBody('UpdateBusinessItem', {
  ...fields,
  module: fields.module.optional(),
  name: fields.name.optional(),
});
export type UpdateBusinessItem = z.infer<typeof UpdateBusinessItem>;

const list = (text: string) => text.split(/[,，;；\s]+/).filter(Boolean);

/** Channels are one cell of comma-separated values; variables are edited on the screen, not in the sheet. */
export const BusinessItemImportRow = importRowOf(CreateBusinessItem.omit({ variables: true }).shape, {
  defaultChannels: z
    .string()
    .transform(list)
    .pipe(z.array(z.enum(CHANNELS)))
    .optional(),
});
