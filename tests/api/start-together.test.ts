import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduledWork } from '../../server/src/scheduled-work';
import { type ApiServer, createServer } from '../../server/src/server';
import { engines, TEST_ID_NUMBER_KEY, testArgon2 } from './helpers';

/**
 * Instances of one deployment start together (a rollout, a host's reboot): on a fresh database each would migrate,
 * make pg-boss's schema and queues and seed the base data at the same moment. Their start-up work is serialised by a
 * lock in the database, so that each finds the others' work done. Only PostgreSQL is shared by processes: the
 * embedded database belongs to one.
 */
const postgres = engines().find((engine) => engine.name === 'postgres');
const INSTANCES = 3;

describe.skipIf(!postgres)(
  'instances started together on a fresh database (PostgreSQL only: PGlite has one process)',
  () => {
    let database: Awaited<ReturnType<NonNullable<typeof postgres>['create']>>;
    const servers: ApiServer[] = [];

    beforeAll(async () => {
      database = await (postgres as NonNullable<typeof postgres>).create({ empty: true });
    });
    afterAll(async () => {
      for (const server of servers) await server.close();
      await database?.drop();
    });

    /** One instance as `npm start` makes it: the server, then its job queues and schedules. */
    async function startInstance(): Promise<ApiServer> {
      const server = await createServer({
        database: database.options,
        demo: true,
        logger: false,
        config: { argon2: testArgon2, idNumberKey: TEST_ID_NUMBER_KEY },
      });
      servers.push(server);
      await startScheduledWork(server.services);
      return server;
    }

    it('all start, each answers, and what they seed exists once', async () => {
      const started = await Promise.allSettled(Array.from({ length: INSTANCES }, startInstance));
      expect(started.map((result) => (result.status === 'rejected' ? String(result.reason) : 'started'))).toEqual(
        Array(INSTANCES).fill('started'),
      );

      for (const server of servers) {
        const health = await server.app.fetch(new Request('http://test.local/api/health'));
        expect(health.status).toBe(200);
      }
      const db = servers[0]?.db as ApiServer['db'];
      const counted = async (query: string) =>
        (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.raw(query)}`.execute(db)).rows[0]?.n;
      expect(await counted(`tenant WHERE code IN ('platform', 'demo')`)).toBe(2);
      // a permission is a menu, a page or an operation's code; menus have no code, and are told apart by their place
      const codes = await counted('permission WHERE code IS NOT NULL');
      expect(codes).toBeGreaterThan(50);
      expect(await counted('(SELECT DISTINCT code FROM permission) AS codes WHERE code IS NOT NULL')).toBe(codes);
      expect(await counted('(SELECT DISTINCT parent_id, type, name FROM permission) AS places')).toBe(
        await counted('permission'),
      );
      expect(await counted(`admin_user WHERE username = 'admin'`)).toBe(2); // platform's and demo's
      const queues = await sql<{ name: string }>`SELECT name FROM pgboss.queue ORDER BY name`.execute(db);
      expect(queues.rows.map((row) => row.name)).toEqual(
        expect.arrayContaining(['activity.advance', 'document.publish-due', 'file.remove-orphans', 'people.expire']),
      );
      const schedules = await sql<{ name: string }>`SELECT name FROM pgboss.schedule`.execute(db);
      expect(new Set(schedules.rows.map((row) => row.name)).size).toBe(schedules.rows.length);
    });
  },
);
