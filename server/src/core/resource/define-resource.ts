import type { ManifestPrefix, ResourceMenu } from '../../db/seed/permissions';
import { labelOf } from '../labels';
import type { FilterSpec, ListSpec } from './list-query';
import { type ColumnSpec, type ResourceDefinition, type ResourceRow, type ResourceStore, tableStore } from './resource';
import {
  type ColumnOf,
  type TableName,
  type TableRepository,
  type TableSpec,
  tableRepository,
} from './table.repository';

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

/** How the audit trail names a record: by default its import key, which finds it in a sheet. */
type Naming<Row> =
  | { importKey: Field<Row>; label?: (row: Row) => string }
  | { importKey?: undefined; label: (row: Row) => string }
  /** A record a person holds once is found in a sheet by the person's ID number (its rows show it masked). */
  | { importKey: 'idNo'; label: (row: Row) => string }
  /** A record found by the hash of its content (a question: its exact duplicate), which its rows do not show. */
  | { importKey: 'contentHash'; label: (row: Row) => string };

type Declared<
  Row extends ResourceRow,
  Create,
  Update extends { version: number },
  P extends string,
  M extends ResourceMenu | undefined,
> = Omit<ResourceDefinition<Row, Create, Update>, 'columns' | 'list' | 'importKey' | 'label' | 'permission' | 'menu'> &
  PrefixAndMenu<P, M> &
  Naming<Row> & {
    /** The locale-key prefix of the spreadsheet's headers (src/locales); by default the path's (`system.role`). */
    labels?: string;
    columns: SheetColumn<Row>[];
  };

/** An entity over a table of its own: its store (list, get, create, update, delete, import) comes from the table. */
export type TableResourceDeclaration<
  T extends TableName,
  Row extends ResourceRow,
  Create,
  Update extends { version: number },
  P extends string = string,
  M extends ResourceMenu | undefined = undefined,
> = Omit<Declared<Row, Create, Update, P, M>, 'type'> & {
  /** resource_type of its audit rows; by default the table's name. */
  type?: string;
  table: TableSpec<T> & { columns: Partial<Record<Field<Row>, ColumnOf<T>>> };
  list: TableListing<T, Row>;
};

/** An entity whose repository writes its own SQL (joins, several tables): it brings its list spec and its store. */
export type CustomResourceDeclaration<Row extends ResourceRow, Create, Update extends { version: number }> = Declared<
  Row,
  Create,
  Update,
  ManifestPrefix,
  undefined
> & { list: ListSpec };

export interface DefinedResource<Row extends ResourceRow, Create, Update extends { version: number }>
  extends ResourceDefinition<Row, Create, Update> {
  /** The store of a table resource; an entity without one (custom SQL) gives its store to its module. */
  store?: ResourceStore<Row, Create, Update>;
  /** The SQL of a table resource, for what its store does not do (a tree's levels). */
  repository?: TableRepository<Row>;
}

function sheetColumns<Row>(labels: string, columns: SheetColumn<Row>[]): ColumnSpec<Row>[] {
  return columns.map((c) => {
    const labelKey = c.label ?? `${labels}.${c.key}`;
    return { ...c, labelKey, label: labelOf(labelKey) };
  });
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
): DefinedResource<Row, Create, Update> & {
  store: ResourceStore<Row, Create, Update>;
  repository: TableRepository<Row>;
  permission: P;
  menu: M;
};
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
  const { labels, columns, label, ...rest } = declaration;
  const named = {
    ...rest,
    label: label ?? ((row: Row) => String(row[rest.importKey as keyof Row])),
    columns: sheetColumns(labels ?? declaration.path.replaceAll('/', '.'), columns),
  };
  if (!('table' in declaration)) return { ...named, type: declaration.type, list: declaration.list };
  const { table, list } = declaration;
  const repository = tableRepository<T, Row>(table);
  return {
    ...named,
    type: declaration.type ?? table.name,
    list: { ...list, sort: sortColumns(list.sort, table.columns) },
    store: tableStore<Row, Create, Update>(repository, declaration.importKey),
    repository,
  };
}
