import { z } from '@hono/zod-openapi';
import { AppError, type FieldError } from '../errors';
import type { Lang } from '../i18n';

/** `column` absent (a keyword without columns): the repository applies the filter itself (e.g. through a join). */
export type FilterSpec<Column extends string = string> =
  | { kind: 'eq' | 'in'; column?: Column; values?: readonly string[]; pattern?: RegExp }
  | { kind: 'keyword'; columns: readonly Column[] }
  | { kind: 'dateRange'; column: Column };

/** The filters most lists have: the status (enabled or disabled) and when a record was created. */
export const statusFilter = {
  kind: 'in',
  column: 'status',
  values: ['enabled', 'disabled'],
} as const satisfies FilterSpec<'status'>;
export const createdAtFilter = { kind: 'dateRange', column: 'created_at' } as const satisfies FilterSpec<'created_at'>;

export interface ListSpec {
  /** Sortable field → column. */
  sort: Record<string, string>;
  /** e.g. `-createdAt`; the id breaks ties so pages never overlap. */
  defaultSort: string;
  filters: Record<string, FilterSpec>;
}

export type FilterValue =
  | { kind: 'eq'; value: string }
  | { kind: 'in'; values: string[] }
  | { kind: 'keyword'; text: string }
  | { kind: 'dateRange'; from?: Date; to?: Date };

/**
 * Keyset paging (export): the list reads the rows that follow `after` in its order (the sort, then the id) instead of
 * skipping `current - 1` pages, and leaves its own last row's position in `after` for the next call. A repository that
 * cannot leaves `after` untouched; the caller then goes on with `current`.
 */
export interface Keyset {
  after?: (string | null)[];
}

export interface ListQuery {
  /** The user the rows are listed for: a store whose rows have a data scope keeps to that user's (people). */
  viewer?: string;
  /** null: the whole filtered set (export). */
  /** `skipTotal`: the caller reads page after page (export) and needs no count. */
  page: { current: number; pageSize: number; skipTotal?: boolean; keyset?: Keyset } | null;
  sort: { column: string; desc: boolean }[];
  filters: { name: string; spec: FilterSpec; value: FilterValue }[];
}

export const MAX_PAGE_SIZE = 200;

const pagingFields = {
  current: z.coerce.number().int().min(1).default(1).openapi({ example: 1 }),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10).openapi({ example: 10 }),
};

function describeFilter(spec: FilterSpec): string {
  switch (spec.kind) {
    case 'eq':
      return spec.values ? `equals one of ${spec.values.join(', ')}` : 'equals';
    case 'in':
      return `comma-separated list${spec.values ? ` of ${spec.values.join(', ')}` : ''}`;
    case 'keyword':
      return 'contains (case-insensitive)';
    case 'dateRange':
      return '`from,to` dates (either may be empty; a date-only `to` includes that day)';
  }
}

/** The query string of a list or export: unknown parameters are refused (400 naming them). */
export function listQuerySchema(spec: ListSpec) {
  const sortable = Object.keys(spec.sort).join(', ');
  const filters = Object.fromEntries(
    Object.entries(spec.filters).map(([name, f]) => [
      name,
      z
        .string()
        .max(500)
        .optional()
        .openapi({ description: describeFilter(f) }),
    ]),
  );
  return z
    .object({
      ...pagingFields,
      sort: z
        .string()
        .max(200)
        .optional()
        .openapi({ description: `Comma list of ${sortable}; \`-\` prefix for descending` }),
      ...filters,
    })
    .strict();
}

const messages = {
  'zh-CN': { sort: '不支持按该字段排序', value: '取值不正确', date: '日期格式不正确' },
  'en-US': { sort: 'cannot sort by this field', value: 'has an invalid value', date: 'has an invalid date' },
};

const datePart = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function parseDate(text: string, endOfRange: boolean): Date | undefined | null {
  const t = text.trim();
  if (!t) return undefined;
  if (!datePart.test(t)) return null;
  const dateOnly = t.length === 10;
  const d = new Date(dateOnly ? `${t}T00:00:00Z` : t.replace(' ', 'T'));
  if (Number.isNaN(d.getTime())) return null;
  if (dateOnly && endOfRange) d.setUTCDate(d.getUTCDate() + 1);
  return d;
}

function parseSort(spec: ListSpec, text: string): ListQuery['sort'] | undefined {
  const sort: ListQuery['sort'] = [];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const desc = part.startsWith('-');
    const column = spec.sort[desc ? part.slice(1) : part.replace(/^\+/, '')];
    if (!column) return undefined;
    sort.push({ column, desc });
  }
  return sort;
}

function parseFilter(spec: FilterSpec, raw: string): FilterValue | 'invalid' | 'invalidDate' {
  const allowed = (v: string) =>
    (!('values' in spec) || !spec.values || spec.values.includes(v)) &&
    (!('pattern' in spec) || !spec.pattern || spec.pattern.test(v));
  switch (spec.kind) {
    case 'eq':
      return allowed(raw) ? { kind: 'eq', value: raw } : 'invalid';
    case 'in': {
      const values = raw
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      return values.length > 0 && values.every(allowed) ? { kind: 'in', values } : 'invalid';
    }
    case 'keyword':
      return { kind: 'keyword', text: raw.trim() };
    case 'dateRange': {
      const [fromText = '', toText = '', ...rest] = raw.split(',');
      const from = parseDate(fromText, false);
      const to = parseDate(toText, true);
      return rest.length > 0 || from === null || to === null ? 'invalidDate' : { kind: 'dateRange', from, to };
    }
  }
}

/** Turns the validated query string into a ListQuery; a sort or filter value it cannot use is a 400 naming the parameter. */
export function parseListQuery(spec: ListSpec, query: Record<string, unknown>, lang: Lang, paged = true): ListQuery {
  const t = messages[lang];
  const errors: FieldError[] = [];
  const sort = parseSort(spec, typeof query.sort === 'string' && query.sort.trim() ? query.sort : spec.defaultSort);
  if (!sort) errors.push({ field: 'sort', message: t.sort });
  const filters: ListQuery['filters'] = [];
  for (const [name, filterSpec] of Object.entries(spec.filters)) {
    const raw = query[name];
    if (typeof raw !== 'string' || raw.trim() === '') continue;
    const value = parseFilter(filterSpec, raw.trim());
    if (value === 'invalid' || value === 'invalidDate')
      errors.push({ field: name, message: value === 'invalid' ? t.value : t.date });
    else if (value.kind !== 'keyword' || value.text) filters.push({ name, spec: filterSpec, value });
  }
  if (errors.length > 0) throw new AppError('common.validation', {}, errors);
  const page = paged ? { current: Number(query.current ?? 1), pageSize: Number(query.pageSize ?? 10) } : null;
  return { page, sort: sort ?? [], filters };
}

export function filterValue(query: ListQuery, name: string): FilterValue | undefined {
  return query.filters.find((f) => f.name === name)?.value;
}

/** Beside a list's `total`: that counting stopped there (`countedList`). */
export const TotalCapped = z.boolean().optional().openapi({
  description: 'Present and true when counting stopped at `total`: more rows match (refine the search to see them)',
});

/** `{data, total, success: true, current, pageSize}` for a row schema. */
export function listResponse<T extends z.ZodType>(row: T, name: string) {
  return z
    .object({
      data: z.array(row),
      total: z.number().int(),
      success: z.literal(true),
      current: z.number().int(),
      pageSize: z.number().int(),
      totalCapped: TotalCapped,
    })
    .openapi(name);
}

export interface Page<Row> {
  data: Row[];
  total: number;
  success: true;
  current: number;
  pageSize: number;
  totalCapped?: boolean;
}

/** A list's rows and the size of its filtered set; `capped` when counting stopped at `total` (more match). */
export interface Listed<Row> {
  rows: Row[];
  total: number;
  capped?: boolean;
}

export function toPage<Row>(query: ListQuery, result: Listed<Row>): Page<Row> {
  const page = query.page ?? { current: 1, pageSize: result.rows.length };
  const shown = { data: result.rows, total: result.total, success: true as const, current: page.current };
  return { ...shown, pageSize: page.pageSize, ...(result.capped && { totalCapped: true }) };
}
