import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduledWork } from '../../server/src/scheduled-work';
import { engines, startApi, type TestApi } from './helpers';

/**
 * A database that blinks (a restart, a fail-over, an administrator's pg_terminate_backend) ends the connections the
 * server holds: idle ones in the pools, ones checked out by a request between two statements of its transaction, and
 * pg-boss's own. That may cost the requests in flight; it must never end the process, and the API answers again as
 * soon as the database does. Only PostgreSQL has backends to terminate: the embedded database lives in the process.
 */
const postgres = engines().find((engine) => engine.name === 'postgres');
const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!postgres)('terminating every backend of the database (PostgreSQL only: PGlite has none)', () => {
  let api: TestApi;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error instanceof Error ? error.stack : error);

  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    api = await startApi(postgres as NonNullable<typeof postgres>);
    // pg-boss's pool polls too, as on a running server
    await startScheduledWork(api.server.services);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await api?.close();
  });

  let databaseName = '';
  /** Ends every session on the server's database (the terminating one is on another); answers how many it ended. */
  async function terminateAll(): Promise<number> {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ n: string }>(
        'SELECT count(pg_terminate_backend(pid))::text AS n FROM pg_stat_activity WHERE datname = $1',
        [databaseName],
      );
      return Number(rows[0]?.n ?? 0);
    } finally {
      await admin.end();
    }
  }
  it('costs the requests in flight at most: the process lives and answers again within 5 s', async () => {
    databaseName = (
      await api.server.db.selectNoFrom((eb) => eb.fn<string>('current_database').as('name')).executeTakeFirstOrThrow()
    ).name;
    const admin = await api.tokens('demo', 'admin', 'admin123');
    let running = true;
    const statuses: number[] = [];
    const load = async (request: (i: number) => Promise<{ status: number }>) => {
      for (let i = 0; running; i++) statuses.push((await request(i).catch(() => ({ status: 0 }))).status);
    };
    const workers = [
      load(() => api.call('GET', '/api/system/admin?current=1&pageSize=20', { token: admin.access })),
      load(() => api.call('GET', '/api/system/role', { token: admin.access })),
      load(() => api.signIn('demo', 'viewer', 'viewer123')),
      load((i) =>
        api.call('POST', '/api/system/role', {
          token: admin.access,
          body: { code: `blink${Date.now()}x${i}`, name: `Blink ${i}` },
        }),
      ),
    ];
    let terminated = 0;
    for (let round = 0; round < 5; round++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      terminated += await terminateAll();
    }
    running = false;
    await Promise.all(workers);
    expect(terminated).toBeGreaterThan(5);
    expect(statuses.length).toBeGreaterThan(0);
    // a request the blink cut is told to come back in a moment (503 with Retry-After), never a bare 500
    expect(statuses.filter((status) => status === 500)).toEqual([]);

    const started = performance.now();
    let answered = false;
    while (!answered && performance.now() - started < 5_000) {
      const [list, signIn, write] = await Promise.all([
        api.call('GET', '/api/system/admin?current=1&pageSize=20', { token: admin.access }),
        api.signIn('demo', 'viewer', 'viewer123'),
        api.call('POST', '/api/system/role', {
          token: admin.access,
          body: { code: `after${Date.now()}`, name: 'After the blink' },
        }),
      ]).catch(() => [{ status: 0 }, { status: 0 }, { status: 0 }]);
      answered = list.status === 200 && signIn.status === 200 && write.status === 201;
      if (!answered) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answered).toBe(true);
    expect(uncaught).toEqual([]);
  });
});
