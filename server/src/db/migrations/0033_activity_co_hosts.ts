import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Teaching activities (docs/domain.md §8.3), continued. `co_host_ids`: the doctors who host with its host (at most
 * ten, never the host; distinct, checked by the service, as are their tenant: an array has no foreign key).
 * `reminded_at`: when its participants were told it is about to start (the hourly job tells each activity once; a
 * new start time clears it). The partial index holds only the published activities not yet reminded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE teaching_activity
      ADD COLUMN co_host_ids bigint[] NOT NULL DEFAULT '{}',
      ADD COLUMN reminded_at timestamptz,
      ADD CONSTRAINT teaching_activity_co_hosts_check
        CHECK (cardinality(co_host_ids) <= 10 AND NOT (host_doctor_id = ANY (co_host_ids)))`,
    `CREATE INDEX teaching_activity_remind_idx ON teaching_activity (start_at)
      WHERE status = 'published' AND reminded_at IS NULL`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP INDEX teaching_activity_remind_idx',
    `ALTER TABLE teaching_activity DROP CONSTRAINT teaching_activity_co_hosts_check,
      DROP COLUMN reminded_at, DROP COLUMN co_host_ids`,
  ]);
}
