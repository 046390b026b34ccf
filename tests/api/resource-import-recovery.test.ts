import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseOptions } from '../../server/src/db/database';
import { type ApiServer, createServer } from '../../server/src/server';
import { roleSheet } from '../support/role-sheet';
import { engines, importForm, type Json, TEST_ID_NUMBER_KEY, testArgon2 } from './helpers';

/**
 * A process that stops in the middle of an import job leaves it `applying`, with some batches written and audited
 * under the job's trace. The next process to start on the database ends it as failed (`import.interrupted`) and undoes
 * those batches, so the import stays all or nothing. The stop is staged: a job that ran to its end is set back to
 * `applying` (what a process stopped before its last step leaves), another to `validating`.
 */
describe.each(engines())('import jobs interrupted by a restart, on $name', (engine) => {
  let database: { options: DatabaseOptions; drop(): Promise<void> };
  let server: ApiServer;
  let token: string;

  const start = async () => {
    server = await createServer({
      database: database.options,
      demo: true,
      logger: false,
      config: {
        argon2: testArgon2,
        tokenRateLimit: { windowMs: 60_000, max: 10_000 },
        idNumberKey: TEST_ID_NUMBER_KEY,
      },
    });
    const res = await server.app.fetch(
      new Request('http://test.local/api/auth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'password',
          tenant: 'demo',
          username: 'admin',
          password: 'admin123',
          client_id: 'console',
        }),
      }),
    );
    token = ((await res.json()) as { access_token: string }).access_token;
  };
  const call = async (method: string, url: string, form?: FormData) => {
    const res = await server.app.fetch(
      new Request(`http://test.local${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
        body: form,
      }),
    );
    return { status: res.status, body: (await res.json()) as Json };
  };
  const runJob = async (rows: number, prefix: string, mode: 'insert' | 'upsert' = 'insert') => {
    const file = new File([new Uint8Array(await roleSheet(rows, prefix))], `${prefix}.xlsx`);
    const started = await call('POST', '/api/system/role/import-jobs', importForm(file, { mode }));
    expect(started.status).toBe(202);
    await server.services.imports.idle();
    return started.body.id as string;
  };
  const liveRoles = () =>
    server.db
      .selectFrom('role')
      .select(['code', 'name', 'remark', 'version'])
      .where('deleted_at', 'is', null)
      .orderBy('code')
      .execute();
  const setStatus = (id: string, status: 'applying' | 'validating') =>
    server.db.updateTable('import_job').set({ status, finished_at: null }).where('id', '=', id).execute();

  beforeAll(async () => {
    if (engine.name === 'pglite') {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'medu-recovery-'));
      database = { options: { kind: 'pglite', dataDir }, drop: async () => rmSync(dataDir, { recursive: true }) };
    } else {
      database = await engine.create();
    }
    await start();
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('undoes what an interrupted job applied and ends it as failed; a job still validating just fails', async () => {
    await runJob(150, 'kept');
    const before = await liveRoles();
    // Upsert over the kept roles (updated) and new ones (created), in several batches.
    const file = new File([new Uint8Array(await roleSheet(450, 'kept'))], 'again.xlsx');
    const upsert = await call('POST', '/api/system/role/import-jobs', importForm(file, { mode: 'upsert' }));
    await server.services.imports.idle();
    const applied = upsert.body.id as string;
    expect((await call('GET', `/api/system/role/import-jobs/${applied}`)).body).toMatchObject({
      status: 'done',
      report: { created: 300, updated: 150 },
    });
    const validating = await runJob(20, 'never');
    await setStatus(applied, 'applying');
    await setStatus(validating, 'validating');
    expect((await liveRoles()).length).toBe(before.length + 300 + 20);

    await server.close();
    await start();
    await server.services.imports.idle();

    const interrupted = (await call('GET', `/api/system/role/import-jobs/${applied}`)).body;
    expect(interrupted).toMatchObject({
      status: 'failed',
      report: { created: 0, updated: 0, error: { code: 'import.interrupted' } },
    });
    expect(interrupted.finishedAt).toBeTruthy();
    expect((await call('GET', `/api/system/role/import-jobs/${validating}`)).body).toMatchObject({
      status: 'failed',
      report: { error: { code: 'import.interrupted' } },
    });
    // The interrupted job's rows are gone or back as they were (versions move on); the other job's rows stay.
    const after = await liveRoles();
    const strip = (rows: { code: string; name: string; remark: string | null }[]) =>
      rows.map(({ code, name, remark }) => ({ code, name, remark }));
    expect(strip(after.filter((r) => !r.code.startsWith('never_')))).toEqual(strip(before));
    expect(after.filter((r) => r.code.startsWith('never_'))).toHaveLength(20);
    const undone = await server.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('trace_id', '=', `import:${applied}:undo`)
      .executeTakeFirstOrThrow();
    expect(Number(undone.n)).toBe(450);

    // A second restart finds nothing left to do.
    await server.close();
    await start();
    expect(await server.services.imports.recover(new Map())).toBe(0);
  });
});
