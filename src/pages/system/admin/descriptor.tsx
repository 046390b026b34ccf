import type { AdminUser, CreateAdminUser, UpdateAdminUser } from '@server/modules/system/admin/admin.schema';
import { Space, Tag } from 'antd';
import PasswordStrengthInput from '@/components/password/PasswordStrengthInput';
import type { ResourceDescriptor } from '@/components/resource/types';

export type { AdminUser, CreateAdminUser, UpdateAdminUser };

const roleTags = (_dom: unknown, row: AdminUser) =>
  row.roles?.length ? (
    <Space size={[0, 4]} wrap>
      {row.roles.map((role) => (
        <Tag key={role.id}>{role.name}</Tag>
      ))}
    </Space>
  ) : (
    '-'
  );

/** Console accounts (docs/domain.md §2.4): /system/admin, permission prefix system:admin. */
export const adminUserDescriptor: ResourceDescriptor<AdminUser, CreateAdminUser, UpdateAdminUser> = {
  resource: 'system/admin',
  auditType: 'admin_user',
  permission: 'system:admin',
  titleId: 'system.admin.entity',
  recordName: (row) => row.displayName || row.userName,
  profile: (row) => `/system/admin/${row.id}/profile`,
  form: {
    create: ['userName', 'displayName', 'password', 'mobile', 'email', 'remark'],
    update: ['displayName', 'mobile', 'email', 'remark'],
  },
  columns: [
    { dataIndex: 'keyword', titleId: 'system.admin.keyword', searchOnly: true },
    {
      dataIndex: 'userName',
      titleId: 'system.admin.userName',
      hideInSearch: true,
      sorter: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'displayName',
      titleId: 'system.admin.displayName',
      hideInSearch: true,
      sorter: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'password',
      titleId: 'system.admin.password',
      valueType: 'password',
      hideInTable: true,
      hideInSearch: true,
      hideInDescriptions: true,
      formItemProps: { rules: [{ required: true }] },
      renderFormItem: (schema, _config, form) => (
        <PasswordStrengthInput
          {...(schema.fieldProps as object)}
          userInputs={[form?.getFieldValue('userName') ?? '']}
        />
      ),
    },
    {
      dataIndex: 'mobile',
      titleId: 'system.admin.mobile',
      hideInSearch: true,
    },
    {
      dataIndex: 'email',
      titleId: 'system.admin.email',
      hideInSearch: true,
    },
    { dataIndex: 'status', titleId: 'system.admin.status', dict: 'admin_user_status', hideInForm: true },
    { dataIndex: 'roles', titleId: 'system.admin.roles', hideInSearch: true, hideInForm: true, render: roleTags },
    {
      dataIndex: 'lastLoginAt',
      titleId: 'system.admin.lastLoginAt',
      valueType: 'dateTime',
      hideInSearch: true,
      hideInForm: true,
      sorter: true,
    },
    {
      dataIndex: 'createdAt',
      titleId: 'system.admin.createdAt',
      valueType: 'dateTime',
      hideInSearch: true,
      hideInForm: true,
      sorter: true,
    },
    {
      dataIndex: 'createdAt',
      key: 'createdAtRange',
      titleId: 'system.admin.createdAt',
      valueType: 'dateRange',
      searchOnly: true,
    },
    {
      dataIndex: 'remark',
      titleId: 'system.admin.remark',
      valueType: 'textarea',
      hideInTable: true,
      hideInSearch: true,
    },
  ],
};
