import type { CreateRole, Role, UpdateRole } from '@server/modules/system/role/role.schema';
import type { ResourceDescriptor } from '@/components/resource/types';

export type { CreateRole, Role, UpdateRole };

/** Roles of the tenant (docs/domain.md §2.3): /system/role, prefix system:role. A system role is not deleted and keeps its code. */
export const roleDescriptor: ResourceDescriptor<Role, CreateRole, UpdateRole> = {
  resource: 'system/role',
  auditType: 'role',
  permission: 'system:role',
  titleId: 'system.role.entity',
  allows: (row, action) => action === 'update' || row.type !== 'system',
  lockReasonId: 'system.role.locked',
  form: { create: ['code', 'name', 'sort', 'status', 'remark'], update: ['code', 'name', 'sort', 'status', 'remark'] },
  columns: [
    { dataIndex: 'keyword', titleId: 'system.role.keyword', searchOnly: true },
    {
      dataIndex: 'code',
      titleId: 'system.role.code',
      hideInSearch: true,
      sorter: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'name',
      titleId: 'system.role.name',
      hideInSearch: true,
      sorter: true,
      formItemProps: { rules: [{ required: true }] },
    },
    { dataIndex: 'type', titleId: 'system.role.type', valueType: 'select', dict: 'role_type', hideInForm: true },
    {
      dataIndex: 'dataScope',
      titleId: 'system.role.dataScope',
      dict: 'data_scope',
      hideInForm: true,
      hideInSearch: true,
    },
    {
      dataIndex: 'sort',
      titleId: 'system.role.sort',
      valueType: 'digit',
      hideInSearch: true,
      sorter: true,
      initialValue: 0,
      fieldProps: { min: 0, max: 99999, precision: 0 },
    },
    {
      dataIndex: 'status',
      titleId: 'system.role.status',
      dict: 'common_status',
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'remark',
      titleId: 'system.role.remark',
      valueType: 'textarea',
      hideInSearch: true,
      hideInTable: true,
    },
    {
      dataIndex: 'createdAt',
      titleId: 'system.role.createdAt',
      valueType: 'dateTime',
      hideInSearch: true,
      hideInForm: true,
      sorter: true,
    },
  ],
};
