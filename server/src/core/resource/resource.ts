import type { z } from '@hono/zod-openapi';
import type {
  ManifestCode,
  PermissionCode,
  PermissionPrefix,
  ResourceAction,
  ResourceMenu,
} from '../../db/seed/permissions';
import type { AppError } from '../errors';
import type { Lang } from '../i18n';
import type { Tx } from '../tenancy';
import type { Listed, ListQuery, ListSpec } from './list-query';
import type { ValueLabels } from './readable-cells';
import type { CellValue } from './spreadsheet';
import type { Actor, TableRepository } from './table.repository';

export type { PermissionPrefix, ResourceAction };

export interface ResourceRow {
  id: string;
  version: number;
}

/** Who writes, from where: every write's audit row is made of it. */
export interface WriteContext extends Actor {
  ip: string | null;
  userAgent: string | null;
  lang: Lang;
}

/** One row of the audit trail: what a write did to which record. */
export interface AuditRecord {
  action: string;
  resourceType: string;
  resourceId: string | null;
  summary: string;
  before?: unknown;
  after?: unknown;
  /** Groups the rows of one operation (an import job's trail, which undoes it). */
  traceId?: string;
}

/** Where every write leaves its trail, in the write's own transaction (modules/audit keeps it). */
export interface AuditTrail {
  /** A resource type's trail is readable with its list code. */
  register(resourceType: string, listCode: string): void;
  record(tx: Tx, ctx: WriteContext, r: AuditRecord): Promise<void>;
  /**
   * Several rows in one statement (an import batch). `toRecord` makes each item's record as its row is written, so a
   * batch's records never exist all at once.
   */
  recordMany<T = AuditRecord>(
    tx: Tx,
    ctx: WriteContext,
    items: readonly T[],
    toRecord?: (item: T) => AuditRecord,
  ): Promise<void>;
  /** The rows of one operation, newest first, older than `beforeId`: an import job's undo log. */
  traced(tx: Tx, traceId: string, beforeId: string | undefined, limit: number): Promise<TracedAudit[]>;
}

export interface TracedAudit {
  id: string;
  before: unknown;
  after: unknown;
}

/**
 * How an import makes one record of several rows: consecutive rows with the same text in the `key` column (a group
 * number) are one record, made by `combine` of the rows as the import row rule checked them, in sheet order; a row with
 * that column empty is a record alone (a group of one). A group's rows follow each other: a number used again further
 * down is refused.
 */
export interface ImportGroups {
  key: string;
  combine(rows: Record<string, unknown>[]): Record<string, unknown>;
  /** Where a failure of the record's `field` is in the sheet: which of its rows (0: the first), and that row's field. */
  locate(field: string): { index: number; field: string };
}

/** A spreadsheet column: export writes `cell(row)` (default `row[key]`), import reads it into `key`. */
export interface ColumnSpec<Row> {
  key: string;
  label: Record<Lang, string>;
  only?: 'export' | 'import';
  cell?: (row: Row) => CellValue;
  /** The catalogue key of its label: its coded values' labels are `<labelKey>.<value>` (readable-cells.ts). */
  labelKey?: string;
  /** The labels of its coded values, which an export writes and an import reads back (found from `labelKey`). */
  values?: ValueLabels;
  /**
   * The dictionary (type code) its values are the items of: an import and its template read the tenant's items as
   * `values` (coded-columns.ts).
   */
  dictionary?: string;
  example?: string;
  /** How to fill it in: the template's instructions sheet lists the columns that have one. */
  note?: Record<Lang, string>;
}

export interface ResourceDefinition<Row extends ResourceRow, Create, Update extends { version: number }> {
  /** URL segment under /api, plural kebab-case. */
  path: string;
  /** resource_type of its audit rows. */
  type: string;
  /** `area:entity`; routes need `<permission>:list|export|create|update|delete|import`. */
  permission: string;
  /** Where its menu sits, when the manifest (db/seed/permissions.ts) does not list it: its codes are seeded from it. */
  menu?: ResourceMenu;
  /** Codes that differ from `<permission>:<action>` (dictionary items: `dictionary:syscode:item-create`). */
  actions?: Partial<Record<ResourceAction, ManifestCode>>;
  /**
   * Permissions of other screens that list these records too, besides its own list permission: where they are offered
   * as choices (a message template's business item) to a user who may not open this entity's screen. (Codes as text:
   * the permission codes' type is made of the resources' declarations, this one's included.)
   */
  listedBy?: readonly `${string}:${string}:${string}`[];
  /** OpenAPI component names derive from it (`AdminUser`, `AdminUserList`, `CreateAdminUser`, ...). */
  schemas: {
    row: z.ZodType<Row>;
    create: z.ZodType<Create>;
    update: z.ZodType<Update>;
    /** One row of an import file; defaults to `create`. */
    importRow?: z.ZodType<Record<string, unknown>>;
  };
  list: ListSpec;
  columns: ColumnSpec<Row>[];
  /** Import in upsert mode (and duplicate checks in insert mode) find existing records by this column. */
  importKey?: string;
  /** Records an import reads from several rows each (a question group: its first row, then its items). */
  importGroups?: ImportGroups;
  /**
   * Its import's records never refer to each other: no row names another of the same sheet, and what a record writes
   * does not depend on the rows written before it. An import that writes is then one pass, not two: each batch is
   * written as soon as it is checked, while the next one is checked (`runImport`).
   */
  importIndependent?: boolean;
  /**
   * The template's example rows, by column key, instead of each column's `example`; or the rows for a tenant, read in
   * its transaction, when they name its own records (a question's category), so that its template imports as it comes.
   */
  importExamples?: Record<string, CellValue>[] | ((tx: Tx) => Promise<Record<string, CellValue>[]>);
  /**
   * Form fields (and template query parameters) an import is made for, when its columns depend on them (a trainee
   * type's own fields): the service answers the template and the import's columns and row rule for their values.
   */
  importParams?: z.ZodObject;
  /** How the audit trail names a record. */
  label(row: Row): string;
}

/** A generic action the manifest does not grant under the prefix (a client's import) names a code nobody holds. */
export const actionCode = (
  def: { permission: string; actions?: Partial<Record<ResourceAction, ManifestCode>> },
  action: string,
) => (def.actions?.[action as ResourceAction] ?? `${def.permission}:${action}`) as PermissionCode;

/** What the generic service needs of an entity: its SQL, plus the rules of its writes. */
export interface ResourceStore<Row extends ResourceRow, Create, Update extends { version: number }> {
  list(tx: Tx, query: ListQuery): Promise<Listed<Row>>;
  /** `viewer`: the user who reads or writes it; a store whose rows have a data scope finds none outside it. */
  find(tx: Tx, id: string, viewer?: string): Promise<Row | undefined>;
  findByKey?(tx: Tx, key: string): Promise<Row | undefined>;
  /** `findByKey` for a batch of import keys, in one statement. */
  findAllByKey?(tx: Tx, keys: string[]): Promise<Row[]>;
  /**
   * `create` for a batch of imported rows, in one statement; without it import creates row by row. `tableStore`'s
   * (marked by `sameAsCreate`) stands only while the store's `create` is still the one it was made with: a store that
   * spreads it and brings its own `create` imports row by row, so the rules of its `create` cannot be bypassed.
   */
  createMany?(tx: Tx, inputs: Create[], ctx: WriteContext): Promise<Row[]>;
  create(tx: Tx, input: Create, ctx: WriteContext): Promise<Row>;
  /** undefined when `input.version` is stale. */
  update(tx: Tx, current: Row, input: Update, ctx: WriteContext): Promise<Row | undefined>;
  remove(tx: Tx, rows: Row[], ctx: WriteContext): Promise<void>;
  /**
   * A validated import row as a create input (no `existing`) or an update input; defaults to the row itself.
   * `earlierKeys`, while the file is validated: import keys of its earlier rows, which exist by the time this row is
   * written (a parent made in the same file).
   */
  fromImport?(
    tx: Tx,
    record: Record<string, unknown>,
    existing: Row | undefined,
    ctx: WriteContext,
    earlierKeys?: ReadonlySet<string>,
  ): Promise<Create | Update>;
  /**
   * The refusal of an insert-mode import row whose key is found (`current`, as the key look-up reads it); defaults to
   * `common.duplicate` on the key's column. A store words its own where it can say more (which record, how to go on).
   */
  importDuplicate?(current: Row, ctx: WriteContext): AppError;
  /**
   * What the store says of an import's new records that does not stop them (a likely duplicate), made once per import
   * (undefined: nothing to say for this one, a store may look in a dry run only); `runImport` asks it for each batch.
   */
  importWarnings?(
    ctx: WriteContext,
    options: { dryRun: boolean; mode: 'insert' | 'upsert' },
  ): ImportWarner<Create> | undefined;
}

/** Warnings of an import, a batch of checked new records at a time (see `ResourceStore.importWarnings`). */
export interface ImportWarner<Create> {
  /**
   * The warnings of a batch's new records (each with its sheet row and the input it makes), by record and field.
   * `read` runs a short transaction of its own, others getting the database in between: as many as it needs.
   */
  check(
    read: <T>(work: (tx: Tx) => Promise<T>) => Promise<T>,
    records: { row: number; input: Create }[],
  ): Promise<{ index: number; field: string; message: string }[]>;
  /** Once every row is checked: when it looked at only some records (a bounded look-up), how many of how many. */
  partial(): { checked: number; total: number; message: string } | undefined;
}

/** Marks `createMany` as `create` for many rows at once: it is used only while a store's `create` is `create`. */
export function sameAsCreate<F extends (...args: never[]) => unknown>(createMany: F, create: unknown): F {
  return Object.assign(createMany, { creates: create });
}

/** The store's `createMany`, unless it was made for another `create` than the store's own (see `sameAsCreate`). */
export function bulkCreate<Row extends ResourceRow, Create, Update extends { version: number }>(
  store: ResourceStore<Row, Create, Update>,
): ((tx: Tx, inputs: Create[], ctx: WriteContext) => Promise<Row[]>) | undefined {
  const many = store.createMany;
  if (!many) return undefined;
  const creates = (many as { creates?: unknown }).creates;
  return creates === undefined || creates === store.create
    ? (tx, inputs, ctx) => many.call(store, tx, inputs, ctx)
    : undefined;
}

/** The store of a plain entity: its table, nothing else. Imports create many rows per statement. */
export function tableStore<Row extends ResourceRow, Create, Update extends { version: number }>(
  repo: TableRepository<Row>,
  importKey?: string,
): ResourceStore<Row, Create, Update> {
  const create: ResourceStore<Row, Create, Update>['create'] = (tx, input, ctx) =>
    repo.insert(tx, input as object, ctx);
  return {
    list: (tx, query) => repo.list(tx, query),
    find: (tx, id) => repo.find(tx, id),
    findByKey: importKey ? (tx, key) => repo.findBy(tx, importKey, key) : undefined,
    findAllByKey: importKey ? (tx, keys) => repo.findAllBy(tx, importKey, keys) : undefined,
    create,
    createMany: sameAsCreate(
      (tx: Tx, inputs: Create[], ctx: WriteContext) => repo.insertMany(tx, inputs as object[], ctx),
      create,
    ),
    update: (tx, current, { version, ...values }, ctx) => repo.update(tx, current.id, values, ctx, version),
    remove: async (tx, rows, ctx) => {
      await repo.remove(
        tx,
        rows.map((r) => r.id),
        ctx,
      );
    },
  };
}
