import { defineResource } from '../../../core/resource/define-resource';
import { tenantList } from './tenant.repository';
import { CreateTenant, Tenant, TenantImportRow, UpdateTenant } from './tenant.schema';

export const tenantResource = defineResource({
  path: 'system/tenant',
  type: 'tenant',
  permission: 'system:tenant',
  schemas: { row: Tenant, create: CreateTenant, update: UpdateTenant, importRow: TenantImportRow },
  list: tenantList,
  importKey: 'code',
  columns: [
    { key: 'code', example: 'renji' },
    { key: 'name', example: '仁济医院' },
    { key: 'packageName', label: 'system.tenant.package', example: '标准套餐' },
    { key: 'status', only: 'export' },
    { key: 'maxAccounts', example: '100' },
    { key: 'accountCount', only: 'export' },
    { key: 'expiresAt', example: '2027-12-31' },
    { key: 'contactName', example: '王主任' },
    { key: 'contactMobile', example: '13800000000' },
    {
      key: 'adminUserName',
      only: 'import',
      example: 'admin',
    },
    {
      key: 'adminDisplayName',
      only: 'import',
      example: '管理员',
    },
    {
      key: 'adminPassword',
      only: 'import',
      example: 'Welcome2026',
    },
    { key: 'createdAt', only: 'export' },
  ],
});
