import type {
  CreateTenantPackage,
  TenantPackage,
  UpdateTenantPackage,
} from '@server/modules/system/tenant-package/tenant-package.schema';
import { useRequest } from 'ahooks';
import { Spin } from 'antd';
import PermissionTree from '@/components/permission/PermissionTree';
import type { ResourceDescriptor } from '@/components/resource/types';
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
export const packageDescriptor: ResourceDescriptor<TenantPackage, CreateTenantPackage, UpdateTenantPackage> = {
  resource: 'system/tenant-package',
  auditType: 'tenant_package',
  permission: 'system:tenant-package',
  titleId: 'system.package.entity',
  formLayout: 'DrawerForm',
  form: {
    create: ['name', 'status', 'remark', 'permissionIds'],
    update: ['name', 'status', 'remark', 'permissionIds'],
  },
  columns: [
    { dataIndex: 'keyword', titleId: 'system.package.keyword', searchOnly: true },
    {
      dataIndex: 'name',
      titleId: 'system.package.name',
      hideInSearch: true,
      sorter: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'status',
      titleId: 'system.package.status',
      dict: 'common_status',
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'permissionCount',
      titleId: 'system.package.permissionCount',
      hideInSearch: true,
      hideInForm: true,
      render: (_dom, row) => row.permissionIds.length,
    },
    { dataIndex: 'tenantCount', titleId: 'system.package.tenantCount', hideInSearch: true, hideInForm: true },
    {
      dataIndex: 'remark',
      titleId: 'system.package.remark',
      valueType: 'textarea',
      hideInSearch: true,
    },
    {
      dataIndex: 'permissionIds',
      titleId: 'system.package.permissions',
      hideInTable: true,
      hideInSearch: true,
      hideInDescriptions: true,
      renderFormItem: () => <PackagePermissions />,
    },
    {
      dataIndex: 'createdAt',
      titleId: 'system.package.createdAt',
      valueType: 'dateTime',
      hideInSearch: true,
      hideInForm: true,
      sorter: true,
    },
  ],
};
