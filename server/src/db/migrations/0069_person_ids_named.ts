import type { Kysely } from 'kysely';
import { SYSTEM_ROLE } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * The people of the transaction's tenant whose name holds a part (migration 0062), as a set a search's query reads
 * within itself: a keyword of one character over a large tenant no longer sends every matching id back and forth.
 * The name's grams are looked up in their GIN index, whose operator is not leakproof: under the application role's
 * row-level security it would be tested on every row of the tenant. The function runs as the system role (`SECURITY
 * DEFINER`, owned by it) and names the tenant itself, from the transaction's `app.tenant_id`: it answers ids of the
 * caller's tenant only, which the caller's query reads again under its own policy.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE FUNCTION person_ids_named(part text) RETURNS SETOF bigint LANGUAGE sql STABLE STRICT SECURITY DEFINER
      SET search_path FROM CURRENT AS $$
      SELECT p.id FROM person p WHERE p.tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::bigint
        AND person_name_grams(p.name) @> person_name_grams(part) AND strpos(lower(p.name), lower(part)) > 0 $$`,
    `ALTER FUNCTION person_ids_named(text) OWNER TO ${SYSTEM_ROLE}`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['DROP FUNCTION person_ids_named(text)']);
}
