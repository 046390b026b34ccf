import type { ManifestPrefix, ResourceMenu } from '../../db/seed/permissions';
import { labelOf } from '../labels';
import type { FilterSpec, ListSpec } from './list-query';
import { type ColumnSpec, type ResourceDefinition, type ResourceRow, type ResourceStore, tableStore } from './resource';
import { type ColumnOf, type TableName, type TableSpec, tableRepository } from './table.repository';

/** A spreadsheet column as declared: its header is the catalogue's `<labels>.<key>` unless it names its own label. */
export type SheetColumn<Row> = Omit<ColumnSpec<Row>, 'label'> & { label?: string };

type Field<Row> = keyof Row & string;

/** The list of a resource over its own table: sortable fields, and filters over the table's columns. */
export interface TableListing<T extends TableName, Row> {
  sort: readonly Field<Row>[];
  /** e.g. `-createdAt`. */
  defaultSort: string;
  filters: Record<string, FilterSpec<ColumnOf<T>>>;
}

/**
 * Its permission prefix: a new one comes with its menu (`menu`, which seeds its codes); without a menu, a prefix the
 * manifest has.
 */
interface PrefixAndMenu<P extends string, M extends ResourceMenu | undefined> {
  permission: P & (M extends ResourceMenu ? unknown : ManifestPrefix);
  menu?: M;
}

interface Declared<
  Row extends ResourceRow,
  Create,
  Update extends { version: number },
  P extends string,
  M extends ResourceMenu | undefined,
> extends Omit<ResourceDefinition<Row, Create, Update>, 'columns' | 'list' | 'importKey' | 'permission' | 'menu'>,
    PrefixAndMenu<P, M> {
  importKey?: Field<Row>;
  /** The locale-key prefix of the spreadsheet's headers (src/locales), e.g. `dictionary.busiitem`. */
  labels: string;
  columns: SheetColumn<Row>[];
}

/** An entity over a table of its own: its store (list, get, create, update, delete, import) comes from the table. */
export interface TableResourceDeclaration<
  T extends TableName,
  Row extends ResourceRow,
  Create,
  Update extends { version: number },
  P extends string = string,
  M extends ResourceMenu | undefined = undefined,
> extends Declared<Row, Create, Update, P, M> {
  table: TableSpec<T> & { columns: Partial<Record<Field<Row>, ColumnOf<T>>> };
  list: TableListing<T, Row>;
}

/** An entity whose repository writes its own SQL (joins, several tables): it brings its list spec and its store. */
export interface CustomResourceDeclaration<Row extends ResourceRow, Create, Update extends { version: number }>
  extends Declared<Row, Create, Update, ManifestPrefix, undefined> {
  list: ListSpec;
}

export interface DefinedResource<Row extends ResourceRow, Create, Update extends { version: number }>
  extends ResourceDefinition<Row, Create, Update> {
  /** The store of a table resource; an entity without one (custom SQL) gives its store to its module. */
  store?: ResourceStore<Row, Create, Update>;
}

function sheetColumns<Row>(labels: string, columns: SheetColumn<Row>[]): ColumnSpec<Row>[] {
  return columns.map((c) => ({ ...c, label: labelOf(c.label ?? `${labels}.${c.key}`) }));
}

function sortColumns(sort: readonly string[], columns: Partial<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    sort.map((field) => {
      const column = columns[field];
      if (!column) throw new Error(`sort field ${field} has no column`);
      return [field, column];
    }),
  );
}

/** A resource declared once: its table, list, import key, permission, schemas and spreadsheet, nothing else. */
export function defineResource<
  T extends TableName,
  Row extends ResourceRow,
  Create,
  Update extends { version: number },
  const P extends string,
  const M extends ResourceMenu | undefined = undefined,
>(
  declaration: TableResourceDeclaration<T, Row, Create, Update, P, M>,
): DefinedResource<Row, Create, Update> & { store: ResourceStore<Row, Create, Update>; permission: P; menu: M };
export function defineResource<Row extends ResourceRow, Create, Update extends { version: number }>(
  declaration: CustomResourceDeclaration<Row, Create, Update>,
): DefinedResource<Row, Create, Update>;
export function defineResource<
  T extends TableName,
  Row extends ResourceRow,
  Create,
  Update extends { version: number },
>(
  declaration: TableResourceDeclaration<T, Row, Create, Update> | CustomResourceDeclaration<Row, Create, Update>,
): DefinedResource<Row, Create, Update> {
  const { labels, columns, ...rest } = declaration;
  const sheet = sheetColumns(labels, columns);
  if (!('table' in declaration)) return { ...rest, list: declaration.list, columns: sheet };
  const { table, list } = declaration;
  const repository = tableRepository<T, Row>(table);
  return {
    ...rest,
    list: { ...list, sort: sortColumns(list.sort, table.columns) },
    columns: sheet,
    store: tableStore<Row, Create, Update>(repository, declaration.importKey),
  };
}
