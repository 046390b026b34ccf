import { z } from '@hono/zod-openapi';
import { type ColumnType, sql } from 'kysely';
import { notRef } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { statusFilter } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';
import type {
  Audited,
  CommonStatus,
  Defaulted,
  Id as IdColumn,
  Nullable,
  NullableTimestamp,
  Ref,
} from '../../../db/types';

/** WeChat official accounts (docs/domain.md §6.3): whose followers the tenant reaches with template messages. */
export const ACCOUNT_TYPES = ['service', 'subscription'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

interface WechatAccountTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  name: string;
  app_id: string;
  app_secret_enc: Nullable<Buffer>;
  token: Nullable<string>;
  aes_key_enc: Nullable<Buffer>;
  account_type: Defaulted<AccountType>;
  primary_industry: Nullable<string>;
  deputy_industry: Nullable<string>;
  tags: ColumnType<unknown, string | undefined, string>;
  last_synced_at: NullableTimestamp;
  status: Defaulted<CommonStatus>;
  remark: Nullable<string>;
  /** The access token every instance uses, sealed, and when the next is fetched (wechat-token.repository.ts). */
  access_token_enc: Nullable<Buffer>;
  access_token_refresh_at: NullableTimestamp;
}
declare module '../../../db/types' {
  interface DB {
    wechat_account: WechatAccountTable;
  }
}

export const WechatTag = z
  .object({ id: z.number().int(), name: z.string(), count: z.number().int() })
  .openapi('WechatTag');

export const WechatAccount = recordRow({
  name: z.string(),
  appId: z.string(),
  secretSet: z.boolean().openapi({ description: 'An app secret is kept (encrypted; it is never answered)' }),
  token: z.string().nullable().openapi({ description: 'The token of the message server configuration' }),
  aesKeySet: z.boolean().openapi({ description: 'A message AES key is kept (encrypted; it is never answered)' }),
  accountType: z.enum(ACCOUNT_TYPES),
  primaryIndustry: z.string().nullable(),
  deputyIndustry: z.string().nullable(),
  tags: z.array(WechatTag).openapi({ description: "The account's tags as WeChat last answered them" }),
  lastSyncedAt: z.string().nullable(),
  status: field.status,
  remark: z.string().nullable(),
  followerCount: z.number().int().openapi({ description: 'Followers known (subscribed or not)' }),
}).openapi('WechatAccount');
export type WechatAccount = z.infer<typeof WechatAccount>;

const fields = {
  name: field.requiredText(64),
  appId: notRef(
    z
      .string()
      .trim()
      .regex(/^wx[0-9a-f]{16}$/, formatRule('wechatAppId'))
      .openapi({ example: 'wx0123456789abcdef' }),
  ),
  appSecret: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z]{16,64}$/, formatRule('wechatSecret'))
    .openapi({ description: 'Write only: kept encrypted; left out on update, the kept one stays' }),
  token: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z]{3,32}$/, formatRule('wechatToken'))
    .nullable()
    .optional(),
  aesKey: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z]{43}$/, formatRule('wechatAesKey'))
    .nullable()
    .optional()
    .openapi({ description: 'Write only: the EncodingAESKey, kept encrypted; null clears it' }),
  accountType: z.enum(ACCOUNT_TYPES).optional(),
  primaryIndustry: field.optionalText(64),
  deputyIndustry: field.optionalText(64),
  status: field.status.optional(),
  remark: field.remark,
};
export const CreateWechatAccount = requestBody('CreateWechatAccount', fields);
export type CreateWechatAccount = z.infer<typeof CreateWechatAccount>;
export const UpdateWechatAccount = updateBody('UpdateWechatAccount', {
  ...fields,
  name: fields.name.optional(),
  appId: fields.appId.optional(),
  appSecret: fields.appSecret.optional(),
});
export type UpdateWechatAccount = z.infer<typeof UpdateWechatAccount>;

export const SYNC_MODES = ['full', 'incremental'] as const;
export const SyncFollowers = requestBody('SyncFollowers', {
  mode: z.enum(SYNC_MODES).openapi({
    description:
      '`full`: every follower read again; `incremental`: the profiles of followers not known yet (or come back) only',
  }),
});
export type SyncFollowers = z.infer<typeof SyncFollowers>;
export const SyncReport = z
  .object({
    mode: z.enum(SYNC_MODES),
    total: z.number().int().openapi({ description: 'Followers WeChat lists now' }),
    added: z.number().int(),
    updated: z.number().int(),
    unsubscribed: z.number().int().openapi({ description: 'Known followers WeChat no longer lists' }),
  })
  .openapi('FollowerSyncReport');
export type SyncReport = z.infer<typeof SyncReport>;

/**
 * The menu `message:follower:list` is the screen of both: an account is added, changed and deleted with the menu's
 * create, update and delete rights (a follower is never made by hand: it comes from WeChat).
 */
export const wechatAccountResource = defineResource({
  path: 'message/wechat-account',
  permission: 'message:follower',
  labels: 'message.wechat.account',
  schemas: { row: WechatAccount, create: CreateWechatAccount, update: UpdateWechatAccount },
  table: {
    name: 'wechat_account',
    columns: columnsOf(WechatAccount, { except: ['secretSet', 'aesKeySet', 'followerCount'] }),
    writeOnly: { appSecretEnc: 'app_secret_enc', aesKeyEnc: 'aes_key_enc' },
    json: ['tags'],
    tenantOwned: true,
    audited: true,
    computed: {
      secretSet: sql`(wechat_account.app_secret_enc IS NOT NULL)`,
      aesKeySet: sql`(wechat_account.aes_key_enc IS NOT NULL)`,
      followerCount: sql`(SELECT count(*)::int FROM follower f WHERE f.wechat_account_id = wechat_account.id)`,
    },
  },
  list: {
    sort: ['name', 'appId', 'status', 'lastSyncedAt', 'createdAt'],
    defaultSort: 'name',
    filters: {
      keyword: { kind: 'keyword', columns: ['name', 'app_id'] },
      status: statusFilter,
    },
  },
  label: (row) => `${row.name} (${row.appId})`,
  columns: [
    { key: 'name' },
    { key: 'appId' },
    { key: 'accountType' },
    { key: 'status' },
    { key: 'lastSyncedAt' },
    { key: 'followerCount' },
  ],
});
