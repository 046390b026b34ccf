import type { Logger } from 'pino';
import type { Engine } from '../../db/database';
import type { ErrorCatalog } from '../error-catalog';
import { AppError, notFound } from '../errors';
import type { Lang } from '../i18n';
import type { Tenancy, Tx } from '../tenancy';
import {
  findImportJob,
  findLatestImportJob,
  type ImportJobRow,
  importFailuresAfter,
  importJobFile,
  insertImportJob,
  requestImportJobCancel,
  unfinishedImportJobs,
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
 * The same interface would sit on pg-boss for several PostgreSQL instances; cancellation goes through the job
 * row, so any instance can ask.
 */
export function createImportJobs(deps: {
  tenancy: Tenancy;
  /** Numeric settings with their defaults (the tenant's limits). */
  settings: { numbers<K extends string>(tx: Tx, defaults: Record<K, number>): Promise<Record<K, number>> };
  catalog: ErrorCatalog;
  engine: Engine;
  /** ANALYZE as the database owner; needed on the embedded database, which never runs autovacuum. */
  analyze?: () => Promise<void>;
  logger?: Logger;
}) {
  const { tenancy } = deps;
  const running = new Set<Promise<unknown>>();

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
     * At start: the jobs a stopped process left unfinished end as failed (`import.interrupted`); what one of them had
     * applied is undone from its audit trail first, so an all-or-nothing import stays all or nothing. Runs in the
     * background like a job (`idle` waits for it). One process per database runs jobs: a second instance starting
     * would take another's running jobs for interrupted ones.
     */
    recover(targets: Map<string, AnyImportTarget>): Promise<number> {
      const recovery = (async () => {
        const jobs = await tenancy.asSystem(unfinishedImportJobs);
        for (const job of jobs) {
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
          if (target && !job.dryRun && (job.status === 'applying' || job.status === 'undoing')) {
            await tenancy.inTenant(job.tenantId, (tx) => updateImportJob(tx, job.id, { status: 'undoing' }));
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
          deps.logger?.warn({ importJob: job.id, resource: job.resource }, 'import job interrupted by a restart');
        }
        if (jobs.length) await deps.analyze?.();
        return jobs.length;
      })();
      running.add(recovery);
      const forget = () => running.delete(recovery);
      recovery.then(forget, forget);
      return recovery;
    },

    /** Settles when no job of this process is running (graceful shutdown, tests). */
    async idle(): Promise<void> {
      await Promise.allSettled([...running]);
    },
  };
}

export type ImportJobs = ReturnType<typeof createImportJobs>;
