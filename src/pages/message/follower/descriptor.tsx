import type { Follower, TagFollowers } from '@server/modules/message/follower/follower.resource';
import type { SyncReport } from '@server/modules/message/wechat/wechat-account.resource';
import { FormattedMessage } from '@umijs/max';
import { Avatar, Space, Tag } from 'antd';
import type { PermissionCode } from '@/access';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import request, { type Options } from '@/utils/request';
import { accountChoices, wechatAccounts } from './accounts';

export type { Follower, SyncReport };

export const followers = resourceService<Follower, never, never>('message/follower');

export const syncFollowers = (accountId: string, mode: 'full' | 'incremental') =>
  wechatAccounts.action<SyncReport>(accountId, 'sync', { mode });
export const bindFollower = (row: Follower, person: { personType: string; personId: string }, options?: Options) =>
  followers.action<Follower>(row.id, 'bind', { ...person, version: row.version }, options);
export const unbindFollower = (row: Follower) => followers.action<Follower>(row.id, 'unbind', { version: row.version });
export const remarkFollower = (row: Follower, remark: string, options?: Options) =>
  followers.action<Follower>(row.id, 'remark', { remark, version: row.version }, options);
export const tagFollowers = (body: TagFollowers, options?: Options) =>
  request.post<{ updated: number }>('/api/message/follower/tag', { ...options, data: body });

/** Every account's tags by id, as WeChat last answered them. */
export const tagNames = async () =>
  new Map((await accountChoices()).flatMap((a) => a.tags.map((t) => [String(t.id), t.name] as const)));

const SUBSCRIBE: Follower['subscribeStatus'][] = ['subscribed', 'unsubscribed'];
const PERSON_TYPES = ['trainee', 'staff', 'doctor'] as const;
/** Followers come from WeChat: create and edit name a code nobody holds, so they are never offered. */
const NOBODY = 'message:follower:never' as PermissionCode;

/**
 * Followers (docs/domain.md §6.3): /message/followers, API message/follower, permission prefix message:follower.
 * Read from WeChat by a sync of their account; bound to a trainee, staff member or doctor; tags and remark on WeChat.
 */
export const followerDescriptor = (names: Map<string, string>) =>
  describeResource<Follower, never, never>(
    'message/follower',
    (column) => ({
      auditType: 'follower',
      recordName: (row) => row.nickname ?? row.openid,
      actions: { create: NOBODY, update: NOBODY, import: NOBODY },
      form: { create: [], update: [] },
      columns: [
        column('keyword', { searchOnly: true }),
        column('wechatAccountId', {
          valueType: 'select',
          searchOnly: true,
          request: accountChoices,
        }),
        column('nickname', {
          hideInSearch: true,
          sorter: true,
          render: (_dom, row) => (
            <Space>
              <Avatar size="small" src={row.avatarUrl ?? undefined} />
              {row.nickname ?? '-'}
            </Space>
          ),
        }),
        column('openid', { hideInSearch: true, copyable: true }),
        column('accountName', { hideInSearch: true }),
        // the row's state, kept beside its actions in the list
        column('subscribeStatus', {
          fixed: 'right',
          options: SUBSCRIBE.map((value) => ({
            value,
            labelId: `message.follower.subscribeStatus.${value}`,
            color: value === 'subscribed' ? 'success' : 'default',
          })),
        }),
        column('tagIds', {
          hideInSearch: true,
          render: (_dom, row) => row.tagIds.map((id) => <Tag key={id}>{names.get(id) ?? id}</Tag>),
        }),
        column('tagId', {
          valueType: 'select',
          searchOnly: true,
          request: async () => [...names].map(([value, label]) => ({ value, label })),
        }),
        column('remark', { hideInSearch: true }),
        column('bound', {
          searchOnly: true,
          options: ['true', 'false'].map((value) => ({ value, labelId: `message.follower.bound.${value}` })),
        }),
        column('boundPersonType', {
          hideInTable: true,
          options: PERSON_TYPES.map((value) => ({ value, labelId: `message.follower.boundPersonType.${value}` })),
        }),
        column('boundPersonName', {
          hideInSearch: true,
          render: (_dom, row) =>
            row.boundPersonType ? (
              <Space size={4}>
                <Tag color="blue">
                  <FormattedMessage id={`message.follower.boundPersonType.${row.boundPersonType}`} />
                </Tag>
                {row.boundPersonName}
              </Space>
            ) : (
              '-'
            ),
        }),
        column('province', { hideInSearch: true, hideInTable: true }),
        column('city', { hideInSearch: true, hideInTable: true }),
        column('subscribeTime', { valueType: 'dateTime', hideInSearch: true, sorter: true }),
        column('unsubscribeTime', { valueType: 'dateTime', hideInSearch: true, hideInTable: true }),
        column('boundAt', { valueType: 'dateTime', hideInSearch: true, hideInTable: true, sorter: true }),
      ],
    }),
    { resource: 'message/follower', titles: 'message.follower' },
  );

export const PERSONS = PERSON_TYPES;
