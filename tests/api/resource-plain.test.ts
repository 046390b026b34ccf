import { z } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineResource } from '../../server/src/core/resource/define-resource';
import { plainResource } from '../../server/src/core/resource/resource.module';
import { columnsOf } from '../../server/src/core/resource/table.repository';
import { engines, importForm, jsonOf, readXlsx, secondTenant, startApi, type TestApi, xlsxFile } from './helpers';

/** What a plain entity costs: a schema, a table descriptor and a declaration (here over the role table). */
const Team = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  sort: z.number().int(),
  remark: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
  version: z.number().int(),
});
type Team = z.infer<typeof Team>;
const CreateTeam = z
  .object({ code: z.string().min(1).max(50), name: z.string().min(1).max(50), remark: z.string().optional() })
  .strict();
const UpdateTeam = z
  .object({ name: z.string().min(1).max(50), remark: z.string().nullable().optional(), version: z.number().int() })
  .strict();

const teamResource = defineResource({
  path: 'teams',
  type: 'team',
  permission: 'system:admin',
  schemas: { row: Team, create: CreateTeam, update: UpdateTeam },
  table: {
    name: 'role',
    columns: columnsOf(Team),
    softDelete: true,
    tenantOwned: true,
  },
  list: {
    sort: ['code', 'name', 'createdAt'],
    defaultSort: 'code',
    filters: { keyword: { kind: 'keyword', columns: ['code', 'name'] }, code: { kind: 'in', column: 'code' } },
  },
  labels: 'system.role',
  columns: [
    { key: 'code', example: 'nurses' },
    { key: 'name', example: '护理组' },
  ],
  importKey: 'code',
  label: (row) => row.code,
});

describe.each(engines())('a plain resource declared from a table on $name', (engine) => {
  let api: TestApi;
  let admin: string;

  beforeAll(async () => {
    api = await startApi(engine);
    await api.addTenant(secondTenant);
    api.server.app.route('/api', plainResource(teamResource)(api.server.services).routes());
    admin = (await api.tokens('demo', 'admin', 'admin123')).access;
  });
  afterAll(() => api?.close());

  it('lists, creates, updates with locking and deletes softly, with audit rows', async () => {
    const list = await api.call('GET', '/api/teams', { token: admin });
    expect(list.body).toMatchObject({ total: 2, success: true });
    expect(list.body.data.map((t: Team) => t.code)).toEqual(['tenant_admin', 'viewer']);

    const created = await api.call('POST', '/api/teams', { token: admin, body: { code: 'nurses', name: 'Nurses' } });
    expect(created).toMatchObject({ status: 201, body: { code: 'nurses', sort: 0, version: 0 } });
    const updated = await api.call('PUT', `/api/teams/${created.body.id}`, {
      token: admin,
      body: { name: 'Nursing', version: 0 },
    });
    expect(updated.body).toMatchObject({ name: 'Nursing', version: 1 });
    expect(
      (await api.call('PUT', `/api/teams/${created.body.id}`, { token: admin, body: { name: 'x', version: 0 } }))
        .status,
    ).toBe(409);
    expect((await api.call('DELETE', `/api/teams/${created.body.id}`, { token: admin })).status).toBe(204);
    const row = await api.db
      .selectFrom('role')
      .select(['deleted_at', 'tenant_id'])
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).toBeInstanceOf(Date);
    const audit = await api.call('GET', `/api/system/audit-log?resourceType=team&resourceId=${created.body.id}`, {
      token: admin,
    });
    expect(audit.body.data.map((a: { action: string }) => a.action)).toEqual([
      'system:admin:delete',
      'system:admin:update',
      'system:admin:create',
    ]);
  });

  it('exports the filtered set and imports in upsert mode by its key', async () => {
    const file = await api.fetch('GET', '/api/teams/export?code=viewer', { token: admin });
    expect(await readXlsx(await file.arrayBuffer())).toEqual([
      ['角色编码', '角色名称'],
      ['viewer', '访客'],
    ]);

    const form = importForm(
      await xlsxFile([
        ['Code', 'Name'],
        ['viewer', 'Visitors'],
        ['doctors', 'Doctors'],
      ]),
      { mode: 'upsert' },
    );
    const imported = await api.fetch('POST', '/api/teams/import', { token: admin, form });
    expect(await jsonOf(imported)).toEqual({ dryRun: false, created: 1, updated: 1, failed: [] });
    const after = await api.call('GET', '/api/teams?code=viewer,doctors&sort=-code', { token: admin });
    expect(after.body.data.map((t: Team) => [t.code, t.name])).toEqual([
      ['viewer', 'Visitors'],
      ['doctors', 'Doctors'],
    ]);
    const foreign = await api.db
      .selectFrom('role as r')
      .innerJoin('tenant as t', 't.id', 'r.tenant_id')
      .select('r.name')
      .where('t.code', '=', 'demo2')
      .where('r.code', '=', 'viewer')
      .executeTakeFirstOrThrow();
    expect(foreign.name).toBe('访客');
  });
});
