import { z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { notRef, ref, refBy } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { Id } from '../../../core/resource/id-param';
import { columnsOf } from '../../../core/resource/table.repository';
import { recordRow, requestBody } from '../../../core/schema-kit';
import type { Audited, Defaulted, Id as IdColumn, Nullable, NullableTimestamp, Ref } from '../../../db/types';

/** Followers (docs/domain.md §6.3): who follows a WeChat official account of the tenant, as WeChat lists them. */
export const SUBSCRIBE_STATUSES = ['subscribed', 'unsubscribed'] as const;
export type SubscribeStatus = (typeof SUBSCRIBE_STATUSES)[number];
/** Whom a follower may be bound to: the people modules' records of the same tenant. */
export const BOUND_PERSON_TYPES = ['trainee', 'staff', 'doctor'] as const;
export type BoundPersonType = (typeof BOUND_PERSON_TYPES)[number];

interface FollowerTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  wechat_account_id: Ref;
  openid: string;
  unionid: Nullable<string>;
  nickname: Nullable<string>;
  avatar_url: Nullable<string>;
  subscribe_status: Defaulted<SubscribeStatus>;
  subscribe_time: NullableTimestamp;
  unsubscribe_time: NullableTimestamp;
  language: Nullable<string>;
  country: Nullable<string>;
  province: Nullable<string>;
  city: Nullable<string>;
  remark: Nullable<string>;
  tag_ids: Defaulted<string[]>;
  bound_person_type: Nullable<BoundPersonType>;
  bound_person_id: Nullable<Ref>;
  bound_at: NullableTimestamp;
  last_interaction_at: NullableTimestamp;
}
declare module '../../../db/types' {
  interface DB {
    follower: FollowerTable;
  }
}

export const Follower = recordRow({
  wechatAccountId: z.string(),
  accountName: z.string(),
  openid: z.string(),
  unionid: z.string().nullable(),
  nickname: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  subscribeStatus: z.enum(SUBSCRIBE_STATUSES),
  subscribeTime: z.string().nullable(),
  unsubscribeTime: z.string().nullable(),
  language: z.string().nullable(),
  country: z.string().nullable(),
  province: z.string().nullable(),
  city: z.string().nullable(),
  remark: z.string().nullable().openapi({ description: 'Kept on WeChat too' }),
  tagIds: z.array(z.string()).openapi({ description: "WeChat tag ids (see the account's `tags`)" }),
  boundPersonType: z.enum(BOUND_PERSON_TYPES).nullable(),
  boundPersonId: z.string().nullable(),
  boundPersonName: z.string().nullable(),
  boundAt: z.string().nullable(),
  lastInteractionAt: z.string().nullable(),
}).openapi('Follower');
export type Follower = z.infer<typeof Follower>;

/** Followers are made by a sync, never by hand: the generic create and update take nothing. */
const Unwritable = requestBody('NoFollowerFields', {});
const UnwritableUpdate = requestBody('NoFollowerUpdate', { version: Version });

export const BindFollower = requestBody('BindFollower', {
  personType: z.enum(BOUND_PERSON_TYPES),
  personId: refBy('personType', { trainee: 'trainee', staff: 'staff', doctor: 'doctor' }).openapi({
    description: 'The trainee, staff member or doctor (not the person) of the tenant',
  }),
  version: Version,
});
export type BindFollower = z.infer<typeof BindFollower>;
export const UnbindFollower = requestBody('UnbindFollower', { version: Version });
export const FollowerRemark = requestBody('FollowerRemark', {
  remark: z.string().trim().max(30).openapi({ description: 'Empty clears it (WeChat keeps up to 30 characters)' }),
  version: Version,
});
export type FollowerRemark = z.infer<typeof FollowerRemark>;
export const TagFollowers = requestBody('TagFollowers', {
  accountId: ref('wechat_account'),
  ids: z.array(Id).min(1).max(500).openapi({ description: 'Followers of that account' }),
  tagId: notRef(z.number().int().min(1).max(2_147_483_647)).openapi({
    description: "One of the account's WeChat tags",
  }),
  mode: z.enum(['add', 'remove']),
});
export type TagFollowers = z.infer<typeof TagFollowers>;
export const TagResult = z.object({ updated: z.number().int() }).openapi('FollowerTagResult');

const bound = (type: string, table: string) =>
  sql`WHEN ${sql.lit(type)} THEN (SELECT p.name FROM ${sql.table(table)} x JOIN person p ON p.id = x.person_id
    WHERE x.id = follower.bound_person_id)`;

export const followerResource = defineResource({
  path: 'message/follower',
  permission: 'message:follower',
  labels: 'message.follower',
  schemas: { row: Follower, create: Unwritable, update: UnwritableUpdate },
  table: {
    name: 'follower',
    columns: columnsOf(Follower, { except: ['accountName', 'tagIds', 'boundPersonName'] }),
    writeOnly: { tagIdValues: 'tag_ids' },
    tenantOwned: true,
    audited: true,
    computed: {
      accountName: sql`(SELECT a.name FROM wechat_account a WHERE a.id = follower.wechat_account_id)`,
      tagIds: sql`follower.tag_ids::text[]`,
      boundPersonName: sql`(CASE follower.bound_person_type ${sql.join(
        [bound('trainee', 'trainee'), bound('staff', 'staff'), bound('doctor', 'doctor')],
        sql` `,
      )} END)`,
    },
  },
  list: {
    sort: ['nickname', 'subscribeTime', 'boundAt', 'createdAt'],
    defaultSort: '-subscribeTime',
    filters: {
      keyword: { kind: 'keyword', columns: ['nickname', 'remark', 'openid'] },
      wechatAccountId: { kind: 'eq', column: 'wechat_account_id', pattern: /^[1-9]\d{0,18}$/ },
      subscribeStatus: { kind: 'in', column: 'subscribe_status', values: SUBSCRIBE_STATUSES },
      boundPersonType: { kind: 'in', column: 'bound_person_type', values: BOUND_PERSON_TYPES },
      bound: { kind: 'eq', values: ['true', 'false'] },
      tagId: { kind: 'eq', pattern: /^[1-9]\d{0,9}$/ },
    },
  },
  label: (row) => `${row.nickname ?? ''} (${row.openid})`,
  columns: [
    { key: 'accountName' },
    { key: 'openid' },
    { key: 'nickname' },
    { key: 'remark' },
    { key: 'subscribeStatus' },
    { key: 'subscribeTime' },
    { key: 'unsubscribeTime' },
    { key: 'province' },
    { key: 'city' },
    { key: 'boundPersonType' },
    { key: 'boundPersonName' },
    { key: 'boundAt' },
  ],
});
