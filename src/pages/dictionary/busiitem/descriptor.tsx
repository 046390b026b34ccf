import type {
  BusinessItem,
  BusinessItemVariable,
  CreateBusinessItem,
  UpdateBusinessItem,
} from '@server/modules/dictionary/busiitem/busiitem.schema';
import { Space, Tag, Tooltip } from 'antd';
import { describeResource } from '@/components/resource/types';
import VariablesEditor, { validateVariables } from './VariablesEditor';

export type { BusinessItem, BusinessItemVariable, CreateBusinessItem, UpdateBusinessItem };

/** The fields an edit may change; a create also sets the code. */
const editable: (keyof CreateBusinessItem & keyof UpdateBusinessItem & string)[] = [
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
];

/** The modules a business item belongs to, each with its label (dictionary.busiitem.module.*). */
const MODULES = [
  'system',
  'dictionary',
  'people',
  'trainee',
  'expert',
  'qualification',
  'teaching',
  'course',
  'assess',
  'paper',
  'content',
  'community',
  'message',
  'file',
] as const;

/** Business items (docs/domain.md §3.4): events that notify, are audited and own error codes. */
export const businessItemDescriptor = describeResource<BusinessItem, CreateBusinessItem, UpdateBusinessItem>(
  'dictionary/busiitem',
  (column) => ({
    auditType: 'business_item',
    platformOwned: true,
    formLayout: 'DrawerForm',
    form: { create: ['code', ...editable], update: editable },
    columns: [
      column('keyword', { titleId: 'dictionary.keyword', searchOnly: true }),
      column('code', { sorter: true, hideInSearch: true, required: true }),
      column('name', { sorter: true, hideInSearch: true, required: true }),
      column('nameEn', { hideInTable: true, hideInSearch: true }),
      column('module', {
        titleId: 'dictionary.module',
        sorter: true,
        required: true,
        options: MODULES.map((value) => ({ value, labelId: `dictionary.busiitem.module.${value}` })),
      }),
      column('description', { valueType: 'textarea', hideInSearch: true, ellipsis: true }),
      column('notifiable', { dict: 'yes_no', valueType: 'switch', hideInSearch: true }),
      column('variables', {
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
      }),
      column('defaultChannels', {
        valueType: 'checkbox',
        hideInSearch: true,
        options: [
          { value: 'in_app', labelId: 'dictionary.busiitem.channel.in_app', color: 'blue' },
          { value: 'wechat_mp', labelId: 'dictionary.busiitem.channel.wechat_mp', color: 'green' },
          { value: 'sms', labelId: 'dictionary.busiitem.channel.sms', color: 'orange' },
          { value: 'email', labelId: 'dictionary.busiitem.channel.email', color: 'purple' },
        ],
      }),
      column('defaultTemplateCode', { hideInTable: true, hideInSearch: true }),
      column('auditLevel', {
        hideInSearch: true,
        options: [
          { value: 'none', labelId: 'dictionary.busiitem.auditLevel.none', color: 'default' },
          { value: 'normal', labelId: 'dictionary.busiitem.auditLevel.normal', color: 'processing' },
          { value: 'sensitive', labelId: 'dictionary.busiitem.auditLevel.sensitive', color: 'error' },
        ],
      }),
      column('status', { titleId: 'dictionary.status', dict: 'common_status', required: true }),
    ],
  }),
);
