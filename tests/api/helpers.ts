import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import ExcelJS from 'exceljs';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import type { Config } from '../../server/src/config';
import type { InstanceTiming } from '../../server/src/core/instances';
import { createPasswordHasher } from '../../server/src/core/password';
import { createTenancy, type Tenancy } from '../../server/src/core/tenancy';
import type { DatabaseOptions } from '../../server/src/db/database';
import { seedTenant, type TenantSeed } from '../../server/src/db/seed/demo';
import type { DB } from '../../server/src/db/types';
import { type ApiServer, createServer } from '../../server/src/server';
// the templates the suite's global set-up provides (ProvidedContext)
import type {} from '../setup/api-templates';

export const testArgon2 = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

export interface TestEngine {
  name: 'pglite' | 'postgres';
  /**
   * A fresh database for one test file, its migrations applied (a copy of the suite's template,
   * tests/setup/api-templates.ts), or with nothing in it when `empty`; `drop` removes it.
   */
  create(options?: { empty?: boolean }): Promise<{ options: DatabaseOptions; drop(): Promise<void> }>;
}

let pgliteTemplate: Blob | undefined;

/** PGlite in memory always; PostgreSQL too when TEST_DATABASE_URL is set (one throwaway database per call). */
export function engines(): TestEngine[] {
  const list: TestEngine[] = [
    {
      name: 'pglite',
      create: async ({ empty = false } = {}) => {
        pgliteTemplate ??= new Blob([readFileSync(inject('pgliteTemplate'))]);
        return { options: { kind: 'memory', from: empty ? undefined : pgliteTemplate }, drop: async () => {} };
      },
    },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    list.push({
      name: 'postgres',
      async create({ empty = false } = {}) {
        const name = `medu_test_${randomBytes(6).toString('hex')}`;
        const template = inject('postgresTemplate');
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${name}${empty || !template ? '' : ` TEMPLATE ${template}`}`);
        await admin.end();
        const target = new URL(url);
        target.pathname = `/${name}`;
        return {
          options: { kind: 'postgres', url: target.toString() },
          async drop() {
            const c = new pg.Client({ connectionString: url });
            await c.connect();
            await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            await c.end();
          },
        };
      },
    });
  }
  return list;
}

/** A clock the server reads for expiry and lockout; tests move it forward. */
export function testClock(start = Date.now()) {
  let t = start;
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
  };
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/**
 * A JSON answer as tests read it (every path may be followed; the assertions check what is there). The one
 * unchecked type of the API tests, named once here.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Json = any;

export interface Answer<T = Json> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApi {
  server: ApiServer;
  /** The database it is on, for another instance on the same one (startApi's `database`). */
  database: DatabaseOptions;
  db: Kysely<DB>;
  tenancy: Tenancy;
  call<T = Json>(method: string, path: string, options?: CallOptions): Promise<Answer<T>>;
  /** The raw response (spreadsheets, files); `form` is sent as multipart, `body` as it is (an upload). */
  fetch(
    method: string,
    path: string,
    options?: { token?: string; form?: FormData; body?: Uint8Array | Blob; headers?: Record<string, string> },
  ): Promise<Response>;
  signIn(tenant: string, username: string, password: string, headers?: Record<string, string>): Promise<Answer>;
  /** Signs in and returns the tokens, failing the test when sign-in fails. */
  tokens(tenant: string, username: string, password: string): Promise<{ access: string; refresh: string }>;
  addTenant(seed: TenantSeed): Promise<string>;
  userId(tenantCode: string, username: string): Promise<string>;
  close(): Promise<void>;
}

/** The ID-number key of every test server (PostgreSQL refuses to start without one). */
export const TEST_ID_NUMBER_KEY = Buffer.alloc(32, 7);

export async function startApi(
  engine: TestEngine,
  options: {
    demo?: boolean;
    demoContent?: boolean;
    config?: Partial<Config>;
    /** Another instance on the database of a server started before (its `database`); closing it leaves the database. */
    database?: DatabaseOptions;
    /** The instance's heartbeat timing (createServer's `instance`). */
    instance?: Partial<InstanceTiming>;
  } = {},
): Promise<TestApi> {
  const database = options.database ? { options: options.database, drop: async () => {} } : await engine.create();
  // stored files (the built-in local disk) go to a directory of this server's own, removed with it
  const dataDir = mkdtempSync(path.join(tmpdir(), 'medu-files-'));
  let server: ApiServer;
  try {
    server = await createServer({
      database: database.options,
      demo: options.demo ?? true,
      demoContent: options.demoContent,
      instance: options.instance,
      logger: false,
      config: {
        argon2: testArgon2,
        tokenRateLimit: { windowMs: 60_000, max: 10_000 },
        idNumberKey: TEST_ID_NUMBER_KEY,
        dataDir,
        ...options.config,
      },
    });
  } catch (err) {
    await database.drop();
    throw err;
  }
  const tenancy = createTenancy(server.db);
  const hasher = createPasswordHasher(testArgon2);

  const call = async (method: string, path: string, o: CallOptions = {}): Promise<Answer> => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    } else if (o.rawBody !== undefined) {
      headers['content-type'] ??= 'application/json';
    }
    const res = await server.app.fetch(new Request(`http://test.local${path}`, { method, headers, body }));
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON (docs page, assets)
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };

  const signIn = (tenant: string, username: string, password: string, headers?: Record<string, string>) =>
    call('POST', '/api/auth/token', {
      body: { grant_type: 'password', tenant, username, password, client_id: 'console' },
      headers,
    });

  return {
    server,
    database: database.options,
    db: server.db,
    tenancy,
    call,
    fetch: async (method, path, o = {}) =>
      server.app.fetch(
        new Request(`http://test.local${path}`, {
          method,
          headers: { ...o.headers, ...(o.token && { authorization: `Bearer ${o.token}` }) },
          body: o.form ?? o.body,
        }),
      ),
    signIn,
    async tokens(tenant, username, password) {
      const res = await signIn(tenant, username, password);
      if (res.status !== 200)
        throw new Error(`sign-in of ${tenant}/${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { access: res.body.access_token, refresh: res.body.refresh_token };
    },
    addTenant: (seed) => tenancy.asSystem((tx) => seedTenant(tx, hasher, seed)),
    async userId(tenantCode, username) {
      const row = await server.db
        .selectFrom('admin_user as u')
        .innerJoin('tenant as t', 't.id', 'u.tenant_id')
        .select('u.id')
        .where('t.code', '=', tenantCode)
        .where('u.username', '=', username)
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async close() {
      await server.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const secondTenant: TenantSeed = {
  code: 'demo2',
  name: '第二医院',
  users: [
    { username: 'admin', password: 'admin123', displayName: '二院管理员', roleCode: 'tenant_admin' },
    { username: 'nurse', password: 'nurse123', displayName: '护士', roleCode: 'viewer' },
  ],
};

/** The first worksheet as rows of cell text (header first). */
export async function readXlsx(data: ArrayBuffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(data);
  const sheet = workbook.worksheets[0];
  const rows: string[][] = [];
  sheet?.eachRow((row) => {
    const cells: string[] = [];
    for (let i = 1; i <= row.cellCount; i++) cells.push(row.getCell(i).text);
    rows.push(cells);
  });
  return rows;
}

export async function xlsxFile(rows: (string | number | null)[][], name = 'import.xlsx'): Promise<File> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  for (const row of rows) sheet.addRow(row);
  const buffer = await workbook.xlsx.writeBuffer();
  return new File([new Uint8Array(buffer)], name, {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
}

export function importForm(file: File, fields: { dryRun?: boolean; mode?: 'insert' | 'upsert' } = {}): FormData {
  const form = new FormData();
  form.set('file', file);
  if (fields.dryRun !== undefined) form.set('dryRun', String(fields.dryRun));
  if (fields.mode) form.set('mode', fields.mode);
  return form;
}

export const jsonOf = (res: Response): Promise<Json> => res.json();

export interface TwoTenants {
  api: TestApi;
  demo: string;
  other: string;
  viewer: string;
  call(method: string, path: string, body?: unknown, token?: string): Promise<Answer>;
  create(path: string, body: Record<string, unknown>): Promise<Json>;
}

/**
 * The set-up of an area's API test on `engine`: the demo tenant and a second one (`secondTenant`), with the tokens of
 * demo's administrator (`demo`, which `call` sends unless given another), demo's viewer (`viewer`) and the second
 * tenant's administrator (`other`); calls in English; the server started with `options`. Registers its own beforeAll
 * and afterAll.
 */
export function twoTenants(engine: TestEngine, options?: Parameters<typeof startApi>[1]): TwoTenants {
  const session: TwoTenants = {
    api: undefined as unknown as TestApi,
    demo: '',
    other: '',
    viewer: '',
    call: (method: string, path: string, body?: unknown, token = session.demo) =>
      session.api.call(method, path, { token, body, headers: { 'accept-language': 'en-US' } }),
    /** POSTs `body` to `path` as demo's administrator, expecting it created. */
    create: async (path: string, body: Record<string, unknown>): Promise<Json> => {
      const res = await session.call('POST', path, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    },
  };
  beforeAll(async () => {
    session.api = await startApi(engine, options);
    await session.api.addTenant(secondTenant);
    session.demo = (await session.api.tokens('demo', 'admin', 'admin123')).access;
    session.other = (await session.api.tokens('demo2', 'admin', 'admin123')).access;
    session.viewer = (await session.api.tokens('demo', 'viewer', 'viewer123')).access;
  });
  afterAll(() => session.api?.close());
  return session;
}

/**
 * Every statement the server sends to either engine while `work` runs: PGlite's queries and simple queries (exec),
 * pg's by text or as a query config.
 */
export async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  type Method = (...args: unknown[]) => unknown;
  const targets = [
    [PGlite.prototype, 'query'],
    [PGlite.prototype, 'exec'],
    [pg.Client.prototype, 'query'],
  ] as unknown as [Record<string, Method>, string][];
  const originals = targets.map(([target, name]) => target[name] as Method);
  targets.forEach(([target, name], i) => {
    target[name] = function (this: unknown, text: unknown, ...rest: unknown[]) {
      if (typeof text === 'string') seen.push(text);
      else if (text && typeof (text as { text?: unknown }).text === 'string')
        seen.push((text as { text: string }).text);
      return originals[i]?.call(this, text, ...rest);
    };
  });
  try {
    await work();
  } finally {
    targets.forEach(([target, name], i) => {
      target[name] = originals[i] as Method;
    });
  }
  return seen;
}

/**
 * A reviewer of the question bank in `tenant`, made by its administrator (`admin`'s token), signed in: who approves a
 * question the administrator wrote and submitted (its author and submitter may not decide on it).
 */
export async function questionReviewer(api: TestApi, tenant: string, admin: string): Promise<string> {
  const made = async (path: string, body: unknown, method = 'POST') => {
    const res = await api.call(method, path, { token: admin, body });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body as Json;
  };
  const role = await made('/api/system/role', { code: 'question_reviewer', name: '题目审核' });
  const permissions = await api.db
    .selectFrom('permission')
    .select('id')
    .where('code', 'in', ['assess:question:list', 'assess:question:review'])
    .execute();
  await made(`/api/system/role/${role.id}/permissions`, { permissionIds: permissions.map((p) => String(p.id)) }, 'PUT');
  await made('/api/system/admin', {
    userName: 'question_reviewer',
    displayName: '审核专家',
    password: 'Quiet-Otter-42',
    roleIds: [role.id],
    mustChangePassword: false,
  });
  return (await api.tokens(tenant, 'question_reviewer', 'Quiet-Otter-42')).access;
}
