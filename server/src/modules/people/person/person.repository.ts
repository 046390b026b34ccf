import { type RawBuilder, sql } from 'kysely';
import type { IdNumberCipher } from '../../../core/id-number';

/**
 * The ids of the tenant's people whose name holds `part` (any case), as a sub-select of a search's query: the name's
 * grams looked up in their index as the system role, within the transaction's tenant (migrations 0062 and 0069).
 */
export const namesHolding = (part: string): RawBuilder<unknown> => sql`SELECT person_ids_named(${part})`;

/**
 * The ids of the people a keyword finds: by any part of their name (its characters and pairs of characters looked up
 * in the name's GIN index as the system role, then tested whole: a sub-select of the query, `namesHolding`), by the start
 * of their pinyin or initials; digits also by the start of the mobile; what may be an ID number also by its hash (whole
 * numbers only: a hash finds nothing by part). The others are index look-ups within the query (`starts_with` and `=`
 * are leakproof, so row-level security lets an index answer them).
 */
export function peopleMatching(cipher: IdNumberCipher, text: string): RawBuilder<unknown> {
  const typed = text.trim();
  const lower = typed.toLowerCase();
  const branches = [
    sql`SELECT p.id FROM person p WHERE starts_with(p.name_pinyin, ${lower})`,
    sql`SELECT p.id FROM person p WHERE starts_with(p.name_initials, ${lower})`,
  ];
  if (/^\d{3,11}$/.test(typed)) branches.push(sql`SELECT p.id FROM person p WHERE starts_with(p.mobile, ${typed})`);
  if (/^[0-9a-z()-]{6,30}$/.test(lower))
    branches.push(sql`SELECT p.id FROM person p WHERE p.id_no_hash IN (${sql.join(cipher.hashes(typed))})`);
  if (typed.length <= 50 && !/^\d+$/.test(typed))
    branches.unshift(sql`SELECT p.id FROM person p WHERE p.id IN (${namesHolding(typed)})`);
  return sql.join(branches, sql` UNION `);
}
