import { z } from '@hono/zod-openapi';
import { Version } from '../../../core/column-bounds';
import { Id } from '../../../core/resource/id-param';
import { importRowOf, recordRow, remark, requiredText, Status, sortOrder } from '../../../core/schema-kit';
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
  status: Status,
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
const name = requiredText(50).openapi({ example: '护士长' });
const sort = sortOrder(99999);

export const CreateRole = z
  .object({
    code,
    name,
    sort: sort.default(0),
    status: Status.default('enabled'),
    remark,
  })
  .strict()
  .openapi('CreateRole');
export type CreateRole = z.infer<typeof CreateRole>;

export const UpdateRole = z
  .object({
    code: code.optional().openapi({ description: 'Not changeable on a system role' }),
    name,
    sort: sort.optional(),
    status: Status.optional(),
    remark,
    version: Version,
  })
  .strict()
  .openapi('UpdateRole');
export type UpdateRole = z.infer<typeof UpdateRole>;

export const RoleImportRow = importRowOf(CreateRole.shape);

export const RoleOption = z.object({ id: z.string(), code: z.string(), name: z.string() }).openapi('RoleOption');

export const AssignPermissions = z
  .object({ permissionIds: z.array(Id).max(2000) })
  .strict()
  .openapi('AssignPermissions');

export const RolePermissions = z
  .object({
    permissionIds: z.array(z.string()),
    tree: PermissionTree.openapi({ description: 'What the role may be given: the tenant’s package as a tree' }),
  })
  .openapi('RolePermissions');

export const AssignDataScope = z
  .object({
    dataScope: z.enum(DATA_SCOPES),
    dataScopeOrgIds: z.array(Id).max(500).default([]),
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

export const AddMembers = z
  .object({ userIds: z.array(Id).min(1).max(500) })
  .strict()
  .openapi('AddMembers');
