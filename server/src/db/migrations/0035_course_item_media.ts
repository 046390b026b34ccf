import type { Kysely } from 'kysely';
import { SYSTEM_ROLE } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * The processing of a course item's media (docs/domain.md §8.2 `media_status`): a video's file, set or replaced, is
 * `pending` until a job reads its container (`processing`), then `ready` with its length in seconds, or `failed` with
 * why (`media_error`, a code the console names, and the parser's own words). `media_started_at`: when the reading
 * began, so that one a stopped process left is taken up again. The videos stored before are read once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE course_item
      ADD COLUMN media_status text CHECK (media_status IN ('pending', 'processing', 'ready', 'failed')),
      ADD COLUMN media_error varchar(50),
      ADD COLUMN media_error_detail varchar(500),
      ADD COLUMN media_duration_sec int CHECK (media_duration_sec >= 0),
      ADD COLUMN media_started_at timestamptz`,
    `CREATE INDEX course_item_media_due_idx ON course_item (media_status)
      WHERE media_status IN ('pending', 'processing')`,
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    `UPDATE course_item SET media_status = 'pending' WHERE item_type = 'video' AND file_id IS NOT NULL`,
    'RESET ROLE',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP INDEX course_item_media_due_idx',
    `ALTER TABLE course_item DROP COLUMN media_status, DROP COLUMN media_error, DROP COLUMN media_error_detail,
      DROP COLUMN media_duration_sec, DROP COLUMN media_started_at`,
  ]);
}
