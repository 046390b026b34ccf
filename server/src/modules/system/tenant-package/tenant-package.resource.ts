import type { ResourceDefinition } from '../../../core/resource/resource';
import { tenantPackageList } from './tenant-package.repository';
import {
  CreateTenantPackage,
  TenantPackage,
  TenantPackageImportRow,
  UpdateTenantPackage,
} from './tenant-package.schema';

export const tenantPackageResource: ResourceDefinition<TenantPackage, CreateTenantPackage, UpdateTenantPackage> = {
  path: 'system/tenant-package',
  type: 'tenant_package',
  permission: 'system:tenant-package',
  schemas: {
    row: TenantPackage,
    create: CreateTenantPackage,
    update: UpdateTenantPackage,
    importRow: TenantPackageImportRow,
  },
  list: tenantPackageList,
  importKey: 'name',
  label: (row) => row.name,
  columns: [
    { key: 'name', label: { 'zh-CN': '套餐名称', 'en-US': 'Name' }, example: '基础套餐' },
    { key: 'status', label: { 'zh-CN': '状态', 'en-US': 'Status' }, example: 'enabled' },
    { key: 'remark', label: { 'zh-CN': '备注', 'en-US': 'Remark' }, example: '' },
    {
      key: 'permissionCount',
      label: { 'zh-CN': '权限数', 'en-US': 'Permissions' },
      only: 'export',
      cell: (row) => row.permissionIds.length,
    },
    { key: 'tenantCount', label: { 'zh-CN': '租户数', 'en-US': 'Tenants' }, only: 'export' },
  ],
};
