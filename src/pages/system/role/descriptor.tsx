import { getIntl } from '@umijs/max';
import { Tag } from 'antd';
import type { ResourceDescriptor } from '@/components/resource/types';
import type { CreateRole, Role, UpdateRole } from '../../../../server/src/modules/role/role.schema';

export type { CreateRole, Role, UpdateRole };
export const DATA_SCOPES: Role['dataScope'][] = ['all', 'org_custom', 'org', 'org_and_children', 'self'];

const label = (id: string) => getIntl().formatMessage({ id });

const typeColor: Record<Role['type'], string> = { system: 'gold', custom: 'blue' };

/** Roles of the tenant (domain.md §2.3): /system/role, prefix system:role. A system role is not deleted and keeps its code. */
export const roleDescriptor: ResourceDescriptor<Role, CreateRole, UpdateRole> = {
  resource: 'roles',
  auditType: 'role',
  permission: 'system:role',
  titleId: 'system.role.entity',
  allows: (row, action) => action === 'update' || row.type !== 'system',
  form: { create: ['code', 'name', 'sort', 'status', 'remark'], update: ['code', 'name', 'sort', 'status', 'remark'] },
  columns: [
    { dataIndex: 'keyword', titleId: 'system.role.keyword', searchOnly: true },
    {
      dataIndex: 'code',
      titleId: 'system.role.code',
      hideInSearch: true,
      sorter: true,
      formItemProps: {
        rules: [{ required: true }, { min: 2, max: 50 }, { pattern: /^[a-z][a-z0-9_-]*$/, message: 'Code: lower-case letters, digits, _ and -, starting with a letter' }],
      },
    },
    { dataIndex: 'name', titleId: 'system.role.name', hideInSearch: true, sorter: true, formItemProps: { rules: [{ required: true }, { max: 50 }] } },
    {
      dataIndex: 'type',
      titleId: 'system.role.type',
      valueType: 'select',
      hideInForm: true,
      request: async () => (['system', 'custom'] as const).map((value) => ({ value, label: label(`system.role.type.${value}`) })),
      render: (_dom, row) => <Tag color={typeColor[row.type]}>{label(`system.role.type.${row.type}`)}</Tag>,
    },
    {
      dataIndex: 'dataScope',
      titleId: 'system.role.dataScope',
      hideInForm: true,
      hideInSearch: true,
      render: (_dom, row) => label(`system.role.dataScope.${row.dataScope}`),
    },
    {
      dataIndex: 'sort',
      titleId: 'system.role.sort',
      valueType: 'digit',
      hideInSearch: true,
      sorter: true,
      initialValue: 0,
      fieldProps: { min: 0, max: 99999, precision: 0 },
      formItemProps: { rules: [{ type: 'number', min: 0, max: 99999 }] },
    },
    { dataIndex: 'status', titleId: 'system.role.status', dict: 'common_status', formItemProps: { rules: [{ required: true }] } },
    { dataIndex: 'remark', titleId: 'system.role.remark', valueType: 'textarea', hideInSearch: true, hideInTable: true, formItemProps: { rules: [{ max: 500 }] } },
    { dataIndex: 'createdAt', titleId: 'system.role.createdAt', valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true },
  ],
};
