import type { Logger } from 'pino';
import type { Engine } from '../../db/database';
import type { ErrorCatalog } from '../error-catalog';
import { AppError, notFound } from '../errors';
import type { Lang } from '../i18n';
import type { Tenancy, Tx } from '../tenancy';
import {
  claimAbandonedImportJob,
  findImportJob,
  findLatestImportJob,
  type ImportJobRow,
  importFailuresAfter,
  importJobFile,
  insertImportJob,
  requestImportJobCancel,
  updateImportJob,
} from './import-job.repository';
import type { ResourceRow, WriteContext } from './resource';
import {
  type ImportOptions,
  type ImportOutcome,
  type ImportReport,
  type ImportTarget,
  notXlsx,
  REPORTED_FAILURES,
  runImport,
  undoImport,
} from './resource-import';
import { type CellValue, declaredUnpackedSize, sheetNameOf, streamSheet, streamSheetRows } from './spreadsheet';

const MB = 1024 * 1024;

/** The largest file any tenant's setting can allow: the HTTP layer refuses bodies above it before reading them. */
export const IMPORT_BODY_LIMIT = 200 * MB + 64 * 1024;

/**
 * Rows per written batch. The embedded database has one connection and runs in this thread: a batch there must stay
 * well under the latency other requests are promised (about 45 ms for 100 rows on these machines). On PostgreSQL the
 * batch's JavaScript (parsing, validation, the rows and audit rows as JSON) still runs in this thread, and what a batch
 * holds outlives the young generation's collections: a few hundred rows keep both short. Each batch also costs a
 * dozen round trips, and on a machine of two cores the server woken by each one takes the core from this thread: 500
 * rows rather than 250 made 100,000 questions import in 19 s rather than 21.5 s, while the role import's other
 * requests kept their p95 (210 ms against 241 ms, within its noise).
 */
const batchSizes: Record<Engine, number> = { pglite: 100, postgres: 500 };

export const importLimitDefaults = {
  'import.maxFileSizeMb': 20,
  'import.maxUnpackedMb': 300,
  'import.maxRows': 100_000,
};

// biome-ignore lint/suspicious/noExplicitAny: targets of every resource, each with its own row types
type AnyImportTarget = ImportTarget<any, any, any>;

/**
 * The import targets among the services (each resource service offers its `importTarget`, directly or as
 * `resource`), by resource path: what a restarted process needs to undo its predecessor's unfinished jobs.
 */
export function importTargetsOf(services: object): Map<string, AnyImportTarget> {
  const targets = new Map<string, AnyImportTarget>();
  const visit = (value: unknown, depth: number) => {
    if (!value || typeof value !== 'object') return;
    const target = (value as { importTarget?: AnyImportTarget }).importTarget;
    if (target?.def?.path && target.store) targets.set(target.def.path, target);
    else if (depth > 0) for (const inner of Object.values(value)) visit(inner, depth - 1);
  };
  for (const service of Object.values(services)) visit(service, 1);
  return targets;
}

export type ImportJobView = Omit<ImportJobRow, 'cancelRequested' | 'report'> & {
  report: (ImportReport & { error?: { code: string; message: string } }) | null;
};

const view = ({ cancelRequested: _, report, ...job }: ImportJobRow): ImportJobView => ({
  ...job,
  report: report as ImportJobView['report'],
});

const errorColumn = { 'zh-CN': '错误', 'en-US': 'Errors' };
const warningColumn = { 'zh-CN': '提示（不影响导入）', 'en-US': 'Warnings (the row imports)' };

/**
 * Import jobs: the upload's limits (from settings), a persisted job per import, and an in-process runner that
 * works through it in short transactions, so the embedded database (one connection) keeps answering others.
 * Cancellation goes through the job row, so any instance can ask. Each job names the instance running it (`owner`,
 * core/instances.ts); another instance takes it over only once that owner is no longer live (`recover`).
 */
export function createImportJobs(deps: {
  tenancy: Tenancy;
  /** Numeric settings with their defaults (the tenant's limits). */
  settings: { numbers<K extends string>(tx: Tx, defaults: Record<K, number>): Promise<Record<K, number>> };
  catalog: ErrorCatalog;
  engine: Engine;
  /** This server instance: the owner of the jobs it starts; the age past which another's heartbeat is stale. */
  owner: { readonly id: string; readonly staleMs: number };
  /** ANALYZE as the database owner; needed on the embedded database, which never runs autovacuum. */
  analyze?: () => Promise<void>;
  /** Told of the rows each committed batch wrote, by resource (the metrics' imported rows). */
  onRowsImported?: (resource: string, rows: number) => void;
  logger?: Logger;
}) {
  const { tenancy } = deps;
  const running = new Set<Promise<unknown>>();
  /** Set at shutdown: running jobs stop at their next batch, and no abandoned job is taken over. */
  let stopping = false;
  /** The recovery under way, if any: a heartbeat's look for abandoned jobs does not start a second one. */
  let recovering: Promise<number> | undefined;

  const findOrFail = async (tenantId: string, resource: string, id: string) => {
    const job = await tenancy.inTenant(tenantId, (tx) => findImportJob(tx, resource, id));
    if (!job) throw notFound();
    return job;
  };

  /** The file against the tenant's limits: its size, then the unpacked size its zip declares (before parsing). */
  const checkFile = async (ctx: WriteContext, file: File) => {
    const limits = await tenancy.inTenant(ctx.tenantId, (tx) => deps.settings.numbers(tx, importLimitDefaults));
    if (file.size > limits['import.maxFileSizeMb'] * MB)
      throw new AppError('import.fileTooLarge', { maxMb: limits['import.maxFileSizeMb'] });
    const bytes = new Uint8Array(await file.arrayBuffer());
    const unpacked = declaredUnpackedSize(bytes);
    if (unpacked === undefined) throw notXlsx(ctx.lang);
    if (unpacked > limits['import.maxUnpackedMb'] * MB) {
      throw new AppError('import.unpackedTooLarge', { maxMb: limits['import.maxUnpackedMb'] });
    }
    return { bytes, limits };
  };

  return {
    checkFile,

    /**
     * Checks the file against the tenant's limits (size, the zip's declared unpacked size), stores the job and
     * starts it. `finished` settles with the outcome; the job row has it too.
     */
    async start<Row extends ResourceRow, Create, Update extends { version: number }>(
      target: ImportTarget<Row, Create, Update>,
      ctx: WriteContext,
      file: File,
      options: ImportOptions,
    ): Promise<{ job: ImportJobView; finished: Promise<ImportOutcome> }> {
      const { bytes, limits } = await checkFile(ctx, file);
      const job = await tenancy.inTenant(ctx.tenantId, (tx) =>
        insertImportJob(tx, {
          tenantId: ctx.tenantId,
          resource: target.def.path,
          mode: options.mode,
          dryRun: options.dryRun,
          fileName: file.name || 'import.xlsx',
          file: bytes,
          createdBy: ctx.actorId,
          owner: deps.owner.id,
        }),
      );
      const finished = runImport(target, {
        id: job.id,
        batchSize: batchSizes[deps.engine],
        ctx,
        file: bytes,
        options,
        maxRows: limits['import.maxRows'],
        refreshStatistics: deps.engine === 'pglite' ? deps.analyze : undefined,
        stopping: () => stopping,
        owner: deps.owner.id,
        written: (rows) => deps.onRowsImported?.(target.def.path, rows),
      }).catch(async (err: unknown) => {
        deps.logger?.error({ err, importJob: job.id }, 'import job failed');
        const error = { code: 'common.internal', message: deps.catalog.message('common.internal', ctx.lang) };
        await tenancy.inTenant(ctx.tenantId, (tx) =>
          updateImportJob(tx, job.id, { status: 'failed', report: { error }, finished: new Date() }),
        );
        throw err;
      });
      running.add(finished);
      const forget = () => running.delete(finished);
      finished.then(forget, forget);
      return { job: view(job), finished };
    },

    async get(tenantId: string, resource: string, id: string): Promise<ImportJobView> {
      return view(await findOrFail(tenantId, resource, id));
    },

    /** The user's latest job of this resource: the import dialog shows it when it opens again. */
    async latest(tenantId: string, resource: string, userId: string): Promise<ImportJobView | null> {
      const job = await tenancy.inTenant(tenantId, (tx) => findLatestImportJob(tx, resource, userId));
      return job ? view(job) : null;
    },

    /** Asks the job to stop; the runner undoes what it applied and ends it as `cancelled`. */
    async cancel(tenantId: string, resource: string, id: string): Promise<ImportJobView> {
      const asked = await tenancy.inTenant(tenantId, (tx) => requestImportJobCancel(tx, resource, id));
      const job = await findOrFail(tenantId, resource, id);
      if (!asked) throw new AppError('import.jobFinished');
      return view(job);
    },

    /**
     * The uploaded sheet with an error column: every failure, not only the first REPORTED_FAILURES; and a column of
     * its warnings when the report has any (those it lists).
     */
    async failureSheet(tenantId: string, resource: string, id: string, lang: Lang) {
      const job = await findOrFail(tenantId, resource, id);
      const warningsOf = new Map<number, string[]>();
      for (const w of (job.report as ImportReport | null)?.warnings ?? [])
        warningsOf.set(w.row, [...(warningsOf.get(w.row) ?? []), w.column ? `${w.column}: ${w.message}` : w.message]);
      const warned = warningsOf.size > 0;
      const file = await tenancy.inTenant(tenantId, (tx) => importJobFile(tx, id));
      if (!file) throw notFound();
      const sheetRows = streamSheetRows(file, 1000);
      const first = await sheetRows.next();
      const header = !first.done && 'header' in first.value ? first.value.header : [];

      let pending: { seq: number; row: number; column: string; message: string }[] = [];
      let lastSeq = -1;
      const failuresOf = async (row: number) => {
        const texts: string[] = [];
        for (;;) {
          if (pending.length === 0) {
            pending = await tenancy.inTenant(tenantId, (tx) =>
              importFailuresAfter(tx, id, lastSeq, 5 * REPORTED_FAILURES),
            );
            if (pending.length === 0) return texts;
            lastSeq = pending[pending.length - 1]?.seq ?? lastSeq;
          }
          const next = pending[0];
          if (!next || next.row > row) return texts;
          pending.shift();
          if (next.row === row) texts.push(next.column ? `${next.column}: ${next.message}` : next.message);
        }
      };
      const headerErrors = (await failuresOf(1)).join('; ');
      async function* rows(): AsyncGenerator<CellValue[][]> {
        for await (const part of sheetRows) {
          if ('header' in part) continue;
          const batch: CellValue[][] = [];
          for (const { row, cells } of part.rows)
            batch.push([
              ...header.map((_, i) => cells[i]),
              (await failuresOf(row)).join('; '),
              ...(warned ? [(warningsOf.get(row) ?? []).join('; ')] : []),
            ]);
          yield batch;
        }
      }
      const title = headerErrors ? `${errorColumn[lang]} (${headerErrors})` : errorColumn[lang];
      const sheetName = sheetNameOf(resource);
      return {
        filename: `${sheetName}-import-${job.id}-errors.xlsx`,
        body: streamSheet(sheetName, [...header, title, ...(warned ? [warningColumn[lang]] : [])], rows()),
      };
    },

    /**
     * Takes over the jobs whose owner is no longer live (it stopped, was killed, or lost the database for longer than
     * the heartbeat's staleness), one at a time under the job's row lock (import-job.repository.ts), and ends each as
     * failed (`import.interrupted`); what one of them had applied is undone from its audit trail first, so an
     * all-or-nothing import stays all or nothing. A job of a live instance and a finished job are never touched. Runs
     * at start and after every heartbeat, in the background like a job (`idle` waits for it); answers how many jobs it
     * ended.
     */
    recover(targets: Map<string, AnyImportTarget>): Promise<number> {
      if (recovering) return recovering;
      const recovery = (async () => {
        let ended = 0;
        while (!stopping) {
          const job = await tenancy.asSystem((tx) => claimAbandonedImportJob(tx, deps.owner.id, deps.owner.staleMs));
          if (!job) break;
          const lang: Lang = 'zh-CN';
          const ctx: WriteContext = {
            tenantId: job.tenantId,
            actorId: job.createdBy,
            now: new Date(),
            ip: null,
            userAgent: null,
            lang,
          };
          const target = targets.get(job.resource);
          if (target && job.status === 'undoing') {
            await undoImport(target, {
              jobId: job.id,
              ctx,
              batchSize: batchSizes[deps.engine],
              progress: (tx, left) => updateImportJob(tx, job.id, { done: left }),
            });
          }
          const code = 'import.interrupted';
          const error = { code, message: deps.catalog.message(code, lang) };
          await tenancy.inTenant(job.tenantId, (tx) =>
            updateImportJob(tx, job.id, {
              status: 'failed',
              report: { dryRun: job.dryRun, created: 0, updated: 0, failed: [], error },
              finished: new Date(),
            }),
          );
          deps.logger?.warn({ importJob: job.id, resource: job.resource }, 'import job of a stopped instance undone');
          ended += 1;
        }
        if (ended) await deps.analyze?.();
        return ended;
      })();
      recovering = recovery;
      running.add(recovery);
      const forget = () => {
        running.delete(recovery);
        recovering = undefined;
      };
      recovery.then(forget, forget);
      return recovery;
    },

    /**
     * Shutdown: the running jobs stop at their next batch (the batch under way is rolled back with its transaction),
     * undo what they had written and end as failed (`import.interrupted`); no abandoned job is taken over any more.
     * `idle` then waits for them. Should the process be stopped before the undoing ends, the job is left `undoing` under
     * an owner gone stale, and another instance (or the next start) finishes it.
     */
    stop(): void {
      stopping = true;
    },

    /** Settles when no job of this process is running (graceful shutdown, tests). */
    async idle(): Promise<void> {
      await Promise.allSettled([...running]);
    },
  };
}

export type ImportJobs = ReturnType<typeof createImportJobs>;
