import type { PasswordHasher } from '../../core/password';
import { PLATFORM_TENANT, type Tx } from '../../core/tenancy';
import { ensureRole, grantPermissions } from './base';

export const DEMO_TENANT_CODE = 'demo';

export interface DemoUser {
  username: string;
  password: string;
  displayName: string;
  roleCode: string;
}

export interface TenantSeed {
  code: string;
  name: string;
  users: DemoUser[];
  status?: 'enabled' | 'disabled';
  expiresAt?: Date | null;
}

/** Creates a tenant with `tenant_admin` (every non-platform permission) and `viewer` (landing screen only) roles. */
export async function seedTenant(tx: Tx, hasher: PasswordHasher, seed: TenantSeed): Promise<string> {
  const pkg = await tx.selectFrom('tenant_package').select('id').where('name', '=', '标准套餐').executeTakeFirst();
  const tenant = await tx
    .insertInto('tenant')
    .values({
      code: seed.code,
      name: seed.name,
      package_id: pkg?.id ?? null,
      status: seed.status ?? 'enabled',
      expires_at: seed.expiresAt ?? null,
      contact_name: seed.users[0]?.displayName ?? seed.name,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const adminRole = await ensureRole(tx, tenant.id, 'tenant_admin', '租户管理员');
  await grantPermissions(tx, tenant.id, adminRole, 'tenant');
  const viewerRole = await ensureRole(tx, tenant.id, 'viewer', '访客');
  await grantPermissions(tx, tenant.id, viewerRole, ['dashboard:workspace:view']);
  const roles: Record<string, string> = { tenant_admin: adminRole, viewer: viewerRole };
  for (const u of seed.users) {
    await addUser(
      tx,
      hasher,
      tenant.id,
      u,
      roles[u.roleCode] ?? (await ensureRole(tx, tenant.id, u.roleCode, u.roleCode)),
    );
  }
  return tenant.id;
}

export async function addUser(tx: Tx, hasher: PasswordHasher, tenantId: string, user: DemoUser, roleId: string) {
  const row = await tx
    .insertInto('admin_user')
    .values({
      tenant_id: tenantId,
      username: user.username,
      password_hash: await hasher.hash(user.password),
      display_name: user.displayName,
      password_changed_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx.insertInto('user_role').values({ tenant_id: tenantId, user_id: row.id, role_id: roleId }).execute();
}

/** The demo tenant's accounts (the README's table names them). */
export const DEMO_USERS: DemoUser[] = [
  { username: 'admin', password: 'admin123', displayName: '管理员', roleCode: 'tenant_admin' },
  { username: 'viewer', password: 'viewer123', displayName: '访客', roleCode: 'viewer' },
];

/** The platform's administrator of the demo (tenant `platform`). */
export const DEMO_PLATFORM_ADMIN: DemoUser = {
  username: 'admin',
  password: 'admin123',
  displayName: '平台管理员',
  roleCode: 'platform_admin',
};

/** The demo data of the README: tenant `demo` with admin/admin123 and viewer/viewer123, a platform admin. */
export async function seedDemo(tx: Tx, hasher: PasswordHasher): Promise<boolean> {
  const existing = await tx.selectFrom('tenant').select('id').where('code', '=', DEMO_TENANT_CODE).executeTakeFirst();
  if (existing) return false;
  await seedTenant(tx, hasher, {
    code: DEMO_TENANT_CODE,
    name: '演示医院',
    users: DEMO_USERS,
  });
  const platform = await tx
    .selectFrom('tenant')
    .select('id')
    .where('code', '=', PLATFORM_TENANT)
    .executeTakeFirstOrThrow();
  const platformRole = await ensureRole(tx, platform.id, DEMO_PLATFORM_ADMIN.roleCode, '平台管理员');
  const hasAdmin = await tx
    .selectFrom('admin_user')
    .select('id')
    .where('tenant_id', '=', platform.id)
    .where('username', '=', DEMO_PLATFORM_ADMIN.username)
    .executeTakeFirst();
  if (!hasAdmin) await addUser(tx, hasher, platform.id, DEMO_PLATFORM_ADMIN, platformRole);
  return true;
}
