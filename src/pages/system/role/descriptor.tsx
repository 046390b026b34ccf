import type { CreateRole, Role, UpdateRole } from '@server/modules/system/role/role.schema';
import { describeResource } from '@/components/resource/types';

export type { CreateRole, Role, UpdateRole };

/** Roles of the tenant (docs/domain.md §2.3): /system/role, prefix system:role. A system role is not deleted and keeps its code. */
export const roleDescriptor = describeResource<Role, CreateRole, UpdateRole>('system/role', (column) => ({
  auditType: 'role',
  allows: (row, action) => action === 'update' || row.type !== 'system',
  lockReasonId: 'system.role.locked',
  form: { create: ['code', 'name', 'sort', 'status', 'remark'], update: ['code', 'name', 'sort', 'status', 'remark'] },
  columns: [
    column('keyword', { searchOnly: true }),
    column('code', { hideInSearch: true, sorter: true, required: true }),
    column('name', { hideInSearch: true, sorter: true, required: true }),
    column('type', { valueType: 'select', dict: 'role_type', hideInForm: true }),
    column('dataScope', { dict: 'data_scope', hideInForm: true, hideInSearch: true }),
    column('sort', {
      valueType: 'digit',
      hideInSearch: true,
      sorter: true,
      initialValue: 0,
      fieldProps: { min: 0, max: 99999, precision: 0 },
    }),
    column('status', { dict: 'common_status', required: true }),
    column('remark', { valueType: 'textarea', hideInSearch: true, hideInTable: true }),
    column('createdAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
  ],
}));
