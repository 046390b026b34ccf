import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * A viewer whose data scope is not the whole tenant sees the questions of some authors (`question.service` scopeOf):
 * an index of the questions by author answers that condition. Who submitted a question for review is kept, so that
 * neither they nor its author decide on it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'ALTER TABLE question ADD COLUMN submitted_by bigint',
    'CREATE INDEX question_author_idx ON question (created_by) WHERE parent_id IS NULL',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['DROP INDEX question_author_idx', 'ALTER TABLE question DROP COLUMN submitted_by']);
}
