import { sql } from 'kysely';
import { currentTenant, readIndexed, type Tx } from '../tenancy';
import type { Listed, ListQuery } from './list-query';
import type { Narrow, TableRepository } from './table.repository';

/** How many rows a list filtered through GIN indexes counts at most (`countedList`). */
export const COUNTED = 1000;

/**
 * What makes the planner walk an index in the list's order rather than read every matching row and sort them: it
 * cannot know how many texts hold a keyword and guesses few, where `inListOrder` is used only once more than COUNTED
 * are known to match, so that a page is found within the first rows of the order. The walk is not worth parallel
 * workers or compiling (its guessed cost would call for both).
 */
const WALK: Record<string, string> = {
  enable_sort: 'off',
  enable_seqscan: 'off',
  jit: 'off',
  max_parallel_workers_per_gather: '0',
};

/**
 * `read` under the WALK settings, those in force before restored after it: one statement reads each setting and then
 * sets it (a select list is computed in its order), another restores them.
 */
export async function inListOrder<T>(tx: Tx, read: () => Promise<T>): Promise<T> {
  const set = (name: string, value: string) => sql`set_config(${name}, ${value}, true)`;
  const names = Object.keys(WALK);
  const { rows } = await sql<Record<string, string>>`SELECT ${sql.join(
    names.flatMap((name, i) => [sql`current_setting(${name}) AS ${sql.ref(`s${i}`)}`, set(name, WALK[name] as string)]),
  )}`.execute(tx);
  const result = await read();
  const before = names.map((name, i) => set(name, String(rows[0]?.[`s${i}`] ?? WALK[name])));
  await sql`SELECT ${sql.join(before)}`.execute(tx);
  return result;
}

/**
 * A page of a list, and the size of its filtered set counted apart (beside the page, a window count makes the planner
 * walk the list's order index to its end). `indexed`: the filters include a keyword or an array condition that GIN
 * indexes answer, which under row-level security only the system role may use (`readIndexed`); the matching ids are
 * then found through those indexes, up to COUNTED and one more. When no more match, the page is read among them and
 * they are the total; when more do, the page is read in the list's order and the total is said to be more than
 * COUNTED (`capped`). An export or a page by keyset is read as the repository reads it.
 */
export async function countedList<Row extends { id: string }>(
  tx: Tx,
  repo: TableRepository<Row>,
  query: ListQuery,
  narrow: Narrow,
  indexed: boolean,
): Promise<Listed<Row>> {
  const { page } = query;
  if (!page || page.skipTotal || page.keyset) return repo.list(tx, query, narrow);
  const pageOnly = { ...query, page: { ...page, skipTotal: true } };
  if (!indexed) {
    const { rows } = await repo.list(tx, pageOnly, narrow);
    return { rows, total: await repo.count(tx, query, narrow) };
  }
  const inTenant = sql<boolean>`${sql.ref(`${repo.table}.tenant_id`)} = ${currentTenant}`;
  const ids = await readIndexed(tx, () => repo.ids(tx, query, (qb) => narrow(qb).where(inTenant), COUNTED + 1));
  if (ids.length <= COUNTED) {
    const among = sql<boolean>`${sql.ref(`${repo.table}.id`)} = ANY(${ids}::bigint[])`;
    const { rows } = await repo.list(tx, pageOnly, (qb) => qb.where(among));
    return { rows, total: ids.length };
  }
  const { rows } = await inListOrder(tx, () => repo.list(tx, pageOnly, narrow));
  return { rows, total: COUNTED, capped: true };
}
