import type { Kysely } from 'kysely';
import { SYSTEM_ROLE } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * Teaching activities (docs/domain.md §8.3), continued. `ongoing`: a published activity whose start has come (the
 * clock moves it, and on to `completed` once its end and its sign-in window are past). `sign_in_open_at` /
 * `sign_in_close_at`: its sign-in window (null: 30 minutes before the start / the end, as before).
 * `material_file_ids` / `photo_file_ids`: its slides and its evidence photos, files it holds (at most 20 each).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'ALTER TABLE teaching_activity DROP CONSTRAINT teaching_activity_status_check',
    `ALTER TABLE teaching_activity
      ADD CONSTRAINT teaching_activity_status_check
        CHECK (status IN ('draft', 'published', 'ongoing', 'completed', 'cancelled')),
      ADD COLUMN sign_in_open_at timestamptz,
      ADD COLUMN sign_in_close_at timestamptz,
      ADD COLUMN material_file_ids bigint[] NOT NULL DEFAULT '{}',
      ADD COLUMN photo_file_ids bigint[] NOT NULL DEFAULT '{}',
      ADD CONSTRAINT teaching_activity_sign_in_check
        CHECK (sign_in_open_at IS NULL OR sign_in_close_at IS NULL OR sign_in_close_at > sign_in_open_at),
      ADD CONSTRAINT teaching_activity_files_check
        CHECK (cardinality(material_file_ids) <= 20 AND cardinality(photo_file_ids) <= 20)`,
    `CREATE INDEX teaching_activity_clock_idx ON teaching_activity (start_at)
      WHERE status IN ('published', 'ongoing')`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP INDEX teaching_activity_clock_idx',
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    `UPDATE teaching_activity SET status = 'published' WHERE status = 'ongoing'`,
    'RESET ROLE',
    `ALTER TABLE teaching_activity DROP CONSTRAINT teaching_activity_files_check,
      DROP CONSTRAINT teaching_activity_sign_in_check,
      DROP COLUMN photo_file_ids, DROP COLUMN material_file_ids,
      DROP COLUMN sign_in_close_at, DROP COLUMN sign_in_open_at,
      DROP CONSTRAINT teaching_activity_status_check,
      ADD CONSTRAINT teaching_activity_status_check
        CHECK (status IN ('draft', 'published', 'completed', 'cancelled'))`,
  ]);
}
