import type { ResourceDefinition } from '../../../core/resource/resource';
import { roleList } from './role.repository';
import { CreateRole, Role, RoleImportRow, UpdateRole } from './role.schema';

export const roleResource: ResourceDefinition<Role, CreateRole, UpdateRole> = {
  path: 'system/role',
  type: 'role',
  permission: 'system:role',
  schemas: { row: Role, create: CreateRole, update: UpdateRole, importRow: RoleImportRow },
  list: roleList,
  importKey: 'code',
  label: (row) => row.code,
  columns: [
    { key: 'code', label: { 'zh-CN': '角色编码', 'en-US': 'Code' }, example: 'nurse_lead' },
    { key: 'name', label: { 'zh-CN': '角色名称', 'en-US': 'Name' }, example: '护士长' },
    { key: 'type', label: { 'zh-CN': '类型', 'en-US': 'Type' }, only: 'export' },
    { key: 'dataScope', label: { 'zh-CN': '数据范围', 'en-US': 'Data scope' }, only: 'export' },
    { key: 'sort', label: { 'zh-CN': '排序', 'en-US': 'Sort' }, example: '10' },
    { key: 'status', label: { 'zh-CN': '状态', 'en-US': 'Status' }, example: 'enabled' },
    { key: 'remark', label: { 'zh-CN': '备注', 'en-US': 'Remark' }, example: '' },
    { key: 'createdAt', label: { 'zh-CN': '创建时间', 'en-US': 'Created at' }, only: 'export' },
  ],
};
