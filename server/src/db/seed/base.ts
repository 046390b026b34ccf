import { sql } from 'kysely';
import { errorCodes } from '../../core/error-codes';
import type { Tx } from '../../core/tenancy';
import { flattenManifest } from './permissions';
import { seedConfiguration } from './configuration';
import { seedSettings } from './settings';

export const PLATFORM_TENANT_CODE = 'platform';
export const CONSOLE_CLIENT_ID = 'console';

interface DictSeed {
  code: string;
  name: string;
  items: [value: string, label: string, labelEn: string, color: string][];
}

export const dictSeeds: DictSeed[] = [
  { code: 'common_status', name: '通用状态', items: [['enabled', '启用', 'Enabled', 'success'], ['disabled', '停用', 'Disabled', 'default']] },
  { code: 'gender', name: '性别', items: [['male', '男', 'Male', 'blue'], ['female', '女', 'Female', 'magenta'], ['unknown', '未知', 'Unknown', 'default']] },
  {
    code: 'admin_user_status',
    name: '管理员状态',
    items: [['enabled', '启用', 'Enabled', 'success'], ['disabled', '停用', 'Disabled', 'default'], ['locked', '锁定', 'Locked', 'error']],
  },
  { code: 'permission_type', name: '权限类型', items: [['directory', '目录', 'Directory', 'purple'], ['menu', '菜单', 'Menu', 'blue'], ['button', '按钮', 'Button', 'default']] },
  { code: 'yes_no', name: '是否', items: [['true', '是', 'Yes', 'success'], ['false', '否', 'No', 'default']] },
  { code: 'role_type', name: '角色类型', items: [['system', '内置', 'Built-in', 'gold'], ['custom', '自定义', 'Custom', 'blue']] },
  {
    code: 'data_scope',
    name: '数据范围',
    items: [
      ['all', '全部数据', 'All data', 'green'],
      ['org_custom', '指定组织', 'Chosen organisations', 'cyan'],
      ['org', '本组织', 'Own organisation', 'blue'],
      ['org_and_children', '本组织及下级', 'Own organisation and below', 'geekblue'],
      ['self', '仅本人', 'Own records only', 'default'],
    ],
  },
  { code: 'client_type', name: '客户端类型', items: [['confidential', '机密客户端', 'Confidential', 'purple'], ['public', '公开客户端', 'Public', 'blue']] },
  {
    code: 'grant_type',
    name: '授权方式',
    items: [
      ['authorization_code', '授权码', 'Authorization code', 'blue'],
      ['client_credentials', '客户端凭证', 'Client credentials', 'purple'],
      ['refresh_token', '刷新令牌', 'Refresh token', 'cyan'],
      ['password', '密码', 'Password', 'orange'],
    ],
  },
];

/** Idempotent: safe on every start. Inserts what is missing and never overwrites values an administrator edited. */
export async function seedBase(tx: Tx): Promise<void> {
  await tx
    .insertInto('tenant')
    .values({ code: PLATFORM_TENANT_CODE, name: '平台', short_name: 'Platform', contact_name: 'Platform operator' })
    .onConflict((oc) => oc.column('code').doNothing())
    .execute();
  const platform = await tx.selectFrom('tenant').select('id').where('code', '=', PLATFORM_TENANT_CODE).executeTakeFirstOrThrow();

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
      await sql`INSERT INTO dict_item (type_code, value, label, label_en, color, sort)
        VALUES (${d.code}, ${value}, ${label}, ${labelEn}, ${color}, ${i})
        ON CONFLICT (type_code, COALESCE(tenant_id, 0), value) DO NOTHING`.execute(tx);
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
  const rows = flattenManifest();
  const values = sql.join(
    rows.map(
      (r) => sql`(${r.type}, ${r.name}, ${r.localeKey}, ${r.code}, ${r.path}, ${r.icon}, ${r.sort}::int, ${r.platformOnly}::boolean)`,
    ),
  );
  await sql`INSERT INTO permission (type, name, locale_key, code, path, icon, sort, platform_only)
    VALUES ${values}
    ON CONFLICT (locale_key) DO UPDATE SET type = excluded.type, code = excluded.code, path = excluded.path,
      icon = excluded.icon, sort = excluded.sort, platform_only = excluded.platform_only, status = 'enabled'`.execute(tx);
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
      message_en = CASE WHEN error_code.message_customized THEN error_code.message_en ELSE excluded.message_en END`.execute(tx);
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
export async function grantPermissions(tx: Tx, tenantId: string, roleId: string, which: 'all' | 'tenant' | string[]): Promise<void> {
  const filter =
    which === 'all' ? sql`true` : which === 'tenant' ? sql`NOT platform_only` : sql`code IN (${sql.join(which)})`;
  await sql`INSERT INTO role_permission (tenant_id, role_id, permission_id)
    SELECT ${tenantId}, ${roleId}, id FROM permission WHERE ${filter}
    ON CONFLICT DO NOTHING`.execute(tx);
}
