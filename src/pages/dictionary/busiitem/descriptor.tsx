import type {
  BusinessItem,
  BusinessItemVariable,
  CreateBusinessItem,
  UpdateBusinessItem,
} from '@server/modules/dictionary/busiitem/busiitem.schema';
import { Space, Tag, Tooltip } from 'antd';
import type { ResourceDescriptor } from '@/components/resource/types';
import VariablesEditor, { validateVariables } from './VariablesEditor';

export type { BusinessItem, BusinessItemVariable, CreateBusinessItem, UpdateBusinessItem };

/** Business items (docs/domain.md §3.4): events that notify, are audited and own error codes. */
export const businessItemDescriptor: ResourceDescriptor<BusinessItem, CreateBusinessItem, UpdateBusinessItem> = {
  resource: 'dictionary/busiitem',
  auditType: 'business_item',
  permission: 'dictionary:busiitem',
  platformOwned: true,
  titleId: 'dictionary.busiitem.entity',
  formLayout: 'DrawerForm',
  form: {
    create: [
      'code',
      'name',
      'nameEn',
      'module',
      'description',
      'notifiable',
      'variables',
      'defaultChannels',
      'defaultTemplateCode',
      'auditLevel',
      'status',
    ],
    update: [
      'name',
      'nameEn',
      'module',
      'description',
      'notifiable',
      'variables',
      'defaultChannels',
      'defaultTemplateCode',
      'auditLevel',
      'status',
    ],
  },
  columns: [
    { dataIndex: 'keyword', titleId: 'dictionary.keyword', searchOnly: true },
    {
      dataIndex: 'code',
      titleId: 'dictionary.busiitem.code',
      sorter: true,
      hideInSearch: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'name',
      titleId: 'dictionary.busiitem.name',
      sorter: true,
      hideInSearch: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'nameEn',
      titleId: 'dictionary.busiitem.nameEn',
      hideInTable: true,
      hideInSearch: true,
    },
    {
      dataIndex: 'module',
      titleId: 'dictionary.module',
      sorter: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'description',
      titleId: 'dictionary.busiitem.description',
      valueType: 'textarea',
      hideInSearch: true,
      ellipsis: true,
    },
    {
      dataIndex: 'notifiable',
      titleId: 'dictionary.busiitem.notifiable',
      dict: 'yes_no',
      valueType: 'switch',
      hideInSearch: true,
    },
    {
      dataIndex: 'variables',
      titleId: 'dictionary.busiitem.variables',
      hideInSearch: true,
      render: (_dom, row) =>
        row.variables.length ? (
          <Space size={[0, 4]} wrap>
            {row.variables.map((v) => (
              <Tooltip key={v.name} title={v.example ? `${v.label}: ${v.example}` : v.label}>
                <Tag>{`{${v.name}}`}</Tag>
              </Tooltip>
            ))}
          </Space>
        ) : (
          '-'
        ),
      renderFormItem: () => <VariablesEditor />,
      formItemProps: { rules: [{ validator: validateVariables }] },
    },
    {
      dataIndex: 'defaultChannels',
      titleId: 'dictionary.busiitem.defaultChannels',
      valueType: 'checkbox',
      hideInSearch: true,
      options: [
        { value: 'in_app', labelId: 'dictionary.busiitem.channel.in_app', color: 'blue' },
        { value: 'wechat_mp', labelId: 'dictionary.busiitem.channel.wechat_mp', color: 'green' },
        { value: 'sms', labelId: 'dictionary.busiitem.channel.sms', color: 'orange' },
        { value: 'email', labelId: 'dictionary.busiitem.channel.email', color: 'purple' },
      ],
    },
    {
      dataIndex: 'defaultTemplateCode',
      titleId: 'dictionary.busiitem.defaultTemplateCode',
      hideInTable: true,
      hideInSearch: true,
    },
    {
      dataIndex: 'auditLevel',
      titleId: 'dictionary.busiitem.auditLevel',
      hideInSearch: true,
      options: [
        { value: 'none', labelId: 'dictionary.busiitem.auditLevel.none', color: 'default' },
        { value: 'normal', labelId: 'dictionary.busiitem.auditLevel.normal', color: 'processing' },
        { value: 'sensitive', labelId: 'dictionary.busiitem.auditLevel.sensitive', color: 'error' },
      ],
    },
    {
      dataIndex: 'status',
      titleId: 'dictionary.status',
      dict: 'common_status',
      formItemProps: { rules: [{ required: true }] },
    },
  ],
};
