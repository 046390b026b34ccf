import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { importTargetsOf } from '../../server/src/core/resource/import-jobs';
import { type ImportTarget, undoImport } from '../../server/src/core/resource/resource-import';
import { roleSheet } from '../support/role-sheet';
import { engines, type Json } from './helpers';
import { restartableServer } from './import-restarts';

/**
 * Import jobs on several instances (issue 31): each job names the instance running it, and only a job whose instance is
 * gone (stopped, or its heartbeat stale: killed) is taken over and undone; a live instance's job and a finished job are
 * never touched. A job "running" in another instance is staged: a job that ran to its end is set back to `applying`
 * under an owner of the test's choosing, a live one (heartbeat in the future) or a gone one (heartbeat an hour old).
 */
describe.each(engines())('import jobs and their owners, on $name', (engine) => {
  const s = restartableServer(engine, 'owners');
  const { open, start, startJob, job } = s;
  const runJob = async (rows: number, prefix: string) => {
    const id = await s.runJob(rows, prefix);
    expect((await job(id)).status).toBe('done');
    return id;
  };
  const liveRoles = async (prefix: string) => {
    const row = await s.server.db
      .selectFrom('role')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('code', 'like', `${prefix}\\_%`)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  /** Another instance, live (its heartbeat an hour ahead) or gone (an hour old). */
  const otherInstance = async (state: 'live' | 'gone') => {
    const id = randomUUID();
    await s.server.db
      .insertInto('server_instance')
      .values({
        id,
        host: 'elsewhere',
        pid: 1,
        data_dir: '/elsewhere',
        heartbeat_at: sql<Date>`now() + ${state === 'live' ? sql`interval '1 hour'` : sql`interval '-1 hour'`}`,
      })
      .execute();
    return id;
  };
  /** The job as its owner left it while still writing: `applying`, not finished. */
  const runningIn = (jobId: string, owner: string) =>
    s.server.db
      .updateTable('import_job')
      .set({ status: 'applying', finished_at: null, owner_instance: owner })
      .where('id', '=', jobId)
      .execute();

  it("leaves a live instance's running import alone, also when another instance starts", async () => {
    const id = await runJob(250, 'live');
    const owner = await otherInstance('live');
    await runningIn(id, owner);

    expect(await s.server.services.imports.recover(importTargetsOf(s.server.services))).toBe(0);
    if (engine.name === 'postgres') {
      // a second instance on the same database: its start-up recovery finds the job another's
      const second = await open();
      await second.services.imports.idle();
      await second.close();
    }
    expect(await job(id)).toMatchObject({ status: 'applying', finishedAt: null });
    expect(await liveRoles('live')).toBe(250);
    // once the other instance has stopped, its unfinished job is anyone's to undo
    await s.server.db.updateTable('server_instance').set({ stopped_at: new Date() }).where('id', '=', owner).execute();
    await s.server.services.imports.recover(importTargetsOf(s.server.services));
    expect(await job(id)).toMatchObject({ status: 'failed', report: { error: { code: 'import.interrupted' } } });
    expect(await liveRoles('live')).toBe(0);
  });

  it.skipIf(engine.name === 'pglite')(
    'never undoes a job that finishes while recovery looks at it (PostgreSQL: one connection cannot interleave on PGlite)',
    async () => {
      const id = await runJob(120, 'racing');
      await runningIn(id, await otherInstance('gone'));
      // Its owner finishes it in a transaction not yet committed when the recovery comes to the job.
      const owner = new pg.Client({ connectionString: (s.database as { url: string }).url });
      await owner.connect();
      try {
        await owner.query('BEGIN');
        await owner.query(`UPDATE import_job SET status = 'done', finished_at = now() WHERE id = $1`, [id]);
        const recovery = s.server.services.imports.recover(importTargetsOf(s.server.services));
        await Promise.race([recovery, new Promise((resolve) => setTimeout(resolve, 1000))]);
        await owner.query('COMMIT');
        expect(await recovery).toBe(0);
      } finally {
        await owner.end();
      }
      await s.server.services.imports.idle();
      expect(await job(id)).toMatchObject({ status: 'done', report: { created: 120 } });
      expect(await liveRoles('racing')).toBe(120);
    },
  );

  it("undoes a killed instance's import by the periodic sweep, not only at start", async () => {
    await s.server.close();
    await start({ heartbeatMs: 100 });
    const id = await runJob(250, 'killed');
    await runningIn(id, await otherInstance('gone'));
    // no restart, no call: the heartbeat's sweep finds the job whose owner went silent
    await vi.waitFor(async () => expect((await job(id)).status).toBe('failed'), { timeout: 30_000, interval: 200 });
    expect(await job(id)).toMatchObject({
      report: { created: 0, updated: 0, error: { code: 'import.interrupted' } },
    });
    expect(await liveRoles('killed')).toBe(0);
    const removed = await s.server.db
      .selectFrom('role')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('code', 'like', 'killed\\_%')
      .where('deleted_at', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(Number(removed.n)).toBe(250);
  });

  it('stops a running import that another instance took over, and leaves the job to it', async () => {
    const id = await startJob(3000, 'frozen');
    // another instance thought this one gone (frozen, cut off) and took the job over to undo it
    const taker = await otherInstance('live');
    await s.server.db
      .updateTable('import_job')
      .set({ owner_instance: taker, status: 'undoing' })
      .where('id', '=', id)
      .execute();
    await s.server.services.imports.idle();
    // this instance's run stopped at its next batch: it neither finished the job nor went on writing
    expect(await job(id)).toMatchObject({ status: 'undoing' });
    const owner = await s.server.db
      .selectFrom('import_job')
      .select('owner_instance')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(owner.owner_instance).toBe(taker);
    expect(await liveRoles('frozen')).toBeLessThan(3000);
    await s.server.db.updateTable('server_instance').set({ stopped_at: new Date() }).where('id', '=', taker).execute();
  });

  it.skipIf(engine.name === 'pglite')(
    'a one-pass batch still being written when its job is taken over and undone is rolled back, not left behind (PostgreSQL)',
    async () => {
      // The role import as a one-pass import (records independent of each other, each batch written once checked),
      // whose first batch stops, its rows written but not committed, until the test lets it go.
      const role = importTargetsOf(s.server.services).get('system/role') as ImportTarget<
        Json,
        Json,
        { version: number }
      >;
      let paused!: () => void;
      const writing = new Promise<void>((resolve) => {
        paused = resolve;
      });
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const createMany = role.store.createMany as NonNullable<typeof role.store.createMany>;
      const target: typeof role = {
        ...role,
        def: { ...role.def, importIndependent: true },
        store: {
          ...role.store,
          async createMany(tx, inputs, ctx) {
            const rows = await createMany.call(role.store, tx, inputs, ctx);
            paused();
            await released;
            return rows;
          },
        },
      };
      const admin = await s.server.db
        .selectFrom('admin_user as u')
        .innerJoin('tenant as t', 't.id', 'u.tenant_id')
        .select(['u.id', 'u.tenant_id'])
        .where('t.code', '=', 'demo')
        .where('u.username', '=', 'admin')
        .executeTakeFirstOrThrow();
      const ctx = {
        tenantId: String(admin.tenant_id),
        actorId: String(admin.id),
        now: new Date(),
        ip: null,
        userAgent: null,
        lang: 'en-US' as const,
      };
      const file = new File([new Uint8Array(await roleSheet(40, 'inflight'))], 'inflight.xlsx');
      const { job: started, finished } = await s.server.services.imports.start(target, ctx, file, {
        dryRun: false,
        mode: 'insert',
      });
      await writing;
      // another instance, thinking this one gone, takes the job over and undoes what it finds written (nothing yet)
      const taker = await otherInstance('live');
      await s.server.db
        .updateTable('import_job')
        .set({ owner_instance: taker, status: 'undoing' })
        .where('id', '=', started.id)
        .execute();
      await undoImport(role, { jobId: started.id, ctx, batchSize: 100 });
      await s.server.db
        .updateTable('import_job')
        .set({ status: 'failed', finished_at: new Date() })
        .where('id', '=', started.id)
        .execute();
      release();
      expect(await finished).toMatchObject({ status: 'failed', error: { code: 'import.interrupted' } });
      // the batch in flight did not land after the undo
      expect(await liveRoles('inflight')).toBe(0);
      expect(await job(started.id)).toMatchObject({ status: 'failed' });
      await s.server.db
        .updateTable('server_instance')
        .set({ stopped_at: new Date() })
        .where('id', '=', taker)
        .execute();
    },
  );

  it('hands a running import back at shutdown: undone and failed, nothing of it left', async () => {
    const id = await startJob(3000, 'stopping');
    await s.server.close();
    await start();
    await s.server.services.imports.idle();
    expect(await job(id)).toMatchObject({
      status: 'failed',
      report: { created: 0, updated: 0, error: { code: 'import.interrupted' } },
    });
    expect(await liveRoles('stopping')).toBe(0);
    // the stopped instance said so: no instance but the new one is live
    expect(await s.server.services.instances.sharing()).toEqual({ live: 1, shared: true });
  });
});
