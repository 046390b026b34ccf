import type { SorterResult, SortOrder } from 'antd/es/table/interface';

export type ListParams = Record<string, unknown> & { current?: number; pageSize?: number; keyword?: string };
export type ListSort = Record<string, SortOrder | undefined | null>;
export type ListFilter = Record<string, (string | number | boolean)[] | null | undefined>;

const empty = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.every((v) => v === '' || v == null));

function encode(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => (v == null ? '' : String(v))).join(',');
  if (typeof value === 'string') return value.trim();
  return String(value);
}

/**
 * ProTable's request arguments → the list contract's query (docs/architecture.md, "The resource contract"): `current`, `pageSize`,
 * `sort` (comma list, `-` descending, in the order the columns were sorted), and every search or column
 * filter as a string: arrays become comma lists (`in` filters and `from,to` date ranges).
 */
export function toListQuery(
  params: ListParams = {},
  sort: ListSort = {},
  filter: ListFilter = {},
): Record<string, string> {
  const { current, pageSize, ...search } = params;
  const query: Record<string, string> = {};
  if (current !== undefined) query.current = String(current);
  if (pageSize !== undefined) query.pageSize = String(pageSize);
  for (const [name, value] of [...Object.entries(search), ...Object.entries(filter)]) {
    if (empty(value)) continue;
    const text = encode(value);
    if (text) query[name] = text;
  }
  const order = Object.entries(sort ?? {})
    .filter(([, direction]) => direction === 'ascend' || direction === 'descend')
    .map(([field, direction]) => (direction === 'descend' ? `-${field}` : field));
  if (order.length) query.sort = order.join(',');
  return query;
}

/** The same filters and sort without paging: what export asks for. */
export function withoutPaging(query: Record<string, string>): Record<string, string> {
  const { current: _current, pageSize: _pageSize, ...rest } = query;
  return rest;
}

export type FormMode = 'create' | 'update';

/**
 * The body a form sends: exactly the mode's fields. Empty inputs are left out on create and cleared
 * (`null`) on update; an update carries the `version` it read.
 */
export function toBody(values: Record<string, unknown>, fields: string[], mode: FormMode, version?: number) {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field];
    if (value === undefined) continue;
    if (value === '' || value === null) {
      if (mode === 'update') body[field] = null;
      continue;
    }
    body[field] = typeof value === 'string' ? value.trim() : value;
  }
  if (mode === 'update') body.version = version;
  return body;
}

/**
 * The filters a list's address carries (`/trainee/list?status=in_training`, a workspace card's link) for the fields of
 * its search form (`names`); a date range (`from,to`) as its two ends. Paging, sort and anything else are left out.
 */
export function filtersOfAddress(search: string, names: string[], ranges: string[] = []): ListParams {
  const filters: ListParams = {};
  for (const [name, value] of new URLSearchParams(search)) {
    if (!names.includes(name) || !value.trim()) continue;
    filters[name] = ranges.includes(name) ? value.split(',', 2) : value;
  }
  return filters;
}

/** The sort antd's table reports (one column or several), as the list sends it. */
export function toSort<Row>(sorter: SorterResult<Row> | SorterResult<Row>[]): ListSort {
  const list = Array.isArray(sorter) ? sorter : [sorter];
  return Object.fromEntries(
    list
      .filter((s) => s.order && s.field !== undefined)
      .map((s) => [Array.isArray(s.field) ? s.field.join('.') : String(s.field), s.order]),
  );
}
