import { z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { platformTenant } from '../../../core/platform-tenant.repository';
import { notRef, ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { createdAtFilter, statusFilter } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import type { Audited, Defaulted, Id as IdColumn, Nullable, NullableJson } from '../../../db/types';
import { CHANNELS, type Channel } from '../channel/channel';

/** Message templates (docs/domain.md §6.1): per channel, with `{var}` placeholders; the platform's and the tenant's. */
interface MessageTemplateTable extends Audited {
  id: IdColumn;
  tenant_id: string;
  code: string;
  name: string;
  channel: Channel;
  business_item_code: Nullable<string>;
  sender_name: Nullable<string>;
  title_template: Nullable<string>;
  content_template: string;
  params: Defaulted<string[]>;
  wechat_account_id: Nullable<string>;
  external_template_id: Nullable<string>;
  example: Nullable<string>;
  data_mapping: NullableJson;
  jump_url: Nullable<string>;
  status: Defaulted<'enabled' | 'disabled'>;
  remark: Nullable<string>;
}
declare module '../../../db/types' {
  interface DB {
    message_template: MessageTemplateTable;
  }
}

/** Channels whose messages have a title; channels that send through a provider's own template. */
export const TITLED_CHANNELS: readonly Channel[] = ['in_app', 'email'];
export const EXTERNAL_CHANNELS: readonly Channel[] = ['wechat_mp', 'sms'];

const DataMapping = z
  .record(z.string().regex(/^[A-Za-z][\w.]{0,49}$/), z.string().max(500))
  .refine((mapping) => Object.keys(mapping).length <= 50, { message: 'at most 50 fields' })
  .openapi({
    description: 'WeChat template fields (`first`, `keyword1`, `remark`, …) → the text to send, with `{var}`',
    example: { first: '{paperName} 已发布', keyword1: '{startAt}' },
  });

export const MessageTemplate = recordRow({
  code: z.string(),
  name: z.string(),
  channel: z.enum(CHANNELS),
  businessItemCode: z.string().nullable(),
  businessItemName: z.string().nullable(),
  senderName: z.string().nullable(),
  titleTemplate: z.string().nullable(),
  contentTemplate: z.string(),
  params: z.array(z.string()).openapi({ description: 'The `{var}` placeholders of the title and content' }),
  unknownParams: z
    .array(z.string())
    .openapi({ description: 'Placeholders the bound business item does not declare as variables (a warning)' }),
  wechatAccountId: z.string().nullable(),
  externalTemplateId: z.string().nullable(),
  example: z.string().nullable(),
  dataMapping: z.record(z.string(), z.string()).nullable(),
  jumpUrl: z.string().nullable(),
  status: field.status,
  remark: z.string().nullable(),
  scope: z
    .enum(['platform', 'tenant'])
    .openapi({ description: '`platform`: shared by every tenant, read-only to them' }),
}).openapi('MessageTemplate');
export type MessageTemplate = z.infer<typeof MessageTemplate>;

const fields = {
  name: field.requiredText(100),
  channel: z.enum(CHANNELS),
  businessItemCode: field.optionalText(100).openapi({ description: 'The business item whose variables it uses' }),
  senderName: field.optionalText(50),
  titleTemplate: field
    .optionalText(200)
    .openapi({ description: 'Required for in-app and e-mail; may hold `{var}`', example: '{paperName} 已发布' }),
  contentTemplate: z
    .string()
    .trim()
    .min(1)
    .max(20_000)
    .openapi({ description: 'With `{var}` placeholders', example: '您好，{paperName} 将于 {startAt} 开考。' }),
  wechatAccountId: ref('wechat_account').nullable().optional(),
  externalTemplateId: notRef(field.optionalText(100)).openapi({
    description: 'The WeChat template id or SMS provider template code (required for them)',
  }),
  example: z.string().max(2000).nullable().optional(),
  dataMapping: DataMapping.nullable().optional(),
  jumpUrl: z
    .string()
    .trim()
    .max(500)
    .regex(/^https?:\/\/[^\s]+$/i)
    .nullable()
    .optional()
    .openapi({ description: 'Where the WeChat message opens (http or https)' }),
  status: field.status.optional(),
  remark: field.remark,
};

export const CreateMessageTemplate = requestBody('CreateMessageTemplate', {
  code: field.code(100),
  ...fields,
});
export type CreateMessageTemplate = z.infer<typeof CreateMessageTemplate>;
export const UpdateMessageTemplate = updateBody('UpdateMessageTemplate', {
  ...fields,
  name: fields.name.optional(),
  channel: fields.channel.optional(),
  contentTemplate: fields.contentTemplate.optional(),
});
export type UpdateMessageTemplate = z.infer<typeof UpdateMessageTemplate>;

const SampleValues = z
  .record(z.string().max(50), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]))
  .refine((values) => Object.keys(values).length <= 100, { message: 'at most 100 values' })
  .openapi({ description: 'Variable → sample value', example: { paperName: '内科出科考核' } });

export const PreviewTemplate = requestBody('PreviewMessageTemplate', { params: SampleValues.optional() });
export type PreviewTemplate = z.infer<typeof PreviewTemplate>;
export const PreviewDraft = requestBody('PreviewMessageTemplateDraft', {
  businessItemCode: fields.businessItemCode,
  titleTemplate: fields.titleTemplate,
  contentTemplate: fields.contentTemplate,
  params: SampleValues.optional(),
});
export type PreviewDraft = z.infer<typeof PreviewDraft>;

export const TemplatePreview = z
  .object({
    title: z.string().nullable(),
    content: z.string(),
    params: z.array(z.string()).openapi({ description: "The template's variables" }),
    missing: z
      .array(z.string())
      .openapi({ description: "Variables given no sample value: the business item's example is shown, if any" }),
    unknownParams: z.array(z.string()),
  })
  .openapi('MessageTemplatePreview');
export type TemplatePreview = z.infer<typeof TemplatePreview>;

/** Its variables the bound business item (alias the table) does not declare; none without a business item. */
const unknownParams = sql`ARRAY(SELECT u.p FROM unnest(message_template.params) WITH ORDINALITY AS u(p, n)
  WHERE message_template.business_item_code IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM business_item b, jsonb_array_elements(b.variables) v
    WHERE b.code = message_template.business_item_code AND v->>'name' = u.p)
  ORDER BY u.n)`;

export const messageTemplateResource = defineResource({
  path: 'message/template',
  permission: 'message:template',
  schemas: { row: MessageTemplate, create: CreateMessageTemplate, update: UpdateMessageTemplate },
  table: {
    name: 'message_template',
    columns: columnsOf(MessageTemplate, { except: ['businessItemName', 'unknownParams', 'scope'] }),
    writeOnly: { tenantId: 'tenant_id' },
    json: ['dataMapping'],
    computed: {
      businessItemName: sql`(SELECT b.name FROM business_item b WHERE b.code = message_template.business_item_code)`,
      unknownParams,
      scope: sql`CASE WHEN message_template.tenant_id = ${platformTenant} THEN 'platform' ELSE 'tenant' END`,
    },
  },
  list: {
    sort: ['code', 'name', 'channel', 'createdAt', 'updatedAt'],
    defaultSort: '-createdAt',
    filters: {
      keyword: { kind: 'keyword', columns: ['code', 'name'] },
      channel: { kind: 'in', column: 'channel', values: CHANNELS },
      businessItemCode: { kind: 'in', column: 'business_item_code', pattern: /^[a-z][a-z0-9_.]{0,99}$/ },
      status: statusFilter,
      createdAt: createdAtFilter,
    },
  },
  importKey: 'code',
  label: (row) => `${row.code} ${row.name}`,
  columns: [
    { key: 'code' },
    { key: 'name' },
    { key: 'channel' },
    { key: 'businessItemCode' },
    { key: 'titleTemplate' },
    { key: 'contentTemplate' },
    { key: 'externalTemplateId' },
    { key: 'status' },
    { key: 'scope', only: 'export' },
  ],
});
