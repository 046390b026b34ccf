import type {
  CreatePermission,
  Permission,
  UpdatePermission,
} from '@server/modules/system/permission/permission.schema';
import { getIntl } from '@umijs/max';
import { Tag } from 'antd';
import type { ResourceDescriptor } from '@/components/resource/types';
import { fetchPermissionTree, type PermissionNode } from '@/services/permission';

export type { Permission };

type TreeOption = { title: string; value: string; children?: TreeOption[] };
const toOptions = (nodes: PermissionNode[]): TreeOption[] =>
  nodes
    .filter((n) => n.type !== 'button')
    .map((n) => ({
      title: n.code ? `${n.name} (${n.code})` : n.name,
      value: n.id,
      children: toOptions(n.children ?? []),
    }));

/** Directories and menus as parents of the parent tree-select. */
export const parentOptions = async () => toOptions(await fetchPermissionTree());

const flag = (titleId: string, dataIndex: keyof Permission & string) => ({
  dataIndex,
  titleId,
  valueType: 'switch' as const,
  hideInSearch: true,
  hideInTable: true,
  initialValue: false,
});

/** The form's fields, the same for create and edit. */
const fields: (keyof CreatePermission & keyof UpdatePermission & string)[] = [
  'parentId',
  'type',
  'name',
  'nameEn',
  'localeKey',
  'code',
  'path',
  'component',
  'icon',
  'sort',
  'hiddenInMenu',
  'keepAlive',
  'platformOnly',
  'status',
];

/** The permission tree (docs/domain.md §2.2): /system/permission, prefix system:permission; platform operators only. */
export const permissionDescriptor: ResourceDescriptor<Permission, CreatePermission, UpdatePermission> = {
  resource: 'system/permission',
  auditType: 'permission',
  permission: 'system:permission',
  titleId: 'system.permission.entity',
  formLayout: 'DrawerForm',
  form: { create: fields, update: fields },
  columns: [
    { dataIndex: 'keyword', titleId: 'system.permission.keyword', searchOnly: true },
    {
      dataIndex: 'name',
      titleId: 'system.permission.name',
      hideInSearch: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'nameEn',
      titleId: 'system.permission.nameEn',
      hideInSearch: true,
    },
    {
      dataIndex: 'parentId',
      titleId: 'system.permission.parent',
      valueType: 'treeSelect',
      request: parentOptions,
      hideInTable: true,
      hideInSearch: true,
      hideInDescriptions: true,
      fieldProps: { allowClear: true, treeDefaultExpandAll: false, showSearch: true, treeNodeFilterProp: 'title' },
    },
    {
      dataIndex: 'type',
      titleId: 'system.permission.type',
      dict: 'permission_type',
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'code',
      titleId: 'system.permission.code',
      hideInSearch: true,
    },
    {
      dataIndex: 'path',
      titleId: 'system.permission.path',
      hideInSearch: true,
    },
    {
      dataIndex: 'localeKey',
      titleId: 'system.permission.localeKey',
      hideInSearch: true,
      hideInTable: true,
    },
    {
      dataIndex: 'component',
      titleId: 'system.permission.component',
      hideInSearch: true,
      hideInTable: true,
    },
    {
      dataIndex: 'icon',
      titleId: 'system.permission.icon',
      hideInSearch: true,
    },
    {
      dataIndex: 'sort',
      titleId: 'system.permission.sort',
      valueType: 'digit',
      hideInSearch: true,
      initialValue: 0,
      fieldProps: { min: 0, max: 99999, precision: 0 },
      formItemProps: { rules: [{ required: true }] },
    },
    flag('system.permission.hiddenInMenu', 'hiddenInMenu'),
    flag('system.permission.keepAlive', 'keepAlive'),
    {
      ...flag('system.permission.platformOnly', 'platformOnly'),
      hideInTable: false,
      render: (_dom, row) =>
        row.platformOnly ? (
          <Tag color="warning">{getIntl().formatMessage({ id: 'system.permission.platformOnly.yes' })}</Tag>
        ) : (
          '-'
        ),
    },
    {
      dataIndex: 'status',
      titleId: 'system.permission.status',
      dict: 'common_status',
      formItemProps: { rules: [{ required: true }] },
    },
  ],
};
