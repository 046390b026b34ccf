import { z } from '@hono/zod-openapi';
import { auditSummary, changedFields } from '../../../../src/utils/auditSummary';
import type { ErrorCatalog } from '../error-catalog';
import { notFound, versionConflict } from '../errors';
import type { Lang } from '../i18n';
import type { Tenancy, Tx } from '../tenancy';
import { labelCell, pickList, readsDictionaries, withDictionaryValues } from './coded-columns';
import { type Keyset, type ListQuery, type Page, toPage } from './list-query';
import { type Reading, readableCell, valueLabels } from './readable-cells';
import {
  type AuditRecord,
  type AuditTrail,
  actionCode,
  type ColumnSpec,
  type ResourceDefinition,
  type ResourceRow,
  type ResourceStore,
  type WriteContext,
} from './resource';
import type { ImportTarget } from './resource-import';
import { type CellValue, sheetNameOf, streamSheet, writeSheet, yieldToOthers } from './spreadsheet';
import type { Actor } from './table.repository';

/** The columns and row rule of an import made for some parameters (`importParams`). */
export interface ImportShape<Row> {
  columns: ColumnSpec<Row>[];
  importRow: z.ZodType<Record<string, unknown>>;
  /** The field of an import row that finds its record (`findAllByKey`), when not the definition's. */
  importKey?: string;
}

export interface ResourceDeps {
  tenancy: Tenancy;
  audit: AuditTrail;
  catalog: ErrorCatalog;
}

export interface SpreadsheetFile {
  filename: string;
  body: Uint8Array | ReadableStream<Uint8Array>;
}

/**
 * Rows an export reads per query, each in its own short transaction: on the embedded database a read holds the only
 * connection and this thread, so a batch stays short for other requests' sake.
 */
const EXPORT_BATCH = 500;

/** The template's instructions sheet, after the sheet an import reads. */
const templateNotes: Record<Lang, { name: string; header: string[] }> = {
  'zh-CN': { name: '填写说明', header: ['列', '说明'] },
  'en-US': { name: 'Instructions', header: ['Column', 'How to fill it in'] },
};

const stamp = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');

/**
 * The behaviour every resource shares: reads, writes in one transaction with their audit row, optimistic
 * locking, all-or-nothing batch delete, export and import. The entity brings its definition and store.
 */
export function createResourceService<Row extends ResourceRow, Create, Update extends { version: number }>(
  def: ResourceDefinition<Row, Create, Update>,
  store: ResourceStore<Row, Create, Update>,
  deps: ResourceDeps,
  /** What an import for the values of `def.importParams` reads and writes (required with them). */
  importShape?: (tx: Tx, params: Record<string, unknown>) => Promise<ImportShape<Row>>,
  /** The columns of an export of `query`, when its filters add some (a trainee type's own fields). */
  exportShape?: (tx: Tx, query: ListQuery, columns: ColumnSpec<Row>[]) => Promise<ColumnSpec<Row>[]>,
  /**
   * An export in the import's layout (its template's columns, so that a file exported imports again): a batch of the
   * list's rows as the sheet's rows, by column key (a question group: its row, then its items'), read in the batch's
   * transaction.
   */
  exportRows?: (tx: Tx, rows: Row[]) => Promise<Record<string, CellValue>[]>,
) {
  deps.audit.register(def.type, `${def.permission}:list`);
  const code = (action: string) => actionCode(def, action);

  const auditRecord = (
    action: string,
    before: Row | undefined,
    after: Row | undefined,
    note?: string,
    traceId?: string,
  ): AuditRecord => {
    const row = (after ?? before) as Row;
    const changes = before && after ? changedFields(before, after) : [];
    const summary = auditSummary(def.label(row), changes, note);
    return { action, resourceType: def.type, resourceId: row.id, summary, before, after, traceId };
  };
  const audit = (
    tx: Tx,
    ctx: WriteContext,
    action: string,
    before: Row | undefined,
    after: Row | undefined,
    note?: string,
  ) => deps.audit.record(tx, ctx, auditRecord(action, before, after, note));

  const findOrFail = async (tx: Tx, id: string, viewer: string | undefined) => {
    const row = await store.find(tx, id, viewer);
    if (!row) throw notFound();
    return row;
  };

  const importRow = def.schemas.importRow ?? def.schemas.create;
  // a coded field's labels, written by an export and read back by an import
  const columns = def.columns.map((c) =>
    c.values || !c.labelKey || c.cell
      ? c
      : { ...c, values: valueLabels(c.labelKey, c.key, [def.schemas.row, importRow]) },
  );
  const exportColumns = columns.filter((c) => c.only !== 'import');
  const importColumns = columns.filter((c) => c.only !== 'export');
  /** The fields an import reads: an export writes their instants as the import reads them. */
  const imported = new Set(importRow instanceof z.ZodObject ? Object.keys(importRow.shape) : []);
  const sheetName = sheetNameOf(def.path);
  const cell = (column: ColumnSpec<Row>, row: Row): CellValue =>
    column.cell ? column.cell(row) : ((row as unknown as Record<string, CellValue>)[column.key] ?? null);

  const importTarget: ImportTarget<Row, Create, Update> = {
    def,
    store,
    columns: importColumns,
    tenancy: deps.tenancy,
    catalog: deps.catalog,
    auditRecord: (e, traceId) => auditRecord(code('import'), e.before, e.after, e.note, traceId),
    recordAudit: deps.audit.recordMany,
    auditTrail: deps.audit.traced,
  };

  /** The import's columns and definition for `params` (the resource's own without them). */
  const shaped = async (tenantId: string, params: Record<string, unknown> | undefined) => {
    if (!importShape || !params) return { columns: importColumns, def };
    const shape = await deps.tenancy.inTenant(tenantId, (tx) => importShape(tx, params));
    const importKey = shape.importKey ?? def.importKey;
    return {
      columns: shape.columns,
      def: { ...def, importKey, schemas: { ...def.schemas, importRow: shape.importRow } },
    };
  };

  return {
    /**
     * Audits a change a caller made in `tx` as the resource audits its own writes: `<permission>:<action>`, the record's
     * label and the fields it changed (a batch that writes several records in one transaction).
     */
    audit: (tx: Tx, ctx: WriteContext, action: string, before: Row, after: Row) =>
      audit(tx, ctx, code(action), before, after),

    async list(tenantId: string, query: ListQuery): Promise<Page<Row>> {
      return toPage(query, await deps.tenancy.inTenant(tenantId, (tx) => store.list(tx, query)));
    },

    async get(tenantId: string, id: string, viewer?: string): Promise<Row> {
      return deps.tenancy.inTenant(tenantId, (tx) => findOrFail(tx, id, viewer));
    },

    async create(ctx: WriteContext, input: Create): Promise<Row> {
      return deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
        const row = await store.create(tx, input, ctx);
        await audit(tx, ctx, code('create'), undefined, row);
        return row;
      });
    },

    async update(ctx: WriteContext, id: string, input: Update): Promise<Row> {
      return deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
        const before = await findOrFail(tx, id, ctx.actorId);
        if (before.version !== input.version) throw versionConflict();
        const after = await store.update(tx, before, input, ctx);
        if (!after) throw versionConflict();
        await audit(tx, ctx, code('update'), before, after);
        return after;
      });
    },

    async remove(ctx: WriteContext, ids: string[]): Promise<number> {
      const unique = [...new Set(ids)];
      return deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
        const rows: Row[] = [];
        for (const id of unique) rows.push(await findOrFail(tx, id, ctx.actorId));
        await store.remove(tx, rows, ctx);
        for (const row of rows) await audit(tx, ctx, code('delete'), row, undefined);
        return rows.length;
      });
    },

    /** A non-CRUD action on one record: `work` returns the record after it; audited as `<permission>:<action>`. */
    async act(
      ctx: WriteContext,
      id: string,
      action: string,
      work: (tx: Tx, row: Row) => Promise<Row>,
      /** The audit entry's note, or what makes it once the work is done (what the work found). */
      note?: string | (() => string),
    ): Promise<Row> {
      return deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
        const before = await findOrFail(tx, id, ctx.actorId);
        const after = await work(tx, before);
        await audit(tx, ctx, code(action), before, after, typeof note === 'function' ? note() : note);
        return after;
      });
    },

    /**
     * The filtered, sorted set, streamed: read a batch at a time (each batch in its own short transaction, after the
     * previous batch's last row by the list's order and id, so every read costs the same), never all of it in memory.
     */
    async export(tenantId: string, query: ListQuery, reading: Reading): Promise<SpreadsheetFile> {
      const { lang } = reading;
      const columns = exportRows
        ? importColumns
        : exportShape
          ? await deps.tenancy.inTenant(tenantId, (tx) => exportShape(tx, query, exportColumns))
          : exportColumns;
      async function* batches() {
        const keyset: Keyset = {};
        for (let current = 1; ; current += 1) {
          const page = { current, pageSize: EXPORT_BATCH, skipTotal: true, keyset };
          const { rows, cells } = await deps.tenancy.inTenant(tenantId, async (tx) => {
            const { rows } = await store.list(tx, { ...query, page });
            if (!exportRows) {
              const shown = (c: ColumnSpec<Row>, row: Row) =>
                readableCell(cell(c, row), c, imported.has(c.key), reading);
              return { rows, cells: rows.map((row) => columns.map((c) => shown(c, row))) };
            }
            const records = await exportRows(tx, rows);
            return { rows, cells: records.map((record) => columns.map((c) => record[c.key] ?? null)) };
          });
          await yieldToOthers();
          yield cells;
          if (rows.length < EXPORT_BATCH) return;
        }
      }
      // The first batch is read before the file starts: a filter the query refuses (a trainee's custom values that are
      // not JSON) answers 400 here, rather than a 200 whose stream breaks after its headers are gone.
      const read = batches();
      const first = await read.next();
      async function* all() {
        if (first.done) return;
        yield first.value;
        yield* read;
      }
      const body = streamSheet(
        sheetName,
        columns.map((c) => c.label[lang]),
        all(),
      );
      return { filename: `${sheetName}-${stamp(new Date())}.xlsx`, body };
    },

    async template(lang: Lang, tenantId: string, params?: Record<string, unknown>): Promise<SpreadsheetFile> {
      const shapedColumns = (await shaped(tenantId, params)).columns;
      const columns = readsDictionaries(shapedColumns)
        ? await deps.tenancy.inTenant(tenantId, (tx) => withDictionaryValues(tx, shapedColumns))
        : shapedColumns;
      const own = def.importExamples;
      const rows = typeof own === 'function' ? await deps.tenancy.inTenant(tenantId, own) : own;
      // a coded column shows its values' labels, as the people who fill it in name them
      const examples = (
        rows?.map((example) => columns.map((c) => example[c.key] ?? null)) ?? [columns.map((c) => c.example ?? '')]
      ).map((example) => example.map((value, i) => labelCell(columns[i] ?? { key: '' }, value, lang)));
      const noted = columns.filter((c) => c.note);
      const notes = noted.length
        ? [{ ...templateNotes[lang], rows: noted.map((c) => [c.label[lang], c.note?.[lang]]) }]
        : [];
      const body = await writeSheet(
        sheetName,
        columns.map((c) => c.label[lang]),
        examples,
        notes,
        columns.map((c) => pickList(c, lang)),
      );
      return { filename: `${sheetName}-template.xlsx`, body };
    },

    /** What an import job of this resource needs (see runImport). */
    importTarget,

    /** The import target for the values of `def.importParams`: its columns and row rule are theirs. */
    async importTargetFor(tenantId: string, params: Record<string, unknown>): Promise<typeof importTarget> {
      return { ...importTarget, ...(await shaped(tenantId, params)) };
    },
  };
}

export type ResourceService<Row extends ResourceRow, Create, Update extends { version: number }> = ReturnType<
  typeof createResourceService<Row, Create, Update>
>;

/** What `versionedAct` writes a record's changes with: a table repository's `update`, which stamps the record. */
interface Stamping {
  update(tx: Tx, id: string, values: object, actor: Actor): Promise<unknown>;
}

/**
 * A resource's actions on the version of the record its caller read: refused (409) when the record changed since.
 * `work` writes what it must and answers the values of the record it changes (none: only its stamp); they are written
 * with the record's stamp, which moves its version on once, and the record is read again for the answer and the audit.
 */
export function versionedAct<Row extends ResourceRow, Create, Update extends { version: number }>(
  resource: ResourceService<Row, Create, Update>,
  repo: Stamping,
  find: (tx: Tx, id: string) => Promise<Row | undefined>,
) {
  return (
    ctx: WriteContext,
    id: string,
    action: string,
    version: number | undefined,
    work: (tx: Tx, row: Row) => Promise<object | undefined> | Promise<void>,
  ): Promise<Row> =>
    resource.act(ctx, id, action, async (tx, row) => {
      if (version !== undefined && row.version !== version) throw versionConflict();
      await repo.update(tx, id, (await work(tx, row)) ?? {}, ctx);
      return (await find(tx, id)) as Row;
    });
}
