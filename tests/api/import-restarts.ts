import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { DatabaseOptions } from '../../server/src/db/database';
import { type ApiServer, type CreateServerOptions, createServer } from '../../server/src/server';
import { roleSheet } from '../support/role-sheet';
import { importForm, type Json, TEST_ID_NUMBER_KEY, type TestEngine, testArgon2 } from './helpers';

type Instance = CreateServerOptions['instance'];

export interface RestartableServer {
  /** The server now running (`start` replaces it). */
  readonly server: ApiServer;
  /** The database every server of the test opens: on PGlite a directory, so that it outlives a server. */
  readonly database: DatabaseOptions;
  /** Another server on the same database and files, not signed in (a second instance). */
  open(instance?: Instance): Promise<ApiServer>;
  /** Opens a server as `server` and signs in as demo's administrator. */
  start(instance?: Instance): Promise<void>;
  call(method: string, url: string, form?: FormData): Promise<{ status: number; body: Json }>;
  /** Starts a role import of `rows` rows coded `<prefix>_…` and answers its job's id (the import runs on). */
  startJob(rows: number, prefix: string, mode?: 'insert' | 'upsert'): Promise<string>;
  /** A role import run to its end: its job's id. */
  runJob(rows: number, prefix: string, mode?: 'insert' | 'upsert'): Promise<string>;
  job(id: string): Promise<Json>;
}

/**
 * The set-up of a test of import jobs across restarts and instances on `engine`: a database that outlives its server
 * (a PGlite directory, or a PostgreSQL database of its own), stored files in a directory of the test's, and a server
 * started on them, signed in as demo's administrator. Registers its own beforeAll and afterAll.
 */
export function restartableServer(engine: TestEngine, name: string): RestartableServer {
  let database: { options: DatabaseOptions; drop(): Promise<void> };
  const filesDir = mkdtempSync(path.join(os.tmpdir(), `medu-${name}-files-`));
  let server: ApiServer;
  let token = '';

  const open = (instance?: Instance) =>
    createServer({
      database: database.options,
      demo: true,
      logger: false,
      instance,
      config: {
        argon2: testArgon2,
        tokenRateLimit: { windowMs: 60_000, max: 10_000 },
        idNumberKey: TEST_ID_NUMBER_KEY,
        dataDir: filesDir,
      },
    });
  const request = (url: string, init: RequestInit) => server.app.fetch(new Request(`http://test.local${url}`, init));
  const start = async (instance?: Instance) => {
    server = await open(instance);
    const res = await request('/api/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'password',
        tenant: 'demo',
        username: 'admin',
        password: 'admin123',
        client_id: 'console',
      }),
    });
    token = ((await res.json()) as { access_token: string }).access_token;
  };
  const call = async (method: string, url: string, form?: FormData) => {
    const res = await request(url, {
      method,
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const startJob = async (rows: number, prefix: string, mode: 'insert' | 'upsert' = 'insert') => {
    const file = new File([new Uint8Array(await roleSheet(rows, prefix))], `${prefix}.xlsx`);
    const started = await call('POST', '/api/system/role/import-jobs', importForm(file, { mode }));
    expect(started.status).toBe(202);
    return started.body.id as string;
  };

  beforeAll(async () => {
    if (engine.name === 'pglite') {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), `medu-${name}-`));
      database = { options: { kind: 'pglite', dataDir }, drop: async () => rmSync(dataDir, { recursive: true }) };
    } else {
      database = await engine.create();
    }
    await start();
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
    rmSync(filesDir, { recursive: true, force: true });
  });

  return {
    get server() {
      return server;
    },
    get database() {
      return database.options;
    },
    open,
    start,
    call,
    startJob,
    async runJob(rows, prefix, mode) {
      const id = await startJob(rows, prefix, mode);
      await server.services.imports.idle();
      return id;
    },
    job: async (id) => (await call('GET', `/api/system/role/import-jobs/${id}`)).body,
  };
}
