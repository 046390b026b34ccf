import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * The question fields exam authors file a question by (docs/domain.md §9.1): its specialty (dictionary
 * `training_specialty`), the exam-outline item it tests, the year of the paper it comes from and the time a candidate
 * is expected to spend on it. The list filters by specialty: an index of the top-level questions that have one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'ALTER TABLE question ADD COLUMN specialty_code varchar(50)',
    'ALTER TABLE question ADD COLUMN syllabus_ref varchar(100)',
    'ALTER TABLE question ADD COLUMN source_year smallint CHECK (source_year BETWEEN 1950 AND 2100)',
    'ALTER TABLE question ADD COLUMN estimated_seconds int CHECK (estimated_seconds > 0)',
    `CREATE INDEX question_specialty_idx ON question (tenant_id, specialty_code, created_at DESC)
      WHERE parent_id IS NULL AND specialty_code IS NOT NULL`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP INDEX question_specialty_idx',
    'ALTER TABLE question DROP COLUMN estimated_seconds',
    'ALTER TABLE question DROP COLUMN source_year',
    'ALTER TABLE question DROP COLUMN syllabus_ref',
    'ALTER TABLE question DROP COLUMN specialty_code',
  ]);
}
