import type { ResourceDefinition } from '../../../core/resource/resource';
import { adminUserList } from './admin.repository';
import { AdminUser, AdminUserImportRow, CreateAdminUser, UpdateAdminUser } from './admin.schema';

export const adminUserResource: ResourceDefinition<AdminUser, CreateAdminUser, UpdateAdminUser> = {
  path: 'system/admin',
  type: 'admin_user',
  permission: 'system:admin',
  schemas: { row: AdminUser, create: CreateAdminUser, update: UpdateAdminUser, importRow: AdminUserImportRow },
  list: adminUserList,
  importKey: 'userName',
  label: (row) => row.userName,
  columns: [
    { key: 'userName', label: { 'zh-CN': '用户名', 'en-US': 'Username' }, example: 'zhangsan' },
    { key: 'displayName', label: { 'zh-CN': '姓名', 'en-US': 'Display name' }, example: '张三' },
    { key: 'mobile', label: { 'zh-CN': '手机号', 'en-US': 'Mobile' }, example: '13800000000' },
    { key: 'email', label: { 'zh-CN': '邮箱', 'en-US': 'Email' }, example: 'zhangsan@example.com' },
    {
      key: 'roles',
      label: { 'zh-CN': '角色编码', 'en-US': 'Role codes' },
      cell: (row) => row.roles.map((r) => r.code).join(','),
      example: 'viewer',
    },
    { key: 'status', label: { 'zh-CN': '状态', 'en-US': 'Status' }, only: 'export' },
    { key: 'lastLoginAt', label: { 'zh-CN': '最近登录', 'en-US': 'Last sign-in' }, only: 'export' },
    { key: 'createdAt', label: { 'zh-CN': '创建时间', 'en-US': 'Created at' }, only: 'export' },
    { key: 'remark', label: { 'zh-CN': '备注', 'en-US': 'Remark' }, example: '' },
    {
      key: 'password',
      label: { 'zh-CN': '初始密码', 'en-US': 'Initial password' },
      only: 'import',
      example: 'Welcome2026',
    },
  ],
};
