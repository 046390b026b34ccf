import { randomBytes } from 'node:crypto';
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
describe.skipIf(!url)('the job queue on PostgreSQL (pg-boss)', () => {
  it('keeps a job queued by a stopped server and works it in the next one', async () => {
    const name = `medu_jobs_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const target = new URL(url as string);
    target.pathname = `/${name}`;
    let second: Jobs | undefined;
    try {
      const first = createJobs({ kind: 'postgres', url: target.toString() });
      const seenByFirst: string[] = [];
      first.define<{ id: string }>('restartable', async ({ id }) => {
        seenByFirst.push(id);
      });
      await first.send('restartable', { id: 'now' });
      await first.send('restartable', { id: 'after the restart' }, { startAfter: new Date(Date.now() + 3_000) });
      await until(() => seenByFirst.length === 1);
      await first.stop();
      expect(seenByFirst).toEqual(['now']);

      second = createJobs({ kind: 'postgres', url: target.toString() });
      const seenBySecond: string[] = [];
      second.define<{ id: string }>('restartable', async ({ id }) => {
        seenBySecond.push(id);
      });
      await second.start();
      await until(() => seenBySecond.length === 1);
      expect(seenBySecond).toEqual(['after the restart']);
    } finally {
      await second?.stop();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
