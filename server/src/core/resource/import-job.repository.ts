import { liveSince } from '../instance.repository';
import type { Tx } from '../tenancy';

/** The SQL of import jobs (tables of migration 0007): the job and its failing rows. */

export type ImportJobStatus = 'queued' | 'validating' | 'applying' | 'undoing' | 'done' | 'failed' | 'cancelled';

export interface ImportJobRow {
  id: string;
  resource: string;
  mode: 'insert' | 'upsert';
  dryRun: boolean;
  status: ImportJobStatus;
  cancelRequested: boolean;
  done: number;
  total: number | null;
  fileName: string;
  report: unknown;
  createdBy: string;
  createdAt: string;
  finishedAt: string | null;
}

export interface NewImportJob {
  tenantId: string;
  resource: string;
  mode: 'insert' | 'upsert';
  dryRun: boolean;
  fileName: string;
  file: Uint8Array;
  createdBy: string;
  /** The server instance that runs it (core/instances.ts). */
  owner: string;
}

export interface StoredFailure {
  row: number;
  column: string;
  message: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const jobColumns = [
  'id',
  'resource',
  'mode',
  'dry_run',
  'status',
  'cancel_requested',
  'done',
  'total',
  'file_name',
  'report',
  'created_by',
  'created_at',
  'finished_at',
] as const;

function toJob(r: {
  id: string;
  resource: string;
  mode: 'insert' | 'upsert';
  dry_run: boolean;
  status: ImportJobStatus;
  cancel_requested: boolean;
  done: number;
  total: number | null;
  file_name: string;
  report: unknown;
  created_by: string;
  created_at: Date;
  finished_at: Date | null;
}): ImportJobRow {
  return {
    id: r.id,
    resource: r.resource,
    mode: r.mode,
    dryRun: r.dry_run,
    status: r.status,
    cancelRequested: r.cancel_requested,
    done: r.done,
    total: r.total,
    fileName: r.file_name,
    report: r.report,
    createdBy: r.created_by,
    createdAt: r.created_at.toISOString(),
    finishedAt: iso(r.finished_at),
  };
}

export async function insertImportJob(tx: Tx, job: NewImportJob): Promise<ImportJobRow> {
  const row = await tx
    .insertInto('import_job')
    .values({
      tenant_id: job.tenantId,
      resource: job.resource,
      mode: job.mode,
      dry_run: job.dryRun,
      status: 'queued',
      file_name: job.fileName.slice(0, 255),
      file: job.file,
      created_by: job.createdBy,
      owner_instance: job.owner,
    })
    .returning(jobColumns)
    .executeTakeFirstOrThrow();
  return toJob(row);
}

export async function findImportJob(tx: Tx, resource: string, id: string): Promise<ImportJobRow | undefined> {
  const row = await tx
    .selectFrom('import_job')
    .select(jobColumns)
    .where('id', '=', id)
    .where('resource', '=', resource)
    .executeTakeFirst();
  return row && toJob(row);
}

export async function findLatestImportJob(tx: Tx, resource: string, userId: string): Promise<ImportJobRow | undefined> {
  const row = await tx
    .selectFrom('import_job')
    .select(jobColumns)
    .where('resource', '=', resource)
    .where('created_by', '=', userId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && toJob(row);
}

export async function importJobFile(tx: Tx, id: string): Promise<Uint8Array | undefined> {
  return (await tx.selectFrom('import_job').select('file').where('id', '=', id).executeTakeFirst())?.file;
}

/** Moves the job on and answers whether its cancellation was asked for (by this or another instance). */
export async function updateImportJob(
  tx: Tx,
  id: string,
  values: { status?: ImportJobStatus; done?: number; total?: number | null; report?: unknown; finished?: Date },
): Promise<boolean> {
  const row = await tx
    .updateTable('import_job')
    .set({
      ...(values.status && { status: values.status }),
      ...(values.done !== undefined && { done: values.done }),
      ...(values.total !== undefined && { total: values.total }),
      ...(values.report !== undefined && { report: JSON.stringify(values.report) }),
      ...(values.finished && { finished_at: values.finished }),
    })
    .where('id', '=', id)
    .returning('cancel_requested')
    .executeTakeFirst();
  return row?.cancel_requested ?? false;
}

/** Statuses of a job that has not finished: a process working on it, or one that stopped before it could finish. */
export const UNFINISHED: ImportJobStatus[] = ['queued', 'validating', 'applying', 'undoing'];

/**
 * Takes over one unfinished job of any tenant (the system role) whose owner is no longer live: it stopped, its heartbeat
 * is older than `staleMs`, or the job names none (from before owners). The job's row is locked and rows another
 * instance holds are skipped, so two instances never take the same job; the status is read again under the lock (a job
 * its owner finished meanwhile no longer matches), so a finished job is never taken. A job that had written rows is
 * set `undoing` by the same statement that makes `owner` its owner. The caller's own jobs are never its to take: they
 * are running in it.
 */
export async function claimAbandonedImportJob(tx: Tx, owner: string, staleMs: number) {
  const job = await tx
    .selectFrom('import_job as j')
    .select([
      'j.tenant_id as tenantId',
      'j.id',
      'j.resource',
      'j.status',
      'j.dry_run as dryRun',
      'j.created_by as createdBy',
    ])
    .where('j.status', 'in', UNFINISHED)
    .where('j.owner_instance', 'is distinct from', owner)
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom('server_instance as i')
            .select('i.id')
            .whereRef('i.id', '=', 'j.owner_instance')
            .where('i.stopped_at', 'is', null)
            .where('i.heartbeat_at', '>', liveSince(staleMs)),
        ),
      ),
    )
    .orderBy('j.id')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  if (!job) return undefined;
  const status = job.status === 'applying' && !job.dryRun ? 'undoing' : job.status;
  await tx
    .updateTable('import_job')
    .set({ owner_instance: owner, status })
    .where('tenant_id', '=', job.tenantId)
    .where('id', '=', job.id)
    .execute();
  return { ...job, status };
}

/**
 * Whether the job is still `owner`'s (another instance taking it over makes itself the owner), its row locked for the
 * rest of the transaction. A batch that finds its job taken over (its instance was thought gone: frozen, cut off) is
 * rolled back, and no instance takes the job over while a batch that still holds it is written (the take-over skips
 * locked rows, and finds that batch in the audit trail once it has committed).
 */
export async function holdsImportJob(tx: Tx, id: string, owner: string): Promise<boolean> {
  const job = await tx
    .selectFrom('import_job')
    .select('owner_instance')
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return job?.owner_instance === owner;
}

/** Asks a running job to stop; false when it has already finished. */
export async function requestImportJobCancel(tx: Tx, resource: string, id: string): Promise<boolean> {
  const row = await tx
    .updateTable('import_job')
    .set({ cancel_requested: true })
    .where('id', '=', id)
    .where('resource', '=', resource)
    .where('status', 'in', ['queued', 'validating', 'applying'])
    .returning('id')
    .executeTakeFirst();
  return Boolean(row);
}

export async function insertImportFailures(
  tx: Tx,
  jobId: string,
  tenantId: string,
  from: number,
  failures: StoredFailure[],
): Promise<void> {
  for (let i = 0; i < failures.length; i += 1000) {
    await tx
      .insertInto('import_job_failure')
      .values(
        failures.slice(i, i + 1000).map((f, n) => ({
          job_id: jobId,
          tenant_id: tenantId,
          seq: from + i + n,
          row_number: f.row,
          column_label: f.column.slice(0, 255),
          message: f.message.slice(0, 1000),
        })),
      )
      .execute();
  }
}

/** Failures in the order they were found (row order), `limit` at a time after `afterSeq`. */
export async function importFailuresAfter(tx: Tx, jobId: string, afterSeq: number, limit: number) {
  return tx
    .selectFrom('import_job_failure')
    .select(['seq', 'row_number as row', 'column_label as column', 'message'])
    .where('job_id', '=', jobId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
}
