import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, secondTenant, startApi, type TestApi } from './helpers';

const DAY = 86_400_000;
const MARK = 'retention-test';
const en = { 'accept-language': 'en-US' };

describe.each(engines())('retention on $name', (engine) => {
  let api: TestApi;
  let platform: string;
  let demo: string;
  const tenants: Record<string, string> = {};
  /** Each tenant's administrator: a message's recipient. */
  const admins: Record<string, string> = {};
  let templateId = '';
  const now = new Date();
  const ago = (days: number) => new Date(now.getTime() - days * DAY);

  beforeAll(async () => {
    api = await startApi(engine);
    await api.addTenant(secondTenant);
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
    for (const t of await api.db.selectFrom('tenant').select(['id', 'code']).execute()) tenants[t.code] = t.id;
    for (const code of ['demo', 'demo2']) admins[code] = await api.userId(code, 'admin');
    templateId = (await api.db.selectFrom('message_template').select('id').limit(1).executeTakeFirstOrThrow()).id;
  });
  afterAll(() => api?.close());

  const purge = (batch?: number) => api.server.services.retention.purge(now, { batch });
  const removed = (counts: Awaited<ReturnType<typeof purge>>) =>
    Object.fromEntries(counts.map((c) => [c.table, c.removed]));

  const auditRows = (tenant: string, ...ages: number[]) =>
    api.db
      .insertInto('audit_log')
      .values(
        ages.map((age) => ({
          tenant_id: tenants[tenant] as string,
          action: MARK,
          resource_type: 'test',
          summary: `${age}`,
          created_at: ago(age),
        })),
      )
      .execute();
  const loginRows = (tenant: string, ...ages: number[]) =>
    api.db
      .insertInto('login_log')
      .values(
        ages.map((age) => ({
          tenant_id: tenants[tenant] as string,
          username: MARK,
          log_type: 'login_password' as const,
          result: `${age}`,
          created_at: ago(age),
        })),
      )
      .execute();
  /** The ages (days) of the marked rows left, by tenant code. */
  const left = async (table: 'audit_log' | 'login_log') => {
    const rows =
      table === 'audit_log'
        ? await api.db
            .selectFrom('audit_log')
            .select(['tenant_id', 'summary as age'])
            .where('action', '=', MARK)
            .execute()
        : await api.db
            .selectFrom('login_log')
            .select(['tenant_id', 'result as age'])
            .where('username', '=', MARK)
            .execute();
    const codes = Object.fromEntries(Object.entries(tenants).map(([code, id]) => [id, code]));
    const out: Record<string, number[]> = {};
    for (const r of rows) {
      const code = codes[r.tenant_id as string] as string;
      out[code] = [...(out[code] ?? []), Number(r.age)].sort((a, b) => a - b);
    }
    return out;
  };
  const clear = async () => {
    await api.db.deleteFrom('audit_log').where('action', '=', MARK).execute();
    await api.db.deleteFrom('login_log').where('username', '=', MARK).execute();
  };

  const batch = async (tenant: string, age: number, status: 'completed' | 'sending') =>
    (
      await api.db
        .insertInto('message_batch')
        .values({
          tenant_id: tenants[tenant] as string,
          name: `${MARK} ${age}`,
          template_id: templateId,
          template_code: MARK,
          channel: 'in_app',
          // as the column's text: the table's type is the parsed audience
          audience: JSON.stringify({ userIds: [] }) as never,
          status,
          created_at: ago(age),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const message = (tenant: string, age: number, status: string, batchId: string | null = null) =>
    api.db
      .insertInto('message')
      .values({
        tenant_id: tenants[tenant] as string,
        batch_id: batchId,
        template_code: MARK,
        channel: 'in_app',
        recipient_type: 'admin_user',
        recipient_id: admins[tenant] as string,
        content: `${status} ${age}`,
        status: status as 'sent',
        created_at: ago(age),
      })
      .execute();

  const setting = (token: string, key: string, value: unknown, headers: Record<string, string> = en) =>
    api.call('PUT', `/api/system/settings/${key}`, { token, body: { value }, headers });

  it('removes the rows older than the defaults in every tenant and keeps the younger ones', async () => {
    for (const tenant of ['demo', 'demo2', 'platform']) {
      await auditRows(tenant, 2000, 1100, 1096, 1094, 10);
      await loginRows(tenant, 800, 366, 364, 1);
    }
    const counts = await purge();
    expect(removed(counts)).toMatchObject({ audit_log: 9, login_log: 6 });
    const keptAudit = [10, 1094];
    expect(await left('audit_log')).toEqual({ demo: keptAudit, demo2: keptAudit, platform: keptAudit });
    expect(await left('login_log')).toEqual({ demo: [1, 364], demo2: [1, 364], platform: [1, 364] });
    // what the server itself logged today stays
    expect(await api.db.selectFrom('login_log').select('id').where('username', '=', 'admin').execute()).not.toEqual([]);
    // and a second run finds nothing more
    expect(removed(await purge())).toEqual({ audit_log: 0, login_log: 0, message: 0, message_batch: 0 });
    await clear();
  });

  it('removes the messages no longer waiting to be sent, then the finished batches left without any', async () => {
    for (const tenant of ['demo', 'demo2']) {
      const gone = await batch(tenant, 400, 'completed');
      await message(tenant, 400, 'sent', gone);
      await message(tenant, 400, 'read', gone);
      const waiting = await batch(tenant, 400, 'sending');
      await message(tenant, 400, 'failed', waiting);
      await message(tenant, 400, 'queued', waiting);
      const young = await batch(tenant, 10, 'completed');
      await message(tenant, 10, 'sent', young);
      await message(tenant, 400, 'delivered');
      await message(tenant, 366, 'cancelled');
      await message(tenant, 364, 'read');
    }
    const counts = await purge();
    expect(removed(counts)).toMatchObject({ message: 10, message_batch: 2 });
    const messages = await api.db
      .selectFrom('message')
      .select(['tenant_id', 'content'])
      .where('template_code', '=', MARK)
      .orderBy('content')
      .execute();
    const kept = ['queued 400', 'read 364', 'sent 10'];
    expect(messages.filter((m) => m.tenant_id === tenants.demo).map((m) => m.content)).toEqual(kept);
    expect(messages.filter((m) => m.tenant_id === tenants.demo2).map((m) => m.content)).toEqual(kept);
    const batches = await api.db
      .selectFrom('message_batch')
      .select('name')
      .where('template_code', '=', MARK)
      .orderBy('name')
      .execute();
    expect(batches.map((b) => b.name)).toEqual([`${MARK} 10`, `${MARK} 10`, `${MARK} 400`, `${MARK} 400`]);
  });

  it('works in batches of the given size, each statement its own transaction', async () => {
    await auditRows('demo', 1500, 1400, 1300, 1200, 1100, 5);
    await auditRows('demo2', 1500, 1400, 1300, 5);
    await loginRows('demo', 500, 400, 5);
    const counts = await purge(2);
    const audit = counts.find((c) => c.table === 'audit_log');
    // demo: 2 + 2 + 1; demo2: 2 + 1
    expect(audit).toMatchObject({ removed: 8, batches: 5 });
    expect(counts.find((c) => c.table === 'login_log')).toMatchObject({ removed: 2, batches: 1 });
    expect(await left('audit_log')).toEqual({ demo: [5], demo2: [5] });
    expect(audit?.slowestMs).toBeLessThan(1000);
    await clear();
  });

  it('purges by the setting as the platform changes it through the API, and counts it in the metrics', async () => {
    const metric = async () =>
      Number(
        (await api.server.services.metrics.text()).match(
          /^medu_retention_purged_rows_total\{table="audit_log"\} (\d+)$/m,
        )?.[1] ?? 0,
      );
    const before = await metric();
    await auditRows('demo', 400, 250, 150);
    await loginRows('demo2', 250, 190, 170);
    expect(removed(await purge())).toMatchObject({ audit_log: 0, login_log: 0 });

    expect((await setting(platform, 'retention.auditLogDays', 200)).status).toBe(200);
    expect((await setting(platform, 'retention.loginLogDays', 180)).body).toMatchObject({ value: 180 });
    expect(removed(await purge())).toMatchObject({ audit_log: 2, login_log: 2 });
    expect(await left('audit_log')).toEqual({ demo: [150] });
    expect(await left('login_log')).toEqual({ demo2: [170] });
    expect(await metric()).toBe(before + 2);

    expect((await setting(platform, 'retention.deliveredMessageDays', 30)).status).toBe(200);
    expect(removed(await purge())).toMatchObject({ message: 2, message_batch: 0 });
    await clear();
  });

  it('refuses less than 180 days of logs, saying why, and leaves retention to the platform', async () => {
    for (const key of ['retention.auditLogDays', 'retention.loginLogDays']) {
      const refused = await setting(platform, key, 179);
      expect(refused.status, key).toBe(400);
      expect(refused.body.fields, key).toEqual([
        { field: 'value', message: expect.stringMatching(/^must be at least 180: China's MLPS 2.0 .* 6 months$/) },
      ]);
      const zh = await setting(platform, key, 90, { 'accept-language': 'zh-CN' });
      expect(zh.body.fields[0].message, key).toMatch(/^不能小于 180：等保 2\.0 要求.*至少保存 6 个月$/);
    }
    expect((await setting(platform, 'retention.deliveredMessageDays', 29)).body.fields).toEqual([
      { field: 'value', message: 'must be at least 30' },
    ]);
    expect((await setting(platform, 'retention.auditLogDays', 36501)).status).toBe(400);
    const tenant = await setting(demo, 'retention.auditLogDays', 3650);
    expect(tenant).toMatchObject({ status: 403, body: { code: 'setting.notOverridable' } });
    const listed = await api.call('GET', '/api/system/settings?category=privacy', { token: platform });
    expect(listed.body.data.map((s: { key: string; value: number }) => [s.key, s.value])).toEqual([
      ['retention.auditLogDays', 200],
      ['retention.loginLogDays', 180],
      ['retention.deliveredMessageDays', 30],
    ]);
  });
});
