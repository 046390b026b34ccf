import type { ResourceDefinition } from '../../../core/resource/resource';
import { tenantList } from './tenant.repository';
import { CreateTenant, Tenant, TenantImportRow, UpdateTenant } from './tenant.schema';

export const tenantResource: ResourceDefinition<Tenant, CreateTenant, UpdateTenant> = {
  path: 'system/tenant',
  type: 'tenant',
  permission: 'system:tenant',
  schemas: { row: Tenant, create: CreateTenant, update: UpdateTenant, importRow: TenantImportRow },
  list: tenantList,
  importKey: 'code',
  label: (row) => row.code,
  columns: [
    { key: 'code', label: { 'zh-CN': '租户编码', 'en-US': 'Code' }, example: 'renji' },
    { key: 'name', label: { 'zh-CN': '租户名称', 'en-US': 'Name' }, example: '仁济医院' },
    { key: 'packageName', label: { 'zh-CN': '套餐', 'en-US': 'Package' }, example: '标准套餐' },
    { key: 'status', label: { 'zh-CN': '状态', 'en-US': 'Status' }, only: 'export' },
    { key: 'maxAccounts', label: { 'zh-CN': '账号上限', 'en-US': 'Account quota' }, example: '100' },
    { key: 'accountCount', label: { 'zh-CN': '账号数', 'en-US': 'Accounts' }, only: 'export' },
    { key: 'expiresAt', label: { 'zh-CN': '到期时间', 'en-US': 'Expires at' }, example: '2027-12-31' },
    { key: 'contactName', label: { 'zh-CN': '联系人', 'en-US': 'Contact' }, example: '王主任' },
    { key: 'contactMobile', label: { 'zh-CN': '联系电话', 'en-US': 'Contact mobile' }, example: '13800000000' },
    {
      key: 'adminUserName',
      label: { 'zh-CN': '管理员账号', 'en-US': 'Administrator user name' },
      only: 'import',
      example: 'admin',
    },
    {
      key: 'adminDisplayName',
      label: { 'zh-CN': '管理员姓名', 'en-US': 'Administrator name' },
      only: 'import',
      example: '管理员',
    },
    {
      key: 'adminPassword',
      label: { 'zh-CN': '管理员初始密码', 'en-US': 'Administrator initial password' },
      only: 'import',
      example: 'Welcome2026',
    },
    { key: 'createdAt', label: { 'zh-CN': '创建时间', 'en-US': 'Created at' }, only: 'export' },
  ],
};
