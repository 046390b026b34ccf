import type { ResourceDefinition } from '../../../core/resource/resource';
import { oauthClientList } from './client.repository';
import { CreateOauthClient, OauthClient, UpdateOauthClient } from './client.schema';

const list = (values: string[] | null) => (values ? values.join(',') : '');

/** No import: a confidential client's secret could not be shown to anyone. */
export const oauthClientResource: ResourceDefinition<OauthClient, CreateOauthClient, UpdateOauthClient> = {
  path: 'system/client',
  type: 'oauth_client',
  permission: 'system:client',
  schemas: { row: OauthClient, create: CreateOauthClient, update: UpdateOauthClient },
  list: oauthClientList,
  label: (row) => row.clientId,
  columns: [
    { key: 'clientId', label: { 'zh-CN': '客户端标识', 'en-US': 'Client id' } },
    { key: 'name', label: { 'zh-CN': '名称', 'en-US': 'Name' } },
    { key: 'clientType', label: { 'zh-CN': '类型', 'en-US': 'Type' } },
    { key: 'grantTypes', label: { 'zh-CN': '授权方式', 'en-US': 'Grant types' }, cell: (row) => list(row.grantTypes) },
    {
      key: 'redirectUris',
      label: { 'zh-CN': '回调地址', 'en-US': 'Redirect URIs' },
      cell: (row) => list(row.redirectUris),
    },
    { key: 'scopes', label: { 'zh-CN': '授权范围', 'en-US': 'Scopes' }, cell: (row) => list(row.scopes) },
    { key: 'accessTokenTtlSec', label: { 'zh-CN': '访问令牌有效期（秒）', 'en-US': 'Access token TTL (s)' } },
    { key: 'refreshTokenTtlSec', label: { 'zh-CN': '刷新令牌有效期（秒）', 'en-US': 'Refresh token TTL (s)' } },
    { key: 'status', label: { 'zh-CN': '状态', 'en-US': 'Status' } },
    { key: 'createdAt', label: { 'zh-CN': '创建时间', 'en-US': 'Created at' } },
  ],
};
