import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createJobs, type Jobs } from '../../server/src/core/jobs';

const until = async (check: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('the job queue in process', () => {
  it('refuses a schedule whose cron expression is wrong when it is declared, not at its first run', () => {
    const jobs = createJobs({ kind: 'local' });
    jobs.define('sweep', async () => {});
    expect(() => jobs.schedule('sweep', '61 * * * *')).toThrow();
    jobs.schedule('sweep', '*/5 * * * *');
  });

  it('tries a failing job again, each wait longer than the one before', async () => {
    const jobs = createJobs({ kind: 'local' });
    const tries: number[] = [];
    jobs.define<{ n: number }>(
      'flaky',
      async ({ n }) => {
        tries.push(Date.now());
        if (tries.length < 3) throw new Error(`try ${n}`);
      },
      { retryLimit: 3, retryDelaySeconds: 0.05 },
    );
    await jobs.send('flaky', { n: 1 });
    await until(() => tries.length === 3);
    const [first = 0, second = 0, third = 0] = tries;
    expect(third - second).toBeGreaterThanOrEqual(second - first);
    await jobs.stop();
    expect(tries).toHaveLength(3);
  });

  it('runs a delayed job when its time comes, one job of a queue at a time', async () => {
    const jobs = createJobs({ kind: 'local' });
    const order: string[] = [];
    jobs.define<{ id: string }>('ordered', async ({ id }) => {
      order.push(`start ${id}`);
      await new Promise((r) => setTimeout(r, 20));
      order.push(`end ${id}`);
    });
    await jobs.send('ordered', { id: 'late' }, { startAfter: new Date(Date.now() + 150) });
    await jobs.send('ordered', { id: 'a' });
    await jobs.send('ordered', { id: 'b' });
    await until(() => order.length === 6);
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b', 'start late', 'end late']);
    await jobs.stop();
  });
});

const url = process.env.TEST_DATABASE_URL;

/** A database of its own for `use`, dropped after it. */
async function withDatabase(use: (target: string, client: pg.Client) => Promise<void>): Promise<void> {
  const name = `medu_jobs_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const target = new URL(url as string);
  target.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: target.toString() });
  try {
    await client.connect();
    await use(target.toString(), client);
  } finally {
    await client.end();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

describe.skipIf(!url)('the job queue on PostgreSQL (pg-boss)', () => {
  it('keeps a job queued by a stopped server and works it in the next one', async () => {
    let second: Jobs | undefined;
    await withDatabase(async (target) => {
      try {
        const first = createJobs({ kind: 'postgres', url: target });
        const seenByFirst: string[] = [];
        first.define<{ id: string }>('restartable', async ({ id }) => {
          seenByFirst.push(id);
        });
        await first.send('restartable', { id: 'now' });
        await first.send('restartable', { id: 'after the restart' }, { startAfter: new Date(Date.now() + 3_000) });
        await until(() => seenByFirst.length === 1);
        await first.stop();
        expect(seenByFirst).toEqual(['now']);

        second = createJobs({ kind: 'postgres', url: target });
        const seenBySecond: string[] = [];
        second.define<{ id: string }>('restartable', async ({ id }) => {
          seenBySecond.push(id);
        });
        await second.start();
        await until(() => seenBySecond.length === 1);
        expect(seenBySecond).toEqual(['after the restart']);
      } finally {
        await second?.stop();
      }
    });
  });

  /**
   * The fixture is the `pgboss` schema of a server of the release before this one (pg-boss 10.4.2, schema version 24)
   * with its queues and schedules, dumped with `pg_dump -n pgboss --inserts`: in queue `upgrade.kept` a job due, one
   * delayed until 2099 and one completed; in `retired.queue`, which no release declares any more, one job due.
   */
  it("takes over a pg-boss 10 database: pg-boss's own schema, the waiting jobs queued again, the old schema dropped", async () => {
    const fixture = gunzipSync(readFileSync(path.join(__dirname, '../fixtures/upgrade/pgboss-v10.sql.gz')));
    await withDatabase(async (target, client) => {
      await client.query(fixture.toString('utf8'));
      const jobs = createJobs({ kind: 'postgres', url: target });
      const seen: string[] = [];
      try {
        jobs.define<{ id: string }>('upgrade.kept', async ({ id }) => {
          seen.push(id);
        });
        jobs.define('people.expire', async () => {}, { retryLimit: 0 });
        jobs.schedule('people.expire', '5 * * * *');
        await jobs.start();
        await until(() => seen.length === 1);
        expect(seen).toEqual(['queued by pg-boss 10']);

        const schemas = await client.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'pgboss%'");
        expect(schemas.rows.map((r) => r.nspname)).toEqual(['pgboss']);
        const version = await client.query('SELECT version FROM pgboss.version');
        expect(version.rows[0].version).toBeGreaterThan(24);
        const kept = await client.query(
          "SELECT data->>'id' AS id, state::text FROM pgboss.job WHERE name = 'upgrade.kept' ORDER BY 1",
        );
        expect(kept.rows).toEqual([
          { id: 'delayed until 2099', state: 'created' },
          { id: 'queued by pg-boss 10', state: 'completed' },
        ]);
        const retired = await client.query("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'retired.queue'");
        expect(retired.rows[0].n).toBe(0);
        const schedules = await client.query('SELECT name FROM pgboss.schedule ORDER BY name');
        expect(schedules.rows.map((r) => r.name)).toEqual(['people.expire']);
      } finally {
        await jobs.stop();
      }
    });
  });
});
