import { z } from '@hono/zod-openapi';
import { Version } from '../../../core/column-bounds';
import { ref } from '../../../core/references';
import { field, recordRow } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';

export const PERMISSION_TYPES = ['directory', 'menu', 'button'] as const;

export const Permission = recordRow({
  parentId: z.string().nullable(),
  type: z.enum(PERMISSION_TYPES),
  name: z.string(),
  nameEn: z.string().nullable(),
  localeKey: z.string().nullable(),
  code: z.string().nullable(),
  path: z.string().nullable(),
  component: z.string().nullable(),
  icon: z.string().nullable(),
  sort: z.number().int(),
  hiddenInMenu: z.boolean(),
  keepAlive: z.boolean(),
  platformOnly: z.boolean(),
  status: field.status,
}).openapi('Permission');
export type Permission = z.infer<typeof Permission>;

export type PermissionNode = Permission & { children: PermissionNode[] };
export const PermissionTree = z
  .array(Permission.extend({ children: z.any().openapi({ type: 'array', description: 'Nodes of the same shape' }) }))
  .openapi('PermissionTree');

const code = z
  .string()
  .trim()
  .max(100)
  .regex(/^[a-z][a-z0-9-]*(:[a-z][a-z0-9-]*){2}$/, formatRule('permissionCode'));

const fields = {
  parentId: ref('permission').nullable().default(null),
  type: z.enum(PERMISSION_TYPES),
  name: field.requiredText(50),
  nameEn: field.optionalText(100),
  localeKey: z
    .string()
    .trim()
    .max(100)
    .regex(/^[a-zA-Z0-9._-]+$/, formatRule('localeKey'))
    .nullable()
    .optional(),
  code: code.nullable().optional(),
  path: z.string().trim().max(200).regex(/^\//, formatRule('path')).nullable().optional(),
  component: field.optionalText(200),
  icon: field.optionalText(50),
  sort: field.sortOrder(99999).default(0),
  hiddenInMenu: z.boolean().default(false),
  keepAlive: z.boolean().default(false),
  platformOnly: z.boolean().default(false),
  status: field.status.default('enabled'),
};

/** Menus and buttons need a code; a menu also a route path. */
function typeRules(value: { type: string; code?: string | null; path?: string | null }, ctx: z.RefinementCtx) {
  if (value.type !== 'directory' && !value.code)
    ctx.addIssue({ code: 'custom', path: ['code'], message: 'is required for a menu or a button' });
  if (value.type === 'menu' && !value.path)
    ctx.addIssue({ code: 'custom', path: ['path'], message: 'is required for a menu' });
}

export const CreatePermission = z.object(fields).strict().superRefine(typeRules).openapi('CreatePermission');
export type CreatePermission = z.infer<typeof CreatePermission>;

export const UpdatePermission = z
  .object({ ...fields, version: Version })
  .strict()
  .superRefine(typeRules)
  .openapi('UpdatePermission');
export type UpdatePermission = z.infer<typeof UpdatePermission>;

/** One import row: the parent by its locale key (a tree in one sheet, parents first). */
export const PermissionImportRow = z
  .object({
    parentKey: z.string().trim().max(100).optional(),
    type: z.enum(PERMISSION_TYPES),
    name: fields.name,
    nameEn: z.string().trim().max(100).optional(),
    localeKey: z
      .string()
      .trim()
      .max(100)
      .regex(/^[a-zA-Z0-9._-]+$/, formatRule('localeKey')),
    code: code.optional(),
    path: z.string().trim().max(200).regex(/^\//, formatRule('path')).optional(),
    icon: z.string().trim().max(50).optional(),
    sort: z.coerce.number().pipe(field.sortOrder(99999)).default(0),
    platformOnly: z.enum(['true', 'false']).optional(),
  })
  .superRefine(typeRules);

/** The console menu: enabled directories and menus the user holds, as a tree. */
export interface MenuNode {
  id: string;
  type: 'directory' | 'menu';
  name: string;
  nameEn: string | null;
  localeKey: string | null;
  code: string | null;
  path: string | null;
  icon: string | null;
  sort: number;
  hiddenInMenu: boolean;
  keepAlive: boolean;
  children: MenuNode[];
}
export const MenuTree = z
  .array(
    z.object({
      id: z.string(),
      type: z.enum(['directory', 'menu']),
      name: z.string(),
      nameEn: z.string().nullable(),
      localeKey: z.string().nullable(),
      code: z.string().nullable(),
      path: z.string().nullable(),
      icon: z.string().nullable(),
      sort: z.number().int(),
      hiddenInMenu: z.boolean(),
      keepAlive: z.boolean(),
      children: z.any().openapi({ type: 'array', description: 'Nodes of the same shape' }),
    }),
  )
  .openapi('MenuTree');
