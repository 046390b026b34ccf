import { sql } from 'kysely';
import { errorCodes } from '../../core/error-codes';
import { PLATFORM_TENANT, type Tx } from '../../core/tenancy';
import { resourceMenus } from '../../modules/registry';
import { seedConfiguration } from './configuration';
import { dictSeeds } from './dictionaries';
import { flattenManifest } from './permissions';
import { seedSettings } from './settings';

export const CONSOLE_CLIENT_ID = 'console';

/** Idempotent: safe on every start. Inserts what is missing and never overwrites values an administrator edited. */
export async function seedBase(tx: Tx): Promise<void> {
  await tx
    .insertInto('tenant')
    .values({ code: PLATFORM_TENANT, name: '平台', short_name: 'Platform', contact_name: 'Platform operator' })
    .onConflict((oc) => oc.column('code').doNothing())
    .execute();
  const platform = await tx
    .selectFrom('tenant')
    .select('id')
    .where('code', '=', PLATFORM_TENANT)
    .executeTakeFirstOrThrow();

  await seedPermissions(tx);
  await seedErrorCodes(tx);

  await seedSettings(tx);
  await seedConfiguration(tx);

  for (const d of dictSeeds) {
    await tx
      .insertInto('dict_type')
      .values({ code: d.code, name: d.name, is_system: true })
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
    for (const [i, [value, label, labelEn, color]] of d.items.entries()) {
      await sql`INSERT INTO dict_item (tenant_id, type_code, value, label, label_en, color, sort)
        VALUES (${platform.id}, ${d.code}, ${value}, ${label}, ${labelEn}, ${color}, ${i})
        ON CONFLICT (tenant_id, type_code, value) DO NOTHING`.execute(tx);
    }
  }

  await tx
    .insertInto('oauth_client')
    .values({
      client_id: CONSOLE_CLIENT_ID,
      name: '管理控制台',
      description: 'The browser console (public client)',
      client_type: 'public',
      grant_types: ['password', 'refresh_token'],
      access_token_ttl_sec: 1800,
      refresh_token_ttl_sec: 30 * 24 * 3600,
    })
    .onConflict((oc) => oc.column('client_id').doNothing())
    .execute();

  // Filled once, when the package is first created: afterwards its permissions are the operator's to edit.
  const created = await tx
    .insertInto('tenant_package')
    .values({ name: '标准套餐', remark: 'Every permission that is not platform-only' })
    .onConflict((oc) => oc.column('name').where('deleted_at', 'is', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (created) {
    await sql`INSERT INTO package_permission (package_id, permission_id)
      SELECT ${created.id}, id FROM permission WHERE NOT platform_only AND status = 'enabled'`.execute(tx);
  }

  const roleId = await ensureRole(tx, platform.id, 'platform_admin', '平台管理员');
  await grantPermissions(tx, platform.id, roleId, 'all');
}

async function seedPermissions(tx: Tx): Promise<void> {
  const rows = flattenManifest(resourceMenus);
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.type}, ${r.name}, ${r.nameEn}, ${r.localeKey}, ${r.code}, ${r.path}, ${r.icon}, ${r.sort}::int, ${r.platformOnly}::boolean)`,
    ),
  );
  // names are the operator's once written: only a missing English name or a button still named by its code is filled
  await sql`INSERT INTO permission (type, name, name_en, locale_key, code, path, icon, sort, platform_only)
    VALUES ${values}
    ON CONFLICT (locale_key) DO UPDATE SET type = excluded.type, code = excluded.code, path = excluded.path,
      icon = excluded.icon, sort = excluded.sort, platform_only = excluded.platform_only, status = 'enabled',
      name = CASE WHEN permission.name = permission.code THEN excluded.name ELSE permission.name END,
      name_en = COALESCE(permission.name_en, excluded.name_en)`.execute(tx);
  const links = sql.join(rows.filter((r) => r.parentLocaleKey).map((r) => sql`(${r.localeKey}, ${r.parentLocaleKey})`));
  await sql`UPDATE permission p SET parent_id = parent.id
    FROM (VALUES ${links}) AS link (locale_key, parent_key)
    JOIN permission parent ON parent.locale_key = link.parent_key
    WHERE p.locale_key = link.locale_key AND p.parent_id IS DISTINCT FROM parent.id`.execute(tx);
  const codes = rows.flatMap((r) => (r.code ? [r.code] : []));
  await tx
    .updateTable('permission')
    .set({ status: 'disabled' })
    .where('code', 'is not', null)
    .where('code', 'not in', codes)
    .execute();
}

async function seedErrorCodes(tx: Tx): Promise<void> {
  const values = sql.join(
    Object.entries(errorCodes).map(
      ([key, d]) => sql`(${d.code}::int, ${key}, ${d.module}, ${d.status}::smallint, ${d.zh}, ${d.en})`,
    ),
  );
  await sql`INSERT INTO error_code (code, key, module, http_status, message_zh, message_en)
    VALUES ${values}
    ON CONFLICT (key) DO UPDATE SET code = excluded.code, module = excluded.module, http_status = excluded.http_status,
      message_zh = CASE WHEN error_code.message_customized THEN error_code.message_zh ELSE excluded.message_zh END,
      message_en = CASE WHEN error_code.message_customized THEN error_code.message_en ELSE excluded.message_en END`.execute(
    tx,
  );
}

export async function ensureRole(tx: Tx, tenantId: string, code: string, name: string): Promise<string> {
  await sql`INSERT INTO role (tenant_id, code, name, type) VALUES (${tenantId}, ${code}, ${name}, 'system')
    ON CONFLICT (tenant_id, code) WHERE deleted_at IS NULL DO NOTHING`.execute(tx);
  const role = await tx
    .selectFrom('role')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('code', '=', code)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return role.id;
}

/** 'all': every permission; 'tenant': every non-platform one; or an explicit list of codes. */
export async function grantPermissions(
  tx: Tx,
  tenantId: string,
  roleId: string,
  which: 'all' | 'tenant' | string[],
): Promise<void> {
  const filter =
    which === 'all' ? sql`true` : which === 'tenant' ? sql`NOT platform_only` : sql`code IN (${sql.join(which)})`;
  await sql`INSERT INTO role_permission (tenant_id, role_id, permission_id)
    SELECT ${tenantId}, ${roleId}, id FROM permission WHERE ${filter}
    ON CONFLICT DO NOTHING`.execute(tx);
}
