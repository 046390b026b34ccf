import { defineResource } from '../../../core/resource/define-resource';
import { oauthClientList } from './client.repository';
import { CreateOauthClient, OauthClient, UpdateOauthClient } from './client.schema';

const list = (values: string[] | null) => (values ? values.join(',') : '');

/** No import: a confidential client's secret could not be shown to anyone. */
export const oauthClientResource = defineResource({
  path: 'system/client',
  type: 'oauth_client',
  permission: 'system:client',
  schemas: { row: OauthClient, create: CreateOauthClient, update: UpdateOauthClient },
  list: oauthClientList,
  label: (row) => row.clientId,
  columns: [
    { key: 'clientId' },
    { key: 'name' },
    { key: 'clientType' },
    { key: 'grantTypes', cell: (row) => list(row.grantTypes) },
    {
      key: 'redirectUris',
      cell: (row) => list(row.redirectUris),
    },
    { key: 'scopes', cell: (row) => list(row.scopes) },
    { key: 'accessTokenTtlSec' },
    { key: 'refreshTokenTtlSec' },
    { key: 'status' },
    { key: 'createdAt' },
  ],
});
