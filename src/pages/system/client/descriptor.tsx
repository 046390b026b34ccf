import type { CreateOauthClient, OauthClient, UpdateOauthClient } from '@server/modules/system/client/client.schema';
import { Space, Tag } from 'antd';
import type { ResourceDescriptor } from '@/components/resource/types';

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

/** OAuth clients (docs/domain.md §2.5): /system/client, prefix system:client; the secret is shown once. */
export const clientDescriptor: ResourceDescriptor<OauthClient, CreateOauthClient, UpdateOauthClient> = {
  resource: 'system/client',
  auditType: 'oauth_client',
  permission: 'system:client',
  titleId: 'system.client.entity',
  formLayout: 'DrawerForm',
  recordName: (row) => row.name,
  profile: (row) => `/system/client/${row.id}/profile`,
  form: {
    create: [
      'clientId',
      'name',
      'clientType',
      'grantTypes',
      'redirectUris',
      'scopes',
      'accessTokenTtlSec',
      'refreshTokenTtlSec',
      'status',
      'description',
    ],
    update: [
      'name',
      'grantTypes',
      'redirectUris',
      'scopes',
      'accessTokenTtlSec',
      'refreshTokenTtlSec',
      'status',
      'description',
    ],
  },
  columns: [
    { dataIndex: 'keyword', titleId: 'system.client.keyword', searchOnly: true },
    {
      dataIndex: 'clientId',
      titleId: 'system.client.clientId',
      hideInSearch: true,
      sorter: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'name',
      titleId: 'system.client.name',
      hideInSearch: true,
      sorter: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'clientType',
      titleId: 'system.client.clientType',
      valueType: 'radio',
      dict: 'client_type',
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'grantTypes',
      titleId: 'system.client.grantTypes',
      valueType: 'checkbox',
      hideInSearch: true,
      dict: 'grant_type',
      formItemProps: { rules: [{ required: true, type: 'array' }] },
    },
    {
      dataIndex: 'redirectUris',
      titleId: 'system.client.redirectUris',
      ...tagInput,
      hideInTable: true,
      render: (_dom, row) => tags(row.redirectUris),
    },
    {
      dataIndex: 'scopes',
      titleId: 'system.client.scopes',
      ...tagInput,
      render: (_dom, row) => tags(row.scopes),
    },
    {
      dataIndex: 'accessTokenTtlSec',
      titleId: 'system.client.accessTokenTtlSec',
      valueType: 'digit',
      hideInSearch: true,
      fieldProps: { min: 60, max: 86_400, precision: 0 },
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'refreshTokenTtlSec',
      titleId: 'system.client.refreshTokenTtlSec',
      valueType: 'digit',
      hideInSearch: true,
      fieldProps: { min: 300, max: 31_536_000, precision: 0 },
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'status',
      titleId: 'system.client.status',
      dict: 'common_status',
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'description',
      titleId: 'system.client.description',
      valueType: 'textarea',
      hideInSearch: true,
      hideInTable: true,
    },
    {
      dataIndex: 'createdAt',
      titleId: 'system.client.createdAt',
      valueType: 'dateTime',
      hideInSearch: true,
      hideInForm: true,
      sorter: true,
    },
  ],
};
