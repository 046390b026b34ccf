import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, secondTenant, startApi, type TestApi } from './helpers';

describe.each(engines())('row-level security on $name', (engine) => {
  let api: TestApi;
  let demoId: string;
  let demo2Id: string;

  beforeAll(async () => {
    api = await startApi(engine);
    demo2Id = await api.addTenant(secondTenant);
    demoId = (await api.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id;
    await api.tokens('demo', 'admin', 'admin123');
    await api.tokens('demo2', 'admin', 'admin123');
  });
  afterAll(() => api?.close());

  it('runs tenant work as a role that cannot bypass row-level security', async () => {
    const who = await api.tenancy.inTenant(
      demoId,
      async (tx) =>
        (
          await sql<{ role: string; bypass: boolean; superuser: boolean; tenant: string }>`
          SELECT current_user AS role, r.rolbypassrls AS bypass, r.rolsuper AS superuser,
                 current_setting('app.tenant_id') AS tenant
          FROM pg_roles r WHERE r.rolname = current_user`.execute(tx)
        ).rows[0],
    );
    expect(who).toEqual({ role: 'medu_app', bypass: false, superuser: false, tenant: demoId });
    const after = await sql<{ tenant: string | null }>`SELECT current_setting('app.tenant_id', true) AS tenant`.execute(
      api.db,
    );
    expect(after.rows[0]?.tenant ?? '').toBe('');
  });

  it('shows only the tenant’s rows to a query without any WHERE clause', async () => {
    for (const table of [
      'admin_user',
      'role',
      'user_role',
      'role_permission',
      'auth_session',
      'auth_token',
      'login_log',
    ] as const) {
      const tenants = await api.tenancy.inTenant(demoId, async (tx) =>
        (await sql<{ tenant_id: string }>`SELECT DISTINCT tenant_id FROM ${sql.table(table)}`.execute(tx)).rows.map(
          (r) => r.tenant_id,
        ),
      );
      expect(tenants, table).toEqual([demoId]);
    }
    const all = await api.db.selectFrom('admin_user').select('tenant_id').distinct().execute();
    expect(all.map((r) => r.tenant_id)).toEqual(expect.arrayContaining([demoId, demo2Id]));
  });

  it('updates and deletes only the tenant’s rows even without a WHERE clause', async () => {
    const changed = await api.tenancy.inTenant(demoId, async (tx) => {
      const r = await sql`UPDATE admin_user SET remark = 'touched by demo'`.execute(tx);
      return Number(r.numAffectedRows);
    });
    const demoUsers = await api.db.selectFrom('admin_user').select('id').where('tenant_id', '=', demoId).execute();
    expect(changed).toBe(demoUsers.length);
    const foreign = await api.db.selectFrom('admin_user').select('remark').where('tenant_id', '=', demo2Id).execute();
    expect(foreign.length).toBeGreaterThan(0);
    expect(foreign.every((r) => r.remark === null)).toBe(true);

    const deleted = await api.tenancy.inTenant(demoId, async (tx) => {
      const r = await sql`DELETE FROM login_log`.execute(tx);
      return Number(r.numAffectedRows);
    });
    expect(deleted).toBeGreaterThan(0);
    const remaining = await api.db.selectFrom('login_log').select('tenant_id').distinct().execute();
    expect(remaining.map((r) => r.tenant_id)).toContain(demo2Id);
    expect(remaining.map((r) => r.tenant_id)).not.toContain(demoId);
  });

  it('refuses to write a row into another tenant', async () => {
    await expect(
      api.tenancy.inTenant(demoId, (tx) =>
        tx.insertInto('role').values({ tenant_id: demo2Id, code: 'intruder', name: 'Intruder' }).execute(),
      ),
    ).rejects.toThrow(/row-level security/);
    await expect(
      api.tenancy.inTenant(demoId, (tx) => sql`UPDATE role SET tenant_id = ${demo2Id}`.execute(tx)),
    ).rejects.toThrow(/row-level security/);
    const roles = await api.db.selectFrom('role').select('code').where('tenant_id', '=', demo2Id).execute();
    expect(roles.map((r) => r.code).sort()).toEqual(['tenant_admin', 'viewer']);
  });

  it('shows platform defaults and only the own tenant’s overrides in hybrid tables', async () => {
    // the platform's rows are the platform tenant's (migration 0070)
    const platformId = (
      await api.db.selectFrom('tenant').select('id').where('code', '=', 'platform').executeTakeFirstOrThrow()
    ).id;
    await sql`INSERT INTO system_setting (tenant_id, key, category, name, value, value_type)
      VALUES (${demo2Id}, 'branding.name', 'branding', 'name', ${JSON.stringify('第二医院后台')}, 'string')`.execute(
      api.db,
    );
    const seenBy = (tenantId: string) =>
      api.tenancy.inTenant(tenantId, (tx) =>
        tx.selectFrom('system_setting').select(['tenant_id', 'value']).where('key', '=', 'branding.name').execute(),
      );
    expect(await seenBy(demoId)).toEqual([{ tenant_id: platformId, value: '医学教育管理后台' }]);
    expect(await seenBy(demo2Id)).toHaveLength(2);
    await api.tenancy.inTenant(demoId, (tx) =>
      sql`UPDATE system_setting SET value = '"hijacked"' WHERE tenant_id = ${platformId}`.execute(tx),
    );
    const platformRow = await api.db
      .selectFrom('system_setting')
      .select('value')
      .where('tenant_id', '=', platformId)
      .where('key', '=', 'branding.name')
      .executeTakeFirstOrThrow();
    expect(platformRow.value).toBe('医学教育管理后台');

    const pub = await api.call('GET', '/api/system/settings/public?tenant=demo2');
    expect(pub.body['branding.name']).toBe('第二医院后台');
    expect(pub.body['branding.nameEn']).toBe('MedEdu Admin');
    expect((await api.call('GET', '/api/system/settings/public?tenant=demo')).body['branding.name']).toBe(
      '医学教育管理后台',
    );
    const platform = await api.call('GET', '/api/system/settings/public');
    expect(platform.body['branding.name']).toBe('医学教育管理后台');
    expect(platform.body['security.lockout.maxAttempts']).toBeUndefined();
  });

  it('sees no tenant rows at all before the tenant is known', async () => {
    const count = await api.tenancy.inPlatformScope(
      async (tx) => (await sql<{ n: string }>`SELECT count(*) AS n FROM admin_user`.execute(tx)).rows[0]?.n,
    );
    expect(count).toBe('0');
  });
});
