import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvalidation } from '../../server/src/core/invalidation';
import { type DatabaseOptions, openDatabase } from '../../server/src/db/database';
import { type Answer, engines, startApi, type TestApi, type TestEngine } from './helpers';

const en = { 'accept-language': 'en-US' };
/** Long enough that no cache entry expires during the file: only a notification can make B see A's change. */
const config = { authCacheTtlMs: 600_000 };

/** Asks `ask` until its answer satisfies `done`, for one second at most: the answer of the last try. */
async function withinOneSecond(ask: () => Promise<Answer>, done: (answer: Answer) => boolean): Promise<Answer> {
  const until = Date.now() + 1_000;
  let answer = await ask();
  while (!done(answer) && Date.now() < until) {
    await sleep(20);
    answer = await ask();
  }
  return answer;
}

/** The backends of the instances' invalidation listeners on `database`. */
async function listeners(database: DatabaseOptions): Promise<number[]> {
  if (database.kind !== 'postgres') throw new Error('PostgreSQL only');
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'medu-invalidation'`,
    );
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

async function terminate(database: DatabaseOptions, pids: number[]): Promise<void> {
  if (database.kind !== 'postgres') throw new Error('PostgreSQL only');
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
  await client.end();
}

/**
 * PostgreSQL only (skipped without TEST_DATABASE_URL): the embedded database has one process, which no second instance
 * can share; within one instance a change is seen on the next request (principal-cache.test.ts, error-codes.test.ts).
 */
const postgres = engines().find((e) => e.name === 'postgres');

describe.skipIf(!postgres)('changes reach every instance on PostgreSQL', () => {
  const engine = postgres as TestEngine;
  let a: TestApi;
  let b: TestApi;
  let admin: string;
  let platform: string;
  let listPermission: string;
  let serial = 0;

  const LIST = '/api/system/admin?current=1&pageSize=5';
  const refused = (status: number) => (answer: Answer) => answer.status === status;

  /** A new user of tenant demo who may list admins through a role of their own; signed in, cached by B. */
  async function lister() {
    const tag = `u${++serial}`;
    const role = await a.call('POST', '/api/system/role', { token: admin, body: { code: tag, name: `Role ${tag}` } });
    expect(role.status).toBe(201);
    const grant = { permissionIds: [listPermission] };
    expect(
      (await a.call('PUT', `/api/system/role/${role.body.id}/permissions`, { token: admin, body: grant })).status,
    ).toBe(200);
    const user = await a.call('POST', '/api/system/admin', {
      token: admin,
      body: {
        userName: tag,
        displayName: tag,
        password: 'Quiet-Otter-42',
        roleIds: [role.body.id],
        mustChangePassword: false,
      },
    });
    expect(user.status).toBe(201);
    const { access } = await a.tokens('demo', tag, 'Quiet-Otter-42');
    const list = () => b.call('GET', LIST, { token: access });
    expect((await list()).status).toBe(200);
    expect((await list()).status).toBe(200);
    return { roleId: role.body.id as string, userId: user.body.id as string, access, list };
  }

  beforeAll(async () => {
    a = await startApi(engine, { config });
    b = await startApi(engine, { config, database: a.database });
    admin = (await a.tokens('demo', 'admin', 'admin123')).access;
    platform = (await a.tokens('platform', 'admin', 'admin123')).access;
    listPermission = (
      await a.db.selectFrom('permission').select('id').where('code', '=', 'system:admin:list').executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a sign-out through A is refused by B within a second', async () => {
    const { access, list } = await lister();
    expect((await a.call('POST', '/api/auth/logout', { token: access })).status).toBe(204);
    expect((await withinOneSecond(list, refused(401))).status).toBe(401);
  });

  it("an administrator's force-logout through A is refused by B within a second", async () => {
    const { userId, list } = await lister();
    expect((await a.call('POST', `/api/system/admin/${userId}/force-logout`, { token: admin })).status).toBe(200);
    expect((await withinOneSecond(list, refused(401))).status).toBe(401);
  });

  it('a user disabled through A is refused by B within a second', async () => {
    const { userId, list } = await lister();
    expect((await a.call('POST', `/api/system/admin/${userId}/disable`, { token: admin })).status).toBe(200);
    expect((await withinOneSecond(list, refused(401))).status).toBe(401);
  });

  it("a permission removed from the user's role through A is refused by B within a second", async () => {
    const { roleId, list } = await lister();
    const none = { permissionIds: [] };
    expect((await a.call('PUT', `/api/system/role/${roleId}/permissions`, { token: admin, body: none })).status).toBe(
      200,
    );
    expect((await withinOneSecond(list, refused(403))).status).toBe(403);
  });

  it("an error message edited through A is B's answer within a second", async () => {
    const missing = () => b.call('GET', '/api/system/admin/999999', { token: admin, headers: en });
    expect((await missing()).body.message).toBe('The requested resource does not exist');
    const codes = await a.call('GET', '/api/dictionary/errcode?keyword=common.notFound', { token: platform });
    const notFound = codes.body.data.find((c: { key: string }) => c.key === 'common.notFound');
    const edit = { messageEn: 'Nothing here, sorry', version: notFound.version };
    expect(
      (await a.call('PUT', `/api/dictionary/errcode/${notFound.id}`, { token: platform, body: edit })).status,
    ).toBe(200);
    const answer = await withinOneSecond(missing, (res) => res.body.message === 'Nothing here, sorry');
    expect(answer).toMatchObject({ status: 404, body: { code: 'common.notFound', message: 'Nothing here, sorry' } });
  });

  it('keeps invalidating after the listening connections were terminated', async () => {
    const before = await listeners(a.database);
    expect(before).toHaveLength(2);
    await terminate(a.database, before);
    // both instances connect again on their own, within a few tries
    const until = Date.now() + 10_000;
    let after: number[] = [];
    while (Date.now() < until) {
      after = await listeners(a.database);
      if (after.length === 2 && after.every((pid) => !before.includes(pid))) break;
      await sleep(50);
    }
    expect(after).toHaveLength(2);
    expect(after.some((pid) => before.includes(pid))).toBe(false);

    const { access, list } = await lister();
    expect((await a.call('POST', '/api/auth/logout', { token: access })).status).toBe(204);
    expect((await withinOneSecond(list, refused(401))).status).toBe(401);
    expect((await b.call('GET', LIST, { token: admin })).status).toBe(200);
  });
});

describe.skipIf(!postgres)('the invalidation listener on PostgreSQL', () => {
  const engine = postgres as TestEngine;
  it('hears the other instances, not itself, and empties every cache when its connection comes back', async () => {
    const database = await engine.create();
    const { db, close } = await openDatabase(database.options);
    if (database.options.kind !== 'postgres') throw new Error('PostgreSQL only');
    const backend = { kind: 'postgres', url: database.options.url, db } as const;
    const heard: string[] = [];
    const self = createInvalidation(backend, undefined, { backoffMs: 50, maxBackoffMs: 200 });
    self.subscribe('principals', () => heard.push('principals'));
    self.subscribe('error-catalog', () => heard.push('error-catalog'));
    const other = createInvalidation(backend);
    try {
      await self.start();
      await other.start();
      const heardWithin = async (count: number) => {
        for (const until = Date.now() + 5_000; heard.length < count && Date.now() < until; ) await sleep(20);
        return [...heard];
      };

      await self.publish('error-catalog');
      await other.publish('principals');
      expect(await heardWithin(1)).toEqual(['principals']);

      await terminate(database.options, await listeners(database.options));
      expect((await heardWithin(3)).sort()).toEqual(['error-catalog', 'principals', 'principals']);
      heard.length = 0;
      await other.publish('error-catalog');
      expect(await heardWithin(1)).toEqual(['error-catalog']);
    } finally {
      await self.stop();
      await other.stop();
      await close();
      await database.drop();
    }
  });
});
