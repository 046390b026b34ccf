/**
 * An audit row's summary, `label · changed, fields · note`, written by the server and read by the console: a record's
 * history and the workspace's recent actions name the changed fields by their labels, not by these API names.
 */
const SEPARATOR = ' · ';

/** Bookkeeping every write changes: never named as a change. */
const BOOKKEEPING = new Set(['version', 'updatedAt', 'updatedBy']);

/** The fields whose value differs between an audit row's before and after (all of after's, when there is no before). */
export function changedFields(before: unknown, after: unknown): string[] {
  const a = (before ?? {}) as Record<string, unknown>;
  const b = (after ?? {}) as Record<string, unknown>;
  if (typeof a !== 'object' || typeof b !== 'object') return [];
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
    (key) => !BOOKKEEPING.has(key) && JSON.stringify(a[key]) !== JSON.stringify(b[key]),
  );
}

/** The summary the server writes: the record's name, the fields an update changed, and a note. */
export const auditSummary = (label: string, changes: string[], note?: string) =>
  [label, changes.join(', '), note ?? ''].filter(Boolean).join(SEPARATOR);

/** `summary` without its part made only of the names in `fields` (the changed fields' API names). */
export function summaryWithoutFields(summary: string | null | undefined, fields: Iterable<string>): string | undefined {
  const names = new Set(fields);
  const parts = summary?.split(SEPARATOR).filter((part) => !part.split(', ').every((name) => names.has(name)));
  return parts?.join(SEPARATOR) || undefined;
}
