import type {
  CreatePermission,
  Permission,
  UpdatePermission,
} from '@server/modules/system/permission/permission.schema';
import { getIntl } from '@umijs/max';
import { Tag } from 'antd';
import { describeResource } from '@/components/resource/types';
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
export const permissionDescriptor = describeResource<Permission, CreatePermission, UpdatePermission>(
  'system/permission',
  (column) => ({
    auditType: 'permission',
    formLayout: 'DrawerForm',
    form: { create: fields, update: fields },
    columns: [
      column('keyword', { searchOnly: true }),
      column('name', { hideInSearch: true, required: true }),
      column('nameEn', { hideInSearch: true }),
      column('parentId', {
        titleId: 'system.permission.parent',
        valueType: 'treeSelect',
        request: parentOptions,
        hideInTable: true,
        hideInSearch: true,
        hideInDescriptions: true,
        fieldProps: { allowClear: true, treeDefaultExpandAll: false, showSearch: true, treeNodeFilterProp: 'title' },
      }),
      column('type', { dict: 'permission_type', required: true }),
      column('code', { hideInSearch: true }),
      column('path', { hideInSearch: true }),
      column('localeKey', { hideInSearch: true, hideInTable: true }),
      column('component', { hideInSearch: true, hideInTable: true }),
      column('icon', { hideInSearch: true }),
      column('sort', {
        valueType: 'digit',
        hideInSearch: true,
        initialValue: 0,
        fieldProps: { min: 0, max: 99999, precision: 0 },
        required: true,
      }),
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
      column('status', { dict: 'common_status', required: true }),
    ],
  }),
);
