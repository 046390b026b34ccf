import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * A person found by any part of their name (issue 32): "晓明" finds 王晓明. Trigrams cannot answer it: a Chinese name
 * is two to four characters and a part of one, one or two, from which pg_trgm takes no trigram (its index would read
 * every entry). `person_name_grams` is the set of a name's characters and pairs of adjacent characters (lower case);
 * every part of a name has its grams among the name's, so a GIN index of them finds the few names that may hold a
 * part, which are then tested by `strpos` (read through `readIndexed`: the index's operator is not leakproof).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE FUNCTION person_name_grams(name text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT coalesce(array_agg(DISTINCT g.gram), '{}') FROM (
        SELECT substr(lower(name), i, n) AS gram FROM generate_series(1, char_length(name)) AS i,
          generate_series(1, 2) AS n WHERE i + n - 1 <= char_length(name)) AS g $$`,
    'CREATE INDEX person_name_grams_idx ON person USING gin (person_name_grams(name))',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['DROP INDEX person_name_grams_idx', 'DROP FUNCTION person_name_grams(text)']);
}
