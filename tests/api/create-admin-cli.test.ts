import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseOptions } from '../../server/src/db/database';
import { type CreateServerOptions, createServer } from '../../server/src/server';
import { roleSheet } from '../support/role-sheet';
import { engines, importForm, type Json, TEST_ID_NUMBER_KEY, testArgon2 } from './helpers';

/**
 * `npm run create-admin` as an operator runs it, in a process of its own with its configuration in the environment:
 * it makes the first platform administrator on the configured database and nothing else. It is a tool beside the
 * servers, not one of them: an import a server is applying stays the server's.
 */
const root = path.resolve(__dirname, '../..');
const PASSWORD = 'Str0ng-enough';

describe.each(engines())('npm run create-admin on $name', (engine) => {
  let database: { options: DatabaseOptions; drop(): Promise<void> };
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'medu-create-admin-'));

  const open = (options: Partial<CreateServerOptions> = {}) =>
    createServer({
      database: database.options,
      logger: false,
      config: { argon2: testArgon2, idNumberKey: TEST_ID_NUMBER_KEY, dataDir },
      ...options,
    });
  const fetchJson = async (server: Awaited<ReturnType<typeof open>>, url: string, init: RequestInit = {}) => {
    const res = await server.app.fetch(new Request(`http://test.local${url}`, init));
    return { status: res.status, body: (await res.json()) as Json };
  };
  const signIn = (server: Awaited<ReturnType<typeof open>>, tenant: string, username: string, password: string) =>
    fetchJson(server, '/api/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', tenant, username, password, client_id: 'console' }),
    });

  beforeAll(async () => {
    database =
      engine.name === 'pglite' ? { options: { kind: 'pglite', dataDir }, drop: async () => {} } : await engine.create();
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // a process of its own that compiles the server and hashes with the real argon2 settings: slow on a busy machine
  it('creates a platform administrator who can sign in, and leaves an import being applied alone', {
    timeout: 240_000,
  }, async () => {
    // a server's import caught between two batches (the state a server applying it is in)
    const server = await open({ demo: true });
    let jobId: string;
    try {
      const { access_token: token } = (await signIn(server, 'demo', 'admin', 'admin123')).body;
      const form = importForm(new File([new Uint8Array(await roleSheet(20, 'busy'))], 'busy.xlsx'));
      const started = await fetchJson(server, '/api/system/role/import-jobs', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      expect(started.status).toBe(202);
      jobId = started.body.id;
      await server.services.imports.idle();
      await server.db
        .updateTable('import_job')
        .set({ status: 'applying', finished_at: null })
        .where('id', '=', jobId)
        .execute();
    } finally {
      await server.close();
    }

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      ID_NUMBER_KEY: TEST_ID_NUMBER_KEY.toString('hex'),
      ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'warn',
    };
    delete env.DATABASE_URL;
    delete env.DATABASE_DIRECT_URL;
    if (database.options.kind === 'postgres') env.DATABASE_URL = database.options.url;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'server/src/db/create-admin-cli.ts', 'ops', 'Night operator'],
      { cwd: root, env, timeout: 200_000 },
    ).catch((err: { code?: number; stderr?: string; stdout?: string }) => {
      throw new Error(`create-admin exited with ${err.code}: ${err.stderr || err.stdout}`);
    });
    expect(stdout).toContain('platform administrator "ops" created');

    // read by a tool too, so that no server's start-up touches the job before it is read
    const tool = await open({ role: 'tool' });
    try {
      const job = await tool.db.selectFrom('import_job').select('status').where('id', '=', jobId).executeTakeFirst();
      expect(job?.status).toBe('applying');
      const signedIn = await signIn(tool, 'platform', 'ops', PASSWORD);
      expect(signedIn.status).toBe(200);
      const me = await fetchJson(tool, '/api/auth/me', {
        headers: { authorization: `Bearer ${signedIn.body.access_token}` },
      });
      expect(me.body).toMatchObject({ userName: 'ops', displayName: 'Night operator', tenant: { code: 'platform' } });
    } finally {
      await tool.close();
    }
  });
});
