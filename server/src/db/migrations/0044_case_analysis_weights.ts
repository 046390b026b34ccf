import type { Kysely } from 'kysely';
import { SYSTEM_ROLE } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * A case analysis' stages score by per-option weights (docs/domain.md §9.1: correct picks add, wrong picks deduct,
 * floor 0), kept on each option of the stage (`options[].weight`). A stage written before weights scores as it was
 * marked: each correct option 1, each other 0. Written as the system role (the policies bind the owner too).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    `UPDATE question q SET options = (
        SELECT jsonb_agg(o || jsonb_build_object('weight', CASE WHEN q.answer ? (o->>'key') THEN 1 ELSE 0 END)
          ORDER BY n)
        FROM jsonb_array_elements(q.options) WITH ORDINALITY AS e(o, n))
      WHERE q.parent_id IS NOT NULL AND q.medical_format = 'CASE' AND jsonb_typeof(q.options) = 'array'
        AND jsonb_typeof(q.answer) = 'array'`,
    'RESET ROLE',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    `UPDATE question q SET options = (
        SELECT jsonb_agg(o - 'weight' ORDER BY n) FROM jsonb_array_elements(q.options) WITH ORDINALITY AS e(o, n))
      WHERE jsonb_typeof(q.options) = 'array' AND jsonb_path_exists(q.options, '$[*].weight')`,
    'RESET ROLE',
  ]);
}
