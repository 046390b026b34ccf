import { describe, expect, it } from 'vitest';
import { roleSheet } from '../support/role-sheet';
import { engines, importForm } from './helpers';
import { restartableServer } from './import-restarts';

/**
 * A process that stops in the middle of an import job leaves it `applying`, with some batches written and audited
 * under the job's trace. The next process to start on the database ends it as failed (`import.interrupted`) and undoes
 * those batches, so the import stays all or nothing. The stop is staged: a job that ran to its end is set back to
 * `applying` (what a process stopped before its last step leaves), another to `validating`.
 */
describe.each(engines())('import jobs interrupted by a restart, on $name', (engine) => {
  const s = restartableServer(engine, 'recovery');
  const { call, start, runJob } = s;
  const liveRoles = () =>
    s.server.db
      .selectFrom('role')
      .select(['code', 'name', 'remark', 'version'])
      .where('deleted_at', 'is', null)
      .orderBy('code')
      .execute();
  const setStatus = (id: string, status: 'applying' | 'validating') =>
    s.server.db.updateTable('import_job').set({ status, finished_at: null }).where('id', '=', id).execute();

  it('undoes what an interrupted job applied and ends it as failed; a job still validating just fails', async () => {
    await runJob(150, 'kept');
    const before = await liveRoles();
    // Upsert over the kept roles (updated) and new ones (created), in several batches.
    const file = new File([new Uint8Array(await roleSheet(450, 'kept'))], 'again.xlsx');
    const upsert = await call('POST', '/api/system/role/import-jobs', importForm(file, { mode: 'upsert' }));
    await s.server.services.imports.idle();
    const applied = upsert.body.id as string;
    expect((await call('GET', `/api/system/role/import-jobs/${applied}`)).body).toMatchObject({
      status: 'done',
      report: { created: 300, updated: 150 },
    });
    const validating = await runJob(20, 'never');
    await setStatus(applied, 'applying');
    await setStatus(validating, 'validating');
    expect((await liveRoles()).length).toBe(before.length + 300 + 20);

    await s.server.close();
    await start();
    await s.server.services.imports.idle();

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
    const undone = await s.server.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('trace_id', '=', `import:${applied}:undo`)
      .executeTakeFirstOrThrow();
    expect(Number(undone.n)).toBe(450);

    // A second restart finds nothing left to do.
    await s.server.close();
    await start();
    expect(await s.server.services.imports.recover(new Map())).toBe(0);
  });
});
