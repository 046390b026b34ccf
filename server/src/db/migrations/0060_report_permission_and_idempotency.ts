import type { Kysely } from 'kysely';
import { SYSTEM_ROLE, tenantOwnedTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * Permissions that operations asked for and no row held (everyone answered 403), or that a route now asks for where
 * it asked for none: each with its menu and the permission whose holders receive it.
 */
const ADDED = [
  // reporting a post, reply or user: until now any signed-in user could, reading the target through the answer
  { code: 'community:post:report', name: ['举报', 'Report'], menu: 'community:post:list', with: 'community:post:list' },
  {
    code: 'people:doctor-type:import',
    name: ['导入', 'Import'],
    menu: 'people:doctor-type:list',
    with: 'people:doctor-type:create',
  },
  { code: 'system:client:import', name: ['导入', 'Import'], menu: 'system:client:list', with: 'system:client:create' },
];

/**
 * 1. The permissions of ADDED, for a database that has the rows of their menus (the base seed, run after the
 *    migrations on every start, writes them on a fresh one and gives them their order and names): each joins every
 *    package and role that holds the permission it comes `with`, so a tenant's administrator and the roles that read
 *    the community keep what they could do. Written as the system role, which row-level security lets see every
 *    tenant's grants.
 * 2. `idempotency_key`: the answer a create gave to an `Idempotency-Key` of a user (core/idempotency.ts), kept a day,
 *    so that a repeated submit answers the first result rather than creating again. `status` is null while the first
 *    request runs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const grants = ADDED.flatMap((p) => [
    `INSERT INTO permission (type, name, name_en, locale_key, code, parent_id, sort, platform_only)
      SELECT 'button', '${p.name[0]}', '${p.name[1]}', menu.locale_key || '.${p.code.replaceAll(':', '.')}',
        '${p.code}', menu.id, 99, menu.platform_only
      FROM permission menu WHERE menu.code = '${p.menu}'
      ON CONFLICT (locale_key) DO NOTHING`,
    `INSERT INTO package_permission (package_id, permission_id)
      SELECT pp.package_id, added.id FROM package_permission pp
      JOIN permission holder ON holder.id = pp.permission_id AND holder.code = '${p.with}'
      JOIN permission added ON added.code = '${p.code}'
      ON CONFLICT DO NOTHING`,
    `INSERT INTO role_permission (tenant_id, role_id, permission_id)
      SELECT rp.tenant_id, rp.role_id, added.id FROM role_permission rp
      JOIN permission holder ON holder.id = rp.permission_id AND holder.code = '${p.with}'
      JOIN permission added ON added.code = '${p.code}'
      ON CONFLICT DO NOTHING`,
  ]);
  await runStatements(db, [
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    ...grants,
    'RESET ROLE',
    `CREATE TABLE idempotency_key (
      tenant_id bigint NOT NULL REFERENCES tenant (id),
      user_id bigint NOT NULL,
      key varchar(255) NOT NULL,
      operation varchar(300) NOT NULL,
      request_hash char(64) NOT NULL,
      status smallint,
      response_type varchar(100),
      response_body text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, user_id, key))`,
    'CREATE INDEX idempotency_key_created_idx ON idempotency_key (tenant_id, created_at)',
    ...tenantOwnedTable('idempotency_key'),
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const codes = ADDED.map((p) => `'${p.code}'`).join(', ');
  await runStatements(db, [
    'DROP TABLE idempotency_key',
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    `DELETE FROM permission WHERE code IN (${codes})`,
    'RESET ROLE',
  ]);
}
