import type { Services } from '../../core/context';
import { passwordPolicyError } from '../../core/password';
import { PLATFORM_TENANT } from '../../core/tenancy';
import { ensureRole } from './base';
import { addUser } from './demo';

export interface PlatformAdminInput {
  username: string;
  password: string;
  displayName: string;
}

/**
 * The first platform operator of a fresh database (demo data is never created on PostgreSQL):
 * an admin user of tenant `platform` holding the `platform_admin` role, which the base seed grants every permission.
 */
export async function createPlatformAdmin(services: Services, input: PlatformAdminInput): Promise<void> {
  if (!/^[a-z][a-z0-9_.-]{1,49}$/.test(input.username)) {
    throw new Error('the user name must be 2–50 lower-case letters, digits, ".", "_" or "-", starting with a letter');
  }
  await services.tenancy.asSystem(async (tx) => {
    const platform = await tx
      .selectFrom('tenant')
      .select('id')
      .where('code', '=', PLATFORM_TENANT)
      .executeTakeFirstOrThrow();
    const policy = await services.settings.passwordPolicy(tx);
    const refusal = passwordPolicyError(input.password, policy, { username: input.username, field: 'password' });
    if (refusal) throw new Error(services.catalog.message(refusal.code, 'en-US', refusal.params));
    const taken = await tx
      .selectFrom('admin_user')
      .select('id')
      .where('tenant_id', '=', platform.id)
      .where('username', '=', input.username)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (taken) throw new Error(`platform user "${input.username}" already exists`);
    const roleId = await ensureRole(tx, platform.id, 'platform_admin', '平台管理员');
    await addUser(tx, services.hasher, platform.id, { ...input, roleCode: 'platform_admin' }, roleId);
  });
}
