import type { ResourceDefinition } from '../../../core/resource/resource';
import { permissionList } from './permission.repository';
import { CreatePermission, Permission, PermissionImportRow, UpdatePermission } from './permission.schema';

export const permissionResource: ResourceDefinition<Permission, CreatePermission, UpdatePermission> = {
  path: 'system/permission',
  type: 'permission',
  permission: 'system:permission',
  schemas: { row: Permission, create: CreatePermission, update: UpdatePermission, importRow: PermissionImportRow },
  list: permissionList,
  importKey: 'localeKey',
  label: (row) => row.code ?? row.localeKey ?? row.name,
  columns: [
    { key: 'parentKey', label: { 'zh-CN': '上级标识', 'en-US': 'Parent key' }, only: 'import', example: 'menu.system' },
    { key: 'type', label: { 'zh-CN': '类型', 'en-US': 'Type' }, example: 'menu' },
    { key: 'name', label: { 'zh-CN': '名称', 'en-US': 'Name' }, example: '审计日志' },
    { key: 'nameEn', label: { 'zh-CN': '英文名称', 'en-US': 'English name' }, example: 'Audit log' },
    { key: 'localeKey', label: { 'zh-CN': '多语言标识', 'en-US': 'Locale key' }, example: 'menu.system.audit' },
    { key: 'code', label: { 'zh-CN': '权限编码', 'en-US': 'Code' }, example: 'system:audit:list' },
    { key: 'path', label: { 'zh-CN': '路由', 'en-US': 'Path' }, example: '/system/audit' },
    { key: 'icon', label: { 'zh-CN': '图标', 'en-US': 'Icon' }, example: '' },
    { key: 'sort', label: { 'zh-CN': '排序', 'en-US': 'Sort' }, example: '9' },
    { key: 'platformOnly', label: { 'zh-CN': '平台专属', 'en-US': 'Platform only' }, example: 'false' },
    { key: 'status', label: { 'zh-CN': '状态', 'en-US': 'Status' }, only: 'export' },
  ],
};
