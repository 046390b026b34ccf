import { defineResource } from '../../../core/resource/define-resource';
import { tenantPackageList } from './tenant-package.repository';
import {
  CreateTenantPackage,
  TenantPackage,
  TenantPackageImportRow,
  UpdateTenantPackage,
} from './tenant-package.schema';

export const tenantPackageResource = defineResource({
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
  labels: 'system.package',
  columns: [
    { key: 'name', example: '基础套餐' },
    { key: 'status', example: 'enabled' },
    { key: 'remark', example: '' },
    {
      key: 'permissionCount',
      only: 'export',
      cell: (row) => row.permissionIds.length,
    },
    { key: 'tenantCount', only: 'export' },
  ],
});
