import { defineResource } from '../../../core/resource/define-resource';
import { adminUserList } from './admin.repository';
import { AdminUser, AdminUserImportRow, CreateAdminUser, UpdateAdminUser } from './admin.schema';

export const adminUserResource = defineResource({
  path: 'system/admin',
  type: 'admin_user',
  permission: 'system:admin',
  schemas: { row: AdminUser, create: CreateAdminUser, update: UpdateAdminUser, importRow: AdminUserImportRow },
  list: adminUserList,
  importKey: 'userName',
  columns: [
    { key: 'userName', example: 'zhangsan' },
    { key: 'displayName', example: '张三' },
    { key: 'mobile', example: '13800000000' },
    { key: 'email', example: 'zhangsan@example.com' },
    {
      key: 'roles',
      label: 'system.admin.roleCodes',
      cell: (row) => row.roles.map((r) => r.code).join(','),
      example: 'viewer',
    },
    { key: 'status', only: 'export' },
    { key: 'lastLoginAt', only: 'export' },
    { key: 'createdAt', only: 'export' },
    { key: 'remark', example: '' },
    {
      key: 'password',
      only: 'import',
      example: 'Welcome2026',
    },
  ],
});
