import { z } from '@hono/zod-openapi';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineResource } from '../../server/src/core/resource/define-resource';
import { plainResource } from '../../server/src/core/resource/resource.module';
import { columnsOf } from '../../server/src/core/resource/table.repository';
import { APP_ROLE, SYSTEM_ROLE } from '../../server/src/db/migrations/0002_tenancy_rls';
import { runStatements } from '../../server/src/db/migrations/statements';
import type { Audited, Id, Nullable, NullableTimestamp, Ref } from '../../server/src/db/types';
import { engines, importForm, jsonOf, readXlsx, startApi, type TestApi, xlsxFile } from './helpers';

/** `server/src/db/migrations/00NN_gadget.ts`: found by its name, no index to edit. */
const currentTenant = `NULLIF(current_setting('app.tenant_id', true), '')::bigint`;
const gadgetMigration: Migration = {
  up: (db: Kysely<unknown>) =>
    runStatements(db, [
      `CREATE TABLE gadget (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id bigint NOT NULL REFERENCES tenant (id),
        code varchar(20) NOT NULL,
        name varchar(50) NOT NULL,
        description text,
        deleted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by bigint,
        updated_at timestamptz,
        updated_by bigint,
        version int NOT NULL DEFAULT 0)`,
      'CREATE UNIQUE INDEX gadget_code_uq ON gadget (tenant_id, code) WHERE deleted_at IS NULL',
      `GRANT SELECT, INSERT, UPDATE, DELETE ON gadget TO ${APP_ROLE}, ${SYSTEM_ROLE}`,
      'ALTER TABLE gadget ENABLE ROW LEVEL SECURITY',
      'ALTER TABLE gadget FORCE ROW LEVEL SECURITY',
      `CREATE POLICY tenant_isolation ON gadget TO ${APP_ROLE}
         USING (tenant_id = ${currentTenant}) WITH CHECK (tenant_id = ${currentTenant})`,
    ]),
  down: (db: Kysely<unknown>) => runStatements(db, ['DROP TABLE gadget']),
};

// From here to the registry line: `server/src/modules/<area>/gadget/gadget.resource.ts`, the entity's one server file.

/** Its table, made known to the typed schema beside its definition (the definition's columns are checked against it). */
interface GadgetTable extends Audited {
  id: Id;
  tenant_id: Ref;
  code: string;
  name: string;
  description: Nullable<string>;
  deleted_at: NullableTimestamp;
}
declare module '../../server/src/db/types' {
  interface DB {
    gadget: GadgetTable;
  }
}

const Gadget = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
  version: z.number().int(),
});
const CreateGadget = z
  .object({ code: z.string().min(1).max(20), name: z.string().min(1).max(50), description: z.string().optional() })
  .strict();
const UpdateGadget = z
  .object({
    name: z.string().min(1).max(50).optional(),
    description: z.string().nullable().optional(),
    version: z.number().int(),
  })
  .strict();

/**
 * The definition, and nothing else (no repository, service or routes of its own). A real entity names its own prefix
 * and says where its menu sits (`menu: { parent: 'system', order: 7 }`), which seeds its codes; this throwaway one
 * borrows the administrators' codes, which the demo administrator already holds, and the spreadsheet labels of
 * business items.
 */
const gadgets = plainResource(
  defineResource({
    path: 'gadgets',
    permission: 'system:admin',
    schemas: { row: Gadget, create: CreateGadget, update: UpdateGadget },
    table: {
      name: 'gadget',
      columns: columnsOf(Gadget),
      softDelete: true,
      tenantOwned: true,
    },
    list: {
      sort: ['code', 'name', 'createdAt'],
      defaultSort: 'code',
      filters: { keyword: { kind: 'keyword', columns: ['code', 'name'] }, code: { kind: 'in', column: 'code' } },
    },
    importKey: 'code',
    labels: 'dictionary.busiitem',
    columns: [
      { key: 'code', example: 'g-1' },
      { key: 'name', example: '小工具' },
      { key: 'description', example: '' },
    ],
  }),
);

describe.each(engines())('an entity declared once, on a throwaway table, on $name', (engine) => {
  let api: TestApi;
  let admin: string;

  beforeAll(async () => {
    api = await startApi(engine);
    await gadgetMigration.up(api.db as unknown as Kysely<unknown>);
    // the registry line: `gadgets,` in `resources` of server/src/modules/registry.ts, which app.ts mounts so
    api.server.app.route('/api', gadgets(api.server.services).routes());
    admin = (await api.tokens('demo', 'admin', 'admin123')).access;
  });
  afterAll(() => api?.close());

  const call = (method: string, path: string, body?: unknown) =>
    api.call(method, `/api/gadgets${path}`, { token: admin, body });

  it('lists, gets, creates, updates with optimistic locking, deletes one and deletes several', async () => {
    const first = await call('POST', '', { code: 'g-1', name: 'First' });
    expect(first).toMatchObject({ status: 201, body: { code: 'g-1', name: 'First', description: null, version: 0 } });
    const second = await call('POST', '', { code: 'g-2', name: 'Second', description: 'two' });
    const third = await call('POST', '', { code: 'g-3', name: 'Third' });
    expect((await call('POST', '', { code: 'g-1', name: 'Again' })).status).toBe(409);

    const page = await call('GET', '?sort=-code&pageSize=2');
    expect(page.body).toMatchObject({ total: 3, success: true, current: 1, pageSize: 2 });
    expect(page.body.data.map((g: { code: string }) => g.code)).toEqual(['g-3', 'g-2']);
    expect((await call('GET', '?keyword=sec')).body.data).toHaveLength(1);
    expect((await call('GET', '?sort=description')).status).toBe(400);

    expect((await call('GET', `/${second.body.id}`)).body).toMatchObject({ code: 'g-2', description: 'two' });
    const updated = await call('PUT', `/${first.body.id}`, { name: 'Primary', version: 0 });
    expect(updated.body).toMatchObject({ name: 'Primary', version: 1 });
    const stale = await call('PUT', `/${first.body.id}`, { name: 'Stale', version: 0 });
    expect(stale.status).toBe(409);
    expect((await call('GET', `/${first.body.id}`)).body.name).toBe('Primary');

    expect((await call('DELETE', `/${third.body.id}`)).status).toBe(204);
    expect((await call('GET', `/${third.body.id}`)).status).toBe(404);
    const deleted = await call('POST', '/batch-delete', { ids: [first.body.id, second.body.id] });
    expect(deleted.body).toEqual({ deleted: 2 });
    expect((await call('GET', '')).body.total).toBe(0);

    const trail = await api.call('GET', `/api/system/audit-log?resourceType=gadget&resourceId=${first.body.id}`, {
      token: admin,
    });
    expect(trail.body.data.map((a: { action: string }) => a.action)).toEqual([
      'system:admin:delete',
      'system:admin:update',
      'system:admin:create',
    ]);
  });

  it('gives a template, imports by its key and exports, with the console labels as headers', async () => {
    const template = await api.fetch('GET', '/api/gadgets/import-template', { token: admin });
    expect(await readXlsx(await template.arrayBuffer())).toEqual([
      ['编码', '名称', '说明'],
      ['g-1', '小工具', ''],
    ]);

    const file = await xlsxFile([
      ['Code', 'Name', 'Description'],
      ['k-1', 'Kettle', 'boils'],
      ['k-2', 'Knife', null],
    ]);
    const imported = await api.fetch('POST', '/api/gadgets/import', { token: admin, form: importForm(file) });
    expect(await jsonOf(imported)).toEqual({ dryRun: false, created: 2, updated: 0, failed: [] });
    const again = await xlsxFile([
      ['编码', '名称'],
      ['k-1', 'Kettle 2'],
    ]);
    const upserted = await api.fetch('POST', '/api/gadgets/import', {
      token: admin,
      form: importForm(again, { mode: 'upsert' }),
    });
    expect(await jsonOf(upserted)).toEqual({ dryRun: false, created: 0, updated: 1, failed: [] });

    const exported = await api.fetch('GET', '/api/gadgets/export?sort=code', {
      token: admin,
      headers: { 'accept-language': 'en-US' },
    });
    expect(await readXlsx(await exported.arrayBuffer())).toEqual([
      ['Code', 'Name', 'Description'],
      ['k-1', 'Kettle 2', 'boils'],
      ['k-2', 'Knife'],
    ]);
  });
});
