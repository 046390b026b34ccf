import { defineResource } from '../../../core/resource/define-resource';
import { roleList } from './role.repository';
import { CreateRole, Role, RoleImportRow, UpdateRole } from './role.schema';

export const roleResource = defineResource({
  path: 'system/role',
  type: 'role',
  permission: 'system:role',
  schemas: { row: Role, create: CreateRole, update: UpdateRole, importRow: RoleImportRow },
  list: roleList,
  importKey: 'code',
  columns: [
    { key: 'code', example: 'nurse_lead' },
    { key: 'name', example: '护士长' },
    { key: 'type', only: 'export' },
    { key: 'dataScope', only: 'export' },
    { key: 'sort', example: '10' },
    { key: 'status', example: 'enabled' },
    { key: 'remark', example: '' },
    { key: 'createdAt', only: 'export' },
  ],
});
