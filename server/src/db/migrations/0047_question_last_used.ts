import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * When a question was last used: set when a paper that holds it (a slot, a random-once draw) or may draw it (a
 * random-per-candidate pool) is published. "Not used in the last N days" (the bank's filter, a rule's
 * `exclude_used_within_days`) reads it; the questions used lately are few, so the index holds only those. The papers
 * published before it say when their questions were used.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'ALTER TABLE question ADD COLUMN last_used_at timestamptz',
    `CREATE INDEX question_last_used_idx ON question (tenant_id, last_used_at)
      WHERE parent_id IS NULL AND last_used_at IS NOT NULL`,
    `UPDATE question q SET last_used_at = u.at FROM (
        SELECT x.question_id, max(p.published_at) AS at FROM (
          SELECT paper_id, question_id FROM paper_slot UNION SELECT paper_id, question_id FROM paper_rule_pool) x
        JOIN exam_paper p ON p.id = x.paper_id WHERE p.published_at IS NOT NULL GROUP BY x.question_id) u
      WHERE q.id = u.question_id`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['DROP INDEX question_last_used_idx', 'ALTER TABLE question DROP COLUMN last_used_at']);
}
