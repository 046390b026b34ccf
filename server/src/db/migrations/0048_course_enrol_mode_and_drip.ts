import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Courses (docs/domain.md §8.1–8.2), continued. `course.enrol_mode`: how trainees come onto a course — assigned (by
 * its audience or by hand), self-enrolled, or open to all. `course_item.available_from`: drip release, the item is
 * shown to trainees from then on (null: as soon as it is published).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE course ADD COLUMN enrol_mode text NOT NULL DEFAULT 'assigned'
      CHECK (enrol_mode IN ('assigned', 'self_enrol', 'open'))`,
    'ALTER TABLE course_item ADD COLUMN available_from timestamptz',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'ALTER TABLE course_item DROP COLUMN available_from',
    'ALTER TABLE course DROP COLUMN enrol_mode',
  ]);
}
