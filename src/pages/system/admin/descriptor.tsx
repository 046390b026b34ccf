import type { AdminUser, CreateAdminUser, UpdateAdminUser } from '@server/modules/system/admin/admin.schema';
import { Space, Tag } from 'antd';
import { lazy, Suspense } from 'react';
import PasswordStrengthInput from '@/components/password/LazyPasswordStrengthInput';
import { describeResource } from '@/components/resource/types';

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
// the tree picker is the form's, not the list's first download
const OrganizationPicker = lazy(() => import('@/pages/people/organization/OrganizationPicker'));

export const adminUserDescriptor = describeResource<AdminUser, CreateAdminUser, UpdateAdminUser>(
  'system/admin',
  (column) => ({
    auditType: 'admin_user',
    recordName: (row) => row.displayName || row.userName,
    profile: (row) => `/system/admin/${row.id}/profile`,
    form: {
      create: ['userName', 'displayName', 'password', 'mobile', 'email', 'orgId', 'remark'],
      update: ['displayName', 'mobile', 'email', 'orgId', 'remark'],
    },
    columns: [
      column('keyword', { searchOnly: true }),
      column('userName', { hideInSearch: true, sorter: true, required: true }),
      column('displayName', { hideInSearch: true, sorter: true, required: true }),
      column('password', {
        valueType: 'password',
        hideInTable: true,
        hideInSearch: true,
        hideInDescriptions: true,
        required: true,
        renderFormItem: (schema, _config, form) => (
          <PasswordStrengthInput
            {...(schema.fieldProps as object)}
            userInputs={[form?.getFieldValue('userName') ?? '']}
          />
        ),
      }),
      column('mobile', { hideInSearch: true }),
      column('email', { hideInSearch: true }),
      column('orgId', {
        hideInTable: true,
        hideInSearch: true,
        hideInDescriptions: true,
        // the organisation its roles' data scope reads ("own organisation", "and below")
        renderFormItem: (schema) => (
          <Suspense fallback={null}>
            <OrganizationPicker {...(schema.fieldProps as object)} />
          </Suspense>
        ),
      }),
      column('status', { dict: 'admin_user_status', hideInForm: true }),
      column('roles', { hideInSearch: true, hideInForm: true, render: roleTags }),
      column('lastLoginAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
      column('createdAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
      column('createdAt', { key: 'createdAtRange', valueType: 'dateRange', searchOnly: true }),
      column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
    ],
  }),
);
