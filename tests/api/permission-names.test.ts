import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
      await api.call('GET', `/api/permissions?keyword=${encodeURIComponent(code)}&type=button`, { token: platform })
    ).body.data.find((p: Node) => p.code === code);

  it('every permission of the tree has a Chinese and an English name, neither of them its code', async () => {
    const tree = await api.call('GET', '/api/permissions/tree', { token: platform });
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
    const created = await api.call('POST', '/api/permissions', {
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
    const found = await api.call('GET', '/api/permissions?keyword=Audit%20trail', { token: platform });
    expect(found.body.data.map((p: Node) => p.code)).toEqual(['system:admin:audit-trail']);
    const tooLong = await api.call('POST', '/api/permissions', {
      token: platform,
      body: { parentId: parent, type: 'button', name: '长', nameEn: 'x'.repeat(101), code: 'system:admin:too-long' },
    });
    expect(tooLong.status).toBe(400);
  });
});
