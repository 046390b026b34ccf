import type { CreateOauthClient, OauthClient, UpdateOauthClient } from '@server/modules/system/client/client.schema';
import { Space, Tag } from 'antd';
import { describeResource } from '@/components/resource/types';

export type { CreateOauthClient, OauthClient, UpdateOauthClient };

const tags = (values: string[] | null | undefined) =>
  values?.length ? (
    <Space size={[0, 4]} wrap>
      {values.map((v) => (
        <Tag key={v}>{v}</Tag>
      ))}
    </Space>
  ) : (
    '-'
  );
const tagInput = {
  valueType: 'select' as const,
  hideInSearch: true,
  fieldProps: { mode: 'tags', open: false, tokenSeparators: [' ', ','] },
};
// initial values of the create form only: as column initialValues they would also filter the search
export const clientDefaults: Partial<CreateOauthClient> = {
  clientType: 'confidential',
  grantTypes: ['authorization_code', 'refresh_token'],
  accessTokenTtlSec: 1800,
  refreshTokenTtlSec: 2_592_000,
  status: 'enabled',
};

/** The fields an edit may change besides the name; a create also sets the client id and type. */
const editable: (keyof CreateOauthClient & keyof UpdateOauthClient & string)[] = [
  'grantTypes',
  'redirectUris',
  'scopes',
  'accessTokenTtlSec',
  'refreshTokenTtlSec',
  'status',
  'description',
];

/** OAuth clients (docs/domain.md §2.5): /system/client, prefix system:client; the secret is shown once. */
export const clientDescriptor = describeResource<OauthClient, CreateOauthClient, UpdateOauthClient>(
  'system/client',
  (column) => ({
    auditType: 'oauth_client',
    formLayout: 'DrawerForm',
    recordName: (row) => row.name,
    profile: (row) => `/system/client/${row.id}/profile`,
    form: { create: ['clientId', 'name', 'clientType', ...editable], update: ['name', ...editable] },
    columns: [
      column('keyword', { searchOnly: true }),
      column('clientId', { hideInSearch: true, sorter: true, required: true }),
      column('name', { hideInSearch: true, sorter: true, required: true }),
      column('clientType', { valueType: 'radio', dict: 'client_type', required: true }),
      column('grantTypes', {
        valueType: 'checkbox',
        hideInSearch: true,
        dict: 'grant_type',
        formItemProps: { rules: [{ required: true, type: 'array' }] },
      }),
      column('redirectUris', { ...tagInput, hideInTable: true, render: (_dom, row) => tags(row.redirectUris) }),
      column('scopes', { ...tagInput, render: (_dom, row) => tags(row.scopes) }),
      column('accessTokenTtlSec', {
        valueType: 'digit',
        hideInSearch: true,
        fieldProps: { min: 60, max: 86_400, precision: 0 },
        required: true,
      }),
      column('refreshTokenTtlSec', {
        valueType: 'digit',
        hideInSearch: true,
        fieldProps: { min: 300, max: 31_536_000, precision: 0 },
        required: true,
      }),
      column('status', { dict: 'common_status', required: true }),
      column('description', { valueType: 'textarea', hideInSearch: true, hideInTable: true }),
      column('createdAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
    ],
  }),
);
