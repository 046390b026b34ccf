import type {
  CreateTenantPackage,
  TenantPackage,
  UpdateTenantPackage,
} from '@server/modules/system/tenant-package/tenant-package.schema';
import { useRequest } from 'ahooks';
import { Spin } from 'antd';
import PermissionTree from '@/components/permission/PermissionTree';
import { describeResource } from '@/components/resource/types';
import { fetchPermissionTree, grantable } from '@/services/permission';
import { ignoreShownError } from '@/utils/request';

export type { TenantPackage };

/** The package's permissions: the tree without platform-only nodes, as a form control. */
function PackagePermissions(props: { value?: string[]; onChange?: (ids: string[]) => void }) {
  const { data, loading } = useRequest(fetchPermissionTree, { onError: ignoreShownError, cacheKey: 'permission-tree' });
  if (loading && !data) return <Spin />;
  return <PermissionTree tree={grantable(data ?? [])} value={props.value} onChange={props.onChange} />;
}

/** Tenant packages (docs/domain.md §2.1): the permission sets tenants are given; prefix system:tenant-package. */
export const packageDescriptor = describeResource<TenantPackage, CreateTenantPackage, UpdateTenantPackage>(
  'system/tenant-package',
  (column) => ({
    auditType: 'tenant_package',
    formLayout: 'DrawerForm',
    form: {
      create: ['name', 'status', 'remark', 'permissionIds'],
      update: ['name', 'status', 'remark', 'permissionIds'],
    },
    columns: [
      column('keyword', { searchOnly: true }),
      column('name', { hideInSearch: true, sorter: true, required: true }),
      column('status', { dict: 'common_status', required: true }),
      column('permissionCount', {
        hideInSearch: true,
        hideInForm: true,
        render: (_dom, row) => row.permissionIds.length,
      }),
      column('tenantCount', { hideInSearch: true, hideInForm: true }),
      column('remark', { valueType: 'textarea', hideInSearch: true }),
      column('permissionIds', {
        titleId: 'system.package.permissions',
        hideInTable: true,
        hideInSearch: true,
        hideInDescriptions: true,
        renderFormItem: () => <PackagePermissions />,
      }),
      column('createdAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
    ],
  }),
  { titles: 'system.package' },
);
