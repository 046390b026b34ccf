import { z } from '@hono/zod-openapi';
import { ref } from '../../../core/references';
import { field, importRowOf, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';
import { PermissionTree } from '../permission/permission.schema';

export const DATA_SCOPES = ['all', 'org_custom', 'org', 'org_and_children', 'self'] as const;

/** The built-in role every tenant gets at provisioning; it always holds exactly the tenant's package. */
export const TENANT_ADMIN_ROLE = 'tenant_admin';

export const Role = recordRow({
  code: z.string(),
  name: z.string(),
  type: z.enum(['system', 'custom']),
  dataScope: z.enum(DATA_SCOPES),
  dataScopeOrgIds: z.array(z.string()),
  sort: z.number().int(),
  status: field.status,
  remark: z.string().nullable(),
}).openapi('Role');
export type Role = z.infer<typeof Role>;

const code = z
  .string()
  .trim()
  .min(2)
  .max(50)
  .regex(/^[a-z][a-z0-9_-]*$/, formatRule('roleCode'))
  .openapi({ example: 'nurse_lead' });
const name = field.requiredText(50).openapi({ example: '护士长' });
const sort = field.sortOrder(99999);

export const CreateRole = requestBody('CreateRole', {
  code,
  name,
  sort: sort.default(0),
  status: field.status.default('enabled'),
  remark: field.remark,
});
export type CreateRole = z.infer<typeof CreateRole>;

export const UpdateRole = updateBody('UpdateRole', {
  code: code.optional().openapi({ description: 'Not changeable on a system role' }),
  name,
  sort: sort.optional(),
  status: field.status.optional(),
  remark: field.remark,
});
export type UpdateRole = z.infer<typeof UpdateRole>;

export const RoleImportRow = importRowOf(CreateRole.shape);

export const RoleOption = z.object({ id: z.string(), code: z.string(), name: z.string() }).openapi('RoleOption');

export const AssignPermissions = requestBody('AssignPermissions', {
  permissionIds: z.array(ref('permission')).max(2000),
});

export const RolePermissions = z
  .object({
    permissionIds: z.array(z.string()),
    tree: PermissionTree.openapi({ description: 'What the role may be given: the tenant’s package as a tree' }),
  })
  .openapi('RolePermissions');

export const AssignDataScope = z
  .object({
    dataScope: z.enum(DATA_SCOPES),
    dataScopeOrgIds: z.array(ref('organization')).max(500).default([]),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.dataScope === 'org_custom' && v.dataScopeOrgIds.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['dataScopeOrgIds'], message: 'is required for org_custom' });
    }
  })
  .openapi('AssignDataScope');

export const RoleMember = z
  .object({ id: z.string(), userName: z.string(), displayName: z.string(), status: z.string() })
  .openapi('RoleMember');

export const AddMembers = requestBody('AddMembers', { userIds: z.array(ref('admin_user')).min(1).max(500) });
