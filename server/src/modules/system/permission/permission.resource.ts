import { defineResource } from '../../../core/resource/define-resource';
import { permissionList } from './permission.repository';
import { CreatePermission, Permission, PermissionImportRow, UpdatePermission } from './permission.schema';

export const permissionResource = defineResource({
  path: 'system/permission',
  type: 'permission',
  permission: 'system:permission',
  schemas: { row: Permission, create: CreatePermission, update: UpdatePermission, importRow: PermissionImportRow },
  list: permissionList,
  importKey: 'localeKey',
  label: (row) => row.code ?? row.localeKey ?? row.name,
  columns: [
    { key: 'parentKey', only: 'import', example: 'menu.system' },
    { key: 'type', example: 'menu' },
    { key: 'name', example: '审计日志' },
    { key: 'nameEn', example: 'Audit log' },
    { key: 'localeKey', example: 'menu.system.audit' },
    { key: 'code', example: 'system:audit:list' },
    { key: 'path', example: '/system/audit' },
    { key: 'icon', example: '' },
    { key: 'sort', example: '9' },
    { key: 'platformOnly', example: 'false' },
    { key: 'status', only: 'export' },
  ],
});
