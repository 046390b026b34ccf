import { sql } from 'kysely';
import type { ErrorCatalog } from '../error-catalog';
import { AppError, invalidField, isUniqueViolation, versionConflict } from '../errors';
import type { Tenancy, Tx } from '../tenancy';
import { importRowReader, readsDictionaries, withDictionaryValues } from './coded-columns';
import { insertImportFailures, type StoredFailure, updateImportJob } from './import-job.repository';
import { keepHold, stillHeld, TakenOver } from './import-takeover';
import {
  type AuditRecord,
  type AuditTrail,
  bulkCreate,
  type ColumnSpec,
  type ResourceDefinition,
  type ResourceRow,
  type ResourceStore,
  type WriteContext,
} from './resource';
import { NotXlsx, type SheetRow, sheetRowCount, streamSheetRows, yieldToOthers } from './spreadsheet';
import { withSavepoint } from './table.repository';

export interface ImportOptions {
  dryRun: boolean;
  mode: 'insert' | 'upsert';
}

export interface ImportFailure {
  /** The spreadsheet row (the header is row 1). */
  row: number;
  /** The column's label in the request language; empty when the whole row is refused. */
  column: string;
  message: string;
}

export interface ImportReport {
  dryRun: boolean;
  created: number;
  updated: number;
  /** The first REPORTED_FAILURES failures; the job's failure sheet has all of them. */
  failed: ImportFailure[];
  /** With any failure: how many there are in all, and on how many rows. */
  failedTotal?: number;
  failedRows?: number;
  /**
   * What does not stop a row (a likely duplicate), in the sheet's order: present when the resource looked for it
   * (`ResourceStore.importWarnings`), the first REPORTED_FAILURES of them.
   */
  warnings?: ImportFailure[];
  /** With more warnings than the report lists: how many in all. */
  warningTotal?: number;
  /** When the resource looked at only some of the records for warnings (a bounded look-up): how many, of how many. */
  warningsChecked?: { checked: number; total: number; message: string };
}

export const REPORTED_FAILURES = 1000;
/**
 * Validation reads only (one key look-up per batch), so its batches can be larger than those that write; not so large
 * that a batch's parsed rows live long enough to be promoted to the old generation (the process's memory grows).
 */
const VALIDATION_BATCH = 500;
/** Batches of a one-pass import written at once: while the database writes one, the server makes the next. */
const WRITES_IN_FLIGHT = 2;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

const texts = {
  'zh-CN': {
    notXlsx: '不是有效的 xlsx 文件',
    unknownColumn: '无法识别的列',
    noHeader: '缺少表头行',
    repeated: '与文件中前面的行重复',
    groupSplit: '该组号已在前面用过：同一组的行须相邻',
    undone: '导入未完成，已撤销',
  },
  'en-US': {
    notXlsx: 'is not a readable xlsx file',
    unknownColumn: 'is not a column of this import',
    noHeader: 'the header row is missing',
    repeated: 'repeats an earlier row of the file',
    groupSplit: 'this group number was used above: the rows of a group follow each other',
    undone: 'undone: the import did not complete',
  },
};

export const notXlsx = (lang: WriteContext['lang']) => invalidField('file', texts[lang].notXlsx);

/** What a resource brings to an import: its definition, store, columns, the tenancy its writes run in, its audit. */
export interface ImportTarget<Row extends ResourceRow, Create, Update extends { version: number }> {
  def: ResourceDefinition<Row, Create, Update>;
  store: ResourceStore<Row, Create, Update>;
  columns: ColumnSpec<Row>[];
  tenancy: Tenancy;
  catalog: ErrorCatalog;
  /** Runs after an import that wrote rows (the error-code catalogue reloads). */
  afterImport?: () => Promise<void>;
  /** The audit record of an imported (or undone) row, written with the batch; `traceId` names the job. */
  auditRecord(entry: { before?: Row; after?: Row; note?: string }, traceId: string): AuditRecord;
  recordAudit: AuditTrail['recordMany'];
  auditTrail: AuditTrail['traced'];
}

export interface ImportJobRun {
  id: string;
  /** Rows per batch written: each is one short transaction, so that other requests get the database in between. */
  batchSize: number;
  ctx: WriteContext;
  file: Uint8Array;
  options: ImportOptions;
  maxRows: number;
  /** Refreshes the planner's statistics as the table grows (the embedded database never does it by itself). */
  refreshStatistics?: () => Promise<void>;
  /** True once the server is shutting down: the job stops at its next batch, undoes its writes and fails. */
  stopping?: () => boolean;
  /** Told of the records each committed batch created or updated (the metrics). */
  written?: (rows: number) => void;
  /**
   * The instance running the job (import_job.owner_instance). Should another take the job over (this one was thought
   * gone), the run stops at its next batch, rolled back, and leaves the job and what it wrote to that instance
   * (import-takeover.ts).
   */
  owner?: string;
}

export interface ImportOutcome {
  status: 'done' | 'failed' | 'cancelled';
  report: ImportReport;
  /** Why the import stopped when it is not a row's fault (too many rows, not an xlsx). */
  error?: AppError;
}

/** What a run taken over answers (to no one but its caller): the job's row is the other instance's to end. */
export const takenOver = (report: ImportReport): ImportOutcome => ({
  status: 'failed',
  report,
  error: new AppError('import.interrupted'),
});

class Cancelled extends Error {}
/** The server is shutting down: undone like a cancellation, but the job ends failed (`import.interrupted`). */
class Interrupted extends Cancelled {}
class RowsFailed extends Error {
  constructor(readonly failures: ImportFailure[]) {
    super('rows failed');
  }
}
class Rollback extends Error {}

/** A row as read: its cells by column key, and the import row rule's verdict on them (data, or every problem). */
interface ParsedRow {
  row: number;
  cells: Record<string, unknown>;
  parsed: ReturnType<ReturnType<typeof importRowReader>['check']>;
}

/** One record of the sheet: its rows (one, or a group's), the first naming it. */
interface SheetRecord {
  row: number;
  rows: number[];
  record: Record<string, unknown>;
}

/**
 * Imports a spreadsheet as a job, all rows or none, streamed in short transactions:
 * 1. check: every row against the schema, keys looked up a batch at a time, repeated keys, the store's own
 *    import rules; failures are stored (the first REPORTED_FAILURES also go in the report). The store's warnings
 *    (`importWarnings`: a likely duplicate) are asked of the new records of each batch, and listed in the report
 *    apart from the failures: they stop no row. A dry run ends here.
 * 2. write (only while every row passed): each batch is written with multi-row statements and audited, each audit row
 *    naming the job (trace id `import:<job id>`), so the audit trail is the undo log: a failure or a cancellation
 *    undoes the batches already written from it (created rows removed, updated rows restored from their `before`),
 *    newest first, batch by batch.
 * Records that never refer to each other (`importIndependent`) are written in the pass that checks them, a batch as
 * soon as it is checked; others in a second pass, once every row has passed, reading the sheet again (a row may name
 * one written before it). The table thus ends as it was or with every row; while rows are written, other users may see
 * them arriving. Where the definition groups rows (`importGroups`), a group's rows are one record: each row is checked
 * by the row rule, then the group's record by the rest, its failures named on the rows and columns they came from.
 */
export async function runImport<Row extends ResourceRow, Create, Update extends { version: number }>(
  target: ImportTarget<Row, Create, Update>,
  job: ImportJobRun,
): Promise<ImportOutcome> {
  const { def, store, tenancy, catalog } = target;
  const { ctx, options, batchSize } = job;
  const { lang } = ctx;
  const t = texts[lang];
  const inTenant = <T>(work: (tx: Tx) => Promise<T>) => tenancy.inTenant(ctx.tenantId, work);

  const report: ImportReport = { dryRun: options.dryRun, created: 0, updated: 0, failed: [] };
  const warner = store.importWarnings?.(ctx, options);
  if (warner) report.warnings = [];
  let warningTotal = 0;
  /** A batch's warnings join the report's, after those of the batches before it. */
  const recordWarnings = (warnings: ImportFailure[]) => {
    for (const w of warnings) {
      warningTotal += 1;
      if ((report.warnings?.length ?? 0) < REPORTED_FAILURES) report.warnings?.push(w);
      else report.warningTotal = warningTotal;
    }
  };
  let failedTotal = 0;
  let failedRows = 0;
  let lastFailedRow = -1;
  const finalReport = (): ImportReport => (failedTotal ? { ...report, failedTotal, failedRows } : report);
  const recordFailures = async (tx: Tx, failures: ImportFailure[]) => {
    const from = failedTotal;
    for (const f of failures) {
      if (report.failed.length < REPORTED_FAILURES) report.failed.push(f);
      failedTotal += 1;
      if (f.row !== lastFailedRow) failedRows += 1;
      lastFailedRow = f.row;
    }
    await insertImportFailures(tx, job.id, ctx.tenantId, from, failures as StoredFailure[]);
  };
  /**
   * Records progress; throws Cancelled (rolling back the batch) when someone asked to stop, Interrupted when the server
   * is shutting down, TakenOver when the job is no longer this instance's.
   */
  const progress = async (tx: Tx, values: Parameters<typeof updateImportJob>[2]) => {
    if (values.status === 'undoing') return void (await updateImportJob(tx, job.id, values));
    if (job.stopping?.()) throw new Interrupted();
    await keepHold(tx, job);
    if (await updateImportJob(tx, job.id, values)) throw new Cancelled();
  };
  /** How a job stopped by a cancellation or a shutdown ends, once what it wrote is undone. */
  const stopped = (err: Cancelled, report: ImportReport): ImportOutcome =>
    err instanceof Interrupted
      ? { status: 'failed', report, error: new AppError('import.interrupted') }
      : { status: 'cancelled', report };
  const finish = async (outcome: ImportOutcome): Promise<ImportOutcome> => {
    const error = outcome.error && {
      code: outcome.error.code,
      message: catalog.message(outcome.error.code, lang, outcome.error.params),
    };
    const ended = await inTenant(async (tx) => {
      if (!(await stillHeld(tx, job))) return false;
      await updateImportJob(tx, job.id, {
        status: outcome.status,
        report: { ...outcome.report, error },
        finished: new Date(),
      });
      return true;
    });
    return ended ? outcome : takenOver(outcome.report);
  };

  const byLabel = (text: string) =>
    target.columns.find((c) => c.key === text || c.label['zh-CN'] === text || c.label['en-US'] === text);
  /** A failure's column: the field's own (`customFields.school`), else the column of its head (`domains.0`). */
  const labelOf = (field: string) => {
    const key = field.split('.')[0] ?? field;
    return (
      (target.columns.find((c) => c.key === field) ?? target.columns.find((c) => c.key === key))?.label[lang] ?? key
    );
  };
  const groups = def.importGroups;
  /** A failure of a record's field, on the row and column it came from (a group's item: its own row). */
  const failureAt = (at: Pick<SheetRecord, 'row' | 'rows'>, field: string, message: string): ImportFailure => {
    const place = groups ? groups.locate(field) : { index: 0, field };
    return { row: at.rows[place.index] ?? at.row, column: labelOf(place.field), message };
  };
  const failuresOf = (err: unknown, at: Pick<SheetRecord, 'row' | 'rows'>): ImportFailure[] => {
    const { row } = at;
    if (err instanceof AppError) {
      const message = catalog.message(err.code, lang, err.params);
      if (!err.fields?.length) return [{ row, column: '', message }];
      return err.fields.map((f) => failureAt(at, f.field, f.message || message));
    }
    if (isUniqueViolation(err)) return [{ row, column: '', message: catalog.message('common.duplicate', lang) }];
    throw err;
  };
  const duplicate = () => new AppError('common.duplicate', {}, [{ field: def.importKey ?? '', message: '' }]);
  const schema = def.schemas.importRow ?? def.schemas.create;
  const keyOf = (record: Record<string, unknown>) =>
    def.importKey && record[def.importKey] !== undefined ? String(record[def.importKey]) : undefined;
  const lookUp = async (tx: Tx, records: Record<string, unknown>[]): Promise<Map<string, Row>> => {
    const keys = [...new Set(records.map(keyOf).filter((k): k is string => k !== undefined))];
    const found = new Map<string, Row>();
    if (store.findAllByKey) {
      for (const row of await store.findAllByKey(tx, keys))
        found.set(String((row as unknown as Record<string, unknown>)[def.importKey ?? '']), row);
    } else if (store.findByKey) {
      for (const key of keys) {
        const row = await store.findByKey(tx, key);
        if (row) found.set(key, row);
      }
    }
    return found;
  };

  let keys: (string | undefined)[] = [];
  /** A coded column's cell may name a value by its label, as an export writes it (a dictionary's: the tenant's items). */
  let reader = importRowReader(target.columns, schema, lang);
  const parse = ({ row, cells }: SheetRow): ParsedRow => {
    const record = reader.record(keys, cells);
    return { row, cells: record, parsed: reader.check(record) };
  };
  const groupOf = (r: ParsedRow) => (groups ? (r.cells[groups.key] as string | undefined) : undefined);
  /** A group's rows (each checked by the row rule) as its record. */
  const recordOf = (rows: ParsedRow[]): SheetRecord => {
    const data = rows.map((r) => r.parsed.data ?? {});
    return {
      row: rows[0]?.row ?? 0,
      rows: rows.map((r) => r.row),
      record: groups ? groups.combine(data) : (data[0] ?? {}),
    };
  };
  /** The sheet's row batches; its header sets `keys` first and, when it does not fit, answers its problems. */
  const sheet = async function* (rowsPerBatch: number) {
    for await (const part of streamSheetRows(job.file, rowsPerBatch)) {
      if (!('header' in part)) {
        yield part.rows;
        continue;
      }
      keys = part.header.map((h) => byLabel(h)?.key);
      if (readsDictionaries(target.columns))
        reader = importRowReader(await inTenant((tx) => withDictionaryValues(tx, target.columns)), schema, lang);
      const problems: ImportFailure[] = [];
      part.header.forEach((h, i) => {
        if (h && !keys[i]) problems.push({ row: 1, column: h, message: t.unknownColumn });
      });
      if (!keys.some(Boolean)) problems.push({ row: 1, column: '', message: t.noHeader });
      if (problems.length) throw new RowsFailed(problems);
    }
  };
  /**
   * The sheet's rows in batches of whole records, `rows` of them read per batch: the rows of a group (the
   * definition's `importGroups`) are one record, never split between batches (the last group of a batch waits for
   * the next, where it may go on).
   */
  const sheetRecords = async function* (rowsPerBatch: number) {
    let open: ParsedRow[] = [];
    for await (const rows of sheet(rowsPerBatch)) {
      const records: ParsedRow[][] = [];
      for (const r of [...open, ...rows.map(parse)]) {
        const last = records[records.length - 1];
        const group = groupOf(r);
        if (last && group !== undefined && groupOf(last[0] as ParsedRow) === group) last.push(r);
        else records.push([r]);
      }
      open =
        groups && records.length && groupOf(records[records.length - 1]?.[0] as ParsedRow) !== undefined
          ? (records.pop() as ParsedRow[])
          : [];
      yield { read: rows.length, records };
    }
    if (open.length) yield { read: 0, records: [open] };
  };

  /** A record checked: the row it updates (none: it is new) and what it writes, as the store makes it of the record. */
  interface Checked {
    at: SheetRecord;
    current?: Row;
    input: Create | Update;
  }
  const inputOf = async (tx: Tx, record: Record<string, unknown>, current?: Row, earlierKeys?: ReadonlySet<string>) =>
    (store.fromImport
      ? await store.fromImport(tx, record, current, ctx, earlierKeys)
      : current
        ? { ...record, version: current.version }
        : record) as Create | Update;

  // Checking: every row against the row rule, keys looked up a batch at a time, repeated keys, the store's own rules.
  const seenKeys = new Set<string>();
  /** Keys of rows that existed during checking: the second pass looks up only these (insert mode: none). */
  const existingKeys = new Set<string>();
  /** The groups already read: a group number met again further down splits a group. */
  const closedGroups = new Set<string>();
  /** A batch's failures (in the sheet's order: a group's name its rows in any order) and its valid records. */
  const check = async (tx: Tx, batch: ParsedRow[][]) => {
    const failures: ImportFailure[] = [];
    const checked: SheetRecord[] = [];
    /** Refused rows whose other cells make a record: the store's rules are asked of it too, for the rest of its problems. */
    const refused: { at: SheetRecord; columns: Set<string> }[] = [];
    for (const rows of batch) {
      const group = groupOf(rows[0] as ParsedRow);
      if (group !== undefined && closedGroups.has(group)) {
        failures.push({ row: rows[0]?.row ?? 0, column: labelOf(groups?.key ?? ''), message: t.groupSplit });
        continue;
      }
      if (group !== undefined) closedGroups.add(group);
      let valid = true;
      for (const { row, parsed: result } of rows) {
        if (result.data) continue;
        valid = false;
        for (const f of result.problems) failures.push({ row, column: labelOf(f.field), message: f.message });
      }
      if (valid) checked.push(recordOf(rows));
      const [only] = rows;
      const rest = !groups && store.fromImport && only && reader.rest(only.cells, only.parsed.problems);
      if (!valid && rest && only)
        refused.push({
          at: { row: only.row, rows: [only.row], record: rest },
          columns: new Set(only.parsed.problems.map((p) => labelOf(p.field))),
        });
    }
    const existing = await lookUp(
      tx,
      [...checked, ...refused.map((r) => r.at)].map((r) => r.record),
    );
    const valid: Checked[] = [];
    for (const at of checked) {
      const { record } = at;
      const key = keyOf(record);
      if (key !== undefined && seenKeys.has(key)) {
        failures.push(failureAt(at, def.importKey ?? '', t.repeated));
        continue;
      }
      if (key !== undefined) seenKeys.add(key);
      const current = key === undefined ? undefined : existing.get(key);
      let input: Create | Update;
      try {
        if (current && options.mode === 'insert') throw store.importDuplicate?.(current, ctx) ?? duplicate();
        input = await inputOf(tx, record, current, seenKeys);
      } catch (err) {
        failures.push(...failuresOf(err, at));
        continue;
      }
      if (current && key !== undefined) existingKeys.add(key);
      if (current) report.updated += 1;
      else report.created += 1;
      valid.push({ at, current, input });
    }
    for (const { at, columns } of refused) {
      const key = keyOf(at.record);
      try {
        await inputOf(tx, at.record, key === undefined ? undefined : existing.get(key), seenKeys);
      } catch (err) {
        failures.push(...failuresOf(err, at).filter((f) => !columns.has(f.column)));
      }
    }
    return { failures: failures.sort((a, b) => a.row - b.row), valid };
  };
  /**
   * The warnings of a checked batch's new records, in the sheet's order: the store reads in short transactions of its
   * own (after the batch's), others getting the database in between.
   */
  const warningsOf = async (valid: Checked[]): Promise<ImportFailure[]> => {
    const added = valid.filter((v) => !v.current);
    if (!warner || added.length === 0) return [];
    const read = async <T>(work: (tx: Tx) => Promise<T>) => {
      const result = await inTenant(work);
      await yieldToOthers();
      return result;
    };
    const said = await warner.check(
      read,
      added.map((v) => ({ row: v.at.row, input: v.input as Create })),
    );
    const warnings: ImportFailure[] = [];
    for (const { index, field, message } of said) {
      const at = added[index]?.at;
      if (at) warnings.push(failureAt(at, field, message));
    }
    return warnings.sort((a, b) => a.row - b.row);
  };

  const trace = `import:${job.id}`;
  let applied = 0;
  let analyzeAt = 1000;
  /** Each time the applied rows double, so that other requests' plans still fit the table's size. */
  const keepStatistics = async (force = false) => {
    if (!job.refreshStatistics || (!force && applied < analyzeAt)) return;
    analyzeAt = Math.max(analyzeAt, applied) * 2;
    await job.refreshStatistics();
  };
  const createMany = bulkCreate(store);
  /**
   * Writes a batch's records, then audits them: new ones one by one in file order (each input made only when those
   * before it are written: a row may name one made just before it) unless the store writes many at once.
   */
  const write = async (tx: Tx, items: Iterable<Omit<Checked, 'at'>> | AsyncIterable<Omit<Checked, 'at'>>) => {
    // a batch's commit need not wait for its log to reach the disk: should the server stop before it does, the job
    // is unfinished and a restart undoes it whole (`recover`) from the audit rows that did reach it
    await sql`SELECT set_config('synchronous_commit', 'off', true)`.execute(tx);
    const inserts: Create[] = [];
    const changed: { before?: Row; after?: Row }[] = [];
    for await (const { current, input } of items) {
      if (!current) {
        if (createMany) inserts.push(input as Create);
        else changed.push({ after: await store.create(tx, input as Create, ctx) });
        continue;
      }
      const after = await store.update(tx, current, input as Update, ctx);
      if (!after) throw versionConflict();
      changed.push({ before: current, after });
    }
    if (createMany && inserts.length) {
      const created = await createMany(tx, inserts, ctx);
      inserts.length = 0;
      for (const after of created) changed.push({ after });
    }
    const updated = changed.filter((c) => c.before).length;
    const counts = { created: changed.length - updated, updated };
    // The audit rows' JSON is made before the statement is sent; the rows it was made of are let go before waiting
    // for it (what is alive while this thread waits outlives the young generation and ends in the old one).
    const audited = writeAudit(tx, changed);
    changed.length = 0;
    await audited;
    return counts;
  };
  /** Each audit record lives only while its row's JSON is made. */
  const writeAudit = (tx: Tx, changed: { before?: Row; after?: Row }[]) =>
    target.recordAudit(tx, ctx, changed, (entry) => target.auditRecord(entry, trace));
  /** Writes records read again (the second pass), each made by the store as it comes, of the rows as they now are. */
  const apply = async (tx: Tx, rows: SheetRecord[]) => {
    // A key created meanwhile by someone else fails on the unique index, and the batch's rows are then located.
    const known = rows.map((r) => r.record).filter((record) => existingKeys.has(keyOf(record) ?? ''));
    const existing = known.length ? await lookUp(tx, known) : new Map<string, Row>();
    return write(
      tx,
      (async function* () {
        for (const { record } of rows) {
          const key = keyOf(record);
          const current = key === undefined ? undefined : existing.get(key);
          if (current && options.mode === 'insert') throw duplicate();
          yield { current, input: await inputOf(tx, record, current) };
        }
      })(),
    );
  };
  /** Which rows of a failed batch fail, each tried alone after the ones before it; nothing is kept. */
  const locate = async (rows: SheetRecord[]) => {
    const failures: ImportFailure[] = [];
    await inTenant(async (tx) => {
      for (const r of rows) {
        try {
          await withSavepoint(tx, () => apply(tx, [r]));
        } catch (err) {
          failures.push(...failuresOf(err, r).sort((a, b) => a.row - b.row));
        }
      }
      throw new Rollback();
    }).catch((err: unknown) => {
      if (!(err instanceof Rollback)) throw err;
    });
    return failures;
  };
  const undoAll = () =>
    undoImport(target, {
      jobId: job.id,
      ctx,
      batchSize,
      applied,
      progress: (tx, left) => progress(tx, { status: 'undoing', done: left }),
    });

  /**
   * One pass, for records independent of each other (`importIndependent`) when the import writes: each batch is
   * written as soon as it is checked, in its own transaction, while the next batches are read and checked and the one
   * before may still be written (the server's work on one overlapping the database's on another). The first failing
   * row stops the writing; the rest is still checked, for the report, and what was written is undone. Otherwise two
   * passes: every row is checked first (a dry run ends there), then read again and written.
   */
  const onePass = def.importIndependent === true && !options.dryRun;
  /** The batches being written (one pass); what ended one other than its rows' failures is kept to be thrown. */
  const writing = new Set<Promise<void>>();
  let writeError: unknown;
  /** Waits until at most `limit` batches are being written. */
  const settled = async (limit = 0) => {
    while (writing.size > limit) await Promise.race(writing);
    if (writeError !== undefined) throw writeError;
  };
  /** The sheet's rows of the batches written: the progress of a one-pass import. */
  let writtenRows = 0;
  const writeBatch = (items: Checked[], rows: number) => {
    // the batch records no progress: it commits only while the job is still this run's
    const written: Promise<void> = inTenant(async (tx) => {
      const counts = await write(tx, items);
      await keepHold(tx, job);
      return counts;
    })
      .then(
        async (counts) => {
          applied += counts.created + counts.updated;
          job.written?.(counts.created + counts.updated);
          writtenRows += rows;
          await keepStatistics();
        },
        async (err: unknown) => {
          if (err instanceof TakenOver) throw err;
          const failures = await locate(items.map((i) => i.at));
          if (failures.length === 0) throw err;
          await inTenant((tx) => recordFailures(tx, failures));
        },
      )
      .catch((err: unknown) => {
        writeError ??= err;
      })
      .finally(() => writing.delete(written));
    writing.add(written);
  };
  /** What a one-pass import wrote is undone when it does not end well. */
  const undoWritten = async () => {
    if (!onePass) return;
    await Promise.all(writing);
    await undoAll();
    await keepStatistics(true);
  };

  let rowCount = 0;
  const failed = async (error?: AppError): Promise<ImportOutcome> => {
    await undoWritten();
    return finish({
      status: 'failed',
      report: options.dryRun ? finalReport() : { ...finalReport(), created: 0, updated: 0 },
      error,
    });
  };
  try {
    if (onePass) {
      const rows = sheetRowCount(job.file);
      await inTenant((tx) =>
        progress(tx, { status: 'applying', done: 0, total: rows === undefined ? null : rows - 1 }),
      );
    }
    for await (const { read, records: batch } of sheetRecords(onePass ? batchSize : VALIDATION_BATCH)) {
      rowCount += read;
      if (rowCount > job.maxRows) return await failed(new AppError('import.tooManyRows', { max: job.maxRows }));
      // the writes leave the job's row alone: checking records the progress, and finds a cancellation
      const { failures, valid } = await inTenant(async (tx) => {
        const result = await check(tx, batch);
        await progress(
          tx,
          onePass ? { status: 'applying', done: writtenRows } : { status: 'validating', done: rowCount },
        );
        return result;
      });
      recordWarnings(await warningsOf(valid));
      if (failures.length) {
        // after the failures of the rows before them
        await settled();
        await inTenant((tx) => recordFailures(tx, failures));
      }
      if (onePass && failedTotal === 0) {
        await settled(WRITES_IN_FLIGHT - 1);
        if (failedTotal === 0) writeBatch(valid, sum(batch.map((rows) => rows.length)));
      }
      await yieldToOthers();
    }
    if (onePass) {
      await settled();
      await inTenant((tx) => progress(tx, { status: 'applying', done: writtenRows }));
    }
  } catch (err) {
    // a header that does not fit (read before any batch) ends as failed, below, which undoes what was written
    if (err instanceof TakenOver) return takenOver(report);
    if (!(err instanceof RowsFailed)) {
      await undoWritten();
      if (err instanceof Cancelled) return finish(stopped(err, { ...report, created: 0, updated: 0 }));
      if (err instanceof NotXlsx) return finish({ status: 'failed', report, error: notXlsx(lang) });
      throw err;
    }
    await inTenant((tx) => recordFailures(tx, err.failures));
  }
  const partial = warner?.partial();
  if (partial) report.warningsChecked = partial;
  if (failedTotal > 0) return failed();
  if (options.dryRun) return finish({ status: 'done', report });
  if (onePass) {
    await keepStatistics(true);
    const outcome = await finish({ status: 'done', report });
    await target.afterImport?.();
    return outcome;
  }

  // The second pass: write, batch by batch; the job's audit trail is its undo log. The keys seen are not needed again.
  seenKeys.clear();
  const total = report.created + report.updated;
  report.created = 0;
  report.updated = 0;
  try {
    await inTenant((tx) => progress(tx, { status: 'applying', done: 0, total }));
    let done = 0;
    for await (const { records: batch } of sheetRecords(batchSize)) {
      const records = batch.map(recordOf);
      try {
        const counts = await inTenant(async (tx) => {
          const result = await apply(tx, records);
          await progress(tx, { status: 'applying', done: done + records.length });
          return result;
        });
        report.created += counts.created;
        report.updated += counts.updated;
        applied += counts.created + counts.updated;
        job.written?.(counts.created + counts.updated);
        await keepStatistics();
        done += records.length;
      } catch (err) {
        if (err instanceof Cancelled || err instanceof TakenOver) throw err;
        const failures = await locate(records);
        if (failures.length === 0) throw err;
        throw new RowsFailed(failures);
      }
      await yieldToOthers();
    }
    await keepStatistics(true);
    const outcome = await finish({ status: 'done', report });
    await target.afterImport?.();
    return outcome;
  } catch (err) {
    if (err instanceof TakenOver) return takenOver(report);
    await undoAll();
    await keepStatistics(true);
    report.created = 0;
    report.updated = 0;
    if (err instanceof Cancelled) return finish(stopped(err, report));
    if (err instanceof RowsFailed) {
      await inTenant((tx) => recordFailures(tx, err.failures));
      return finish({ status: 'failed', report: finalReport() });
    }
    throw err;
  }
}

/**
 * Undoes what an import job applied, from its audit trail (trace `import:<job id>`), newest first, a batch per short
 * transaction: created rows are removed, updated rows get their `before` back; each undone row is audited under
 * `import:<job id>:undo`. Undoing twice is harmless: removed rows stay removed, restored rows are restored again.
 */
export async function undoImport<Row extends ResourceRow, Create, Update extends { version: number }>(
  target: ImportTarget<Row, Create, Update>,
  run: {
    jobId: string;
    ctx: WriteContext;
    batchSize: number;
    /** Rows applied, when known: progress counts down from it. */
    applied?: number;
    progress?: (tx: Tx, left: number) => Promise<unknown>;
  },
): Promise<void> {
  const { store } = target;
  const { ctx, batchSize } = run;
  const trace = `import:${run.jobId}`;
  const note = texts[ctx.lang].undone;
  let left = run.applied ?? 0;
  let before: string | undefined;
  for (;;) {
    const finished = await target.tenancy.inTenant(ctx.tenantId, async (tx) => {
      const entries = await target.auditTrail(tx, trace, before, batchSize);
      if (entries.length === 0) return true;
      before = entries[entries.length - 1]?.id;
      const undone: { before?: Row; after?: Row; note?: string }[] = [];
      const created = entries.filter((e) => !e.before).map((e) => e.after as Row);
      if (created.length) await store.remove(tx, created, ctx);
      undone.push(...created.map((row) => ({ before: row, note })));
      for (const e of entries.filter((x) => x.before)) {
        const { id, version: _, ...values } = e.before as Row & Record<string, unknown>;
        const current = await store.find(tx, id);
        const restored =
          current &&
          (await store.update(tx, current, { ...values, version: current.version } as unknown as Update, ctx));
        if (restored) undone.push({ before: current, after: restored, note });
      }
      await target.recordAudit(tx, ctx, undone, (entry) => target.auditRecord(entry, `${trace}:undo`));
      left -= entries.length;
      await run.progress?.(tx, Math.max(0, left));
      return false;
    });
    if (finished) return;
    await yieldToOthers();
  }
}
