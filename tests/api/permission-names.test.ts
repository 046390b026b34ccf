import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as areaNames from '../../server/src/db/migrations/0012_area_names';
import { seedBase } from '../../server/src/db/seed/base';
import { engines, startApi, type TestApi } from './helpers';

interface Node {
  code: string | null;
  name: string;
  nameEn: string | null;
  children: Node[];
}

const flatten = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

describe.each(engines())('permission names on $name', (engine) => {
  let api: TestApi;
  let platform: string;

  beforeAll(async () => {
    api = await startApi(engine);
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
  });
  afterAll(() => api?.close());

  const byCode = async (code: string) =>
    (
      await api.call('GET', `/api/system/permission?keyword=${encodeURIComponent(code)}&type=button`, {
        token: platform,
      })
    ).body.data.find((p: Node) => p.code === code);

  it('every permission of the tree has a Chinese and an English name, neither of them its code', async () => {
    const tree = await api.call('GET', '/api/system/permission/tree', { token: platform });
    const nodes = flatten(tree.body);
    expect(nodes.length).toBeGreaterThan(100);
    const unnamed = nodes.filter((n) => !n.name || !n.nameEn || n.name === n.code || n.nameEn === n.code);
    expect(unnamed.map((n) => n.code)).toEqual([]);
    expect(await byCode('system:admin:create')).toMatchObject({ name: '新增', nameEn: 'Create' });
    expect(await byCode('system:tenant-package:create')).toMatchObject({
      name: '套餐：新增',
      nameEn: 'Packages: Create',
    });
  });

  it('names an older database on start and keeps the names an operator wrote', async () => {
    // as a database from before the English names: buttons named by their code, no English name
    await sql`UPDATE permission SET name = code, name_en = NULL WHERE type = 'button'`.execute(api.db);
    await sql`UPDATE permission SET name = '我的权限名', name_en = 'My name' WHERE code = 'system:admin:delete'`.execute(
      api.db,
    );
    await sql`UPDATE permission SET name = '只改了中文' WHERE code = 'system:admin:export'`.execute(api.db);
    await api.tenancy.asSystem(seedBase);
    expect(await byCode('system:admin:create')).toMatchObject({ name: '新增', nameEn: 'Create' });
    expect(await byCode('system:admin:delete')).toMatchObject({ name: '我的权限名', nameEn: 'My name' });
    expect(await byCode('system:admin:export')).toMatchObject({ name: '只改了中文', nameEn: 'Export' });
  });

  it('an operator gives a new permission its English name, and searching finds it', async () => {
    const parent = (await byCode('system:admin:create')).parentId;
    const created = await api.call('POST', '/api/system/permission', {
      token: platform,
      body: {
        parentId: parent,
        type: 'button',
        name: '审计',
        nameEn: 'Audit trail',
        code: 'system:admin:audit-trail',
        localeKey: 'x.audit',
      },
    });
    expect(created).toMatchObject({ status: 201, body: { nameEn: 'Audit trail' } });
    const found = await api.call('GET', '/api/system/permission?keyword=Audit%20trail', { token: platform });
    expect(found.body.data.map((p: Node) => p.code)).toEqual(['system:admin:audit-trail']);
    const tooLong = await api.call('POST', '/api/system/permission', {
      token: platform,
      body: { parentId: parent, type: 'button', name: '长', nameEn: 'x'.repeat(101), code: 'system:admin:too-long' },
    });
    expect(tooLong.status).toBe(400);
  });

  it('a database from before the area names keeps every grant under the new codes', async () => {
    const grants = sql<{ code: string; id: string }>`SELECT p.code, p.id::text AS id FROM role_permission rp
      JOIN permission p ON p.id = rp.permission_id JOIN role r ON r.id = rp.role_id AND r.tenant_id = rp.tenant_id
      WHERE r.code = 'tenant_admin' AND p.code LIKE ANY (ARRAY['dict%', 'dictionary%', 'system:setting%'])
      ORDER BY p.code`;
    const now = (await grants.execute(api.db)).rows;
    expect(now.map((g) => g.code)).toContain('dictionary:syscode:item-create');
    expect(now.map((g) => g.code)).toContain('system:settings:update');
    const count = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM permission`.execute(api.db)).rows[0]?.n;
    const before = await count();

    const migrating = api.db as unknown as Kysely<unknown>;
    await areaNames.down(migrating);
    const old = (await grants.execute(api.db)).rows;
    expect(old.map((g) => g.code)).toContain('dict:code:item-create');
    expect(old.map((g) => g.code)).toContain('system:setting:update');

    await areaNames.up(migrating);
    await api.tenancy.asSystem(seedBase);
    expect((await grants.execute(api.db)).rows).toEqual(now);
    expect(await count()).toBe(before);
  });
});
