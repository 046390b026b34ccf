import type { Kysely } from 'kysely';
import { APP_ROLE, SYSTEM_ROLE } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * Several instances on one database (issue 31). Each server process registers itself as a `server_instance` and
 * refreshes its heartbeat every few seconds; an instance is live while its heartbeat is fresh and it has not said it
 * stopped. An import job names the instance that runs it (`owner_instance`): only when that owner is no longer live is
 * the job taken over by another instance, which undoes it. The partial index keeps the periodic look for such jobs
 * cheap however many finished jobs the table holds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE server_instance (
      id uuid PRIMARY KEY,
      host varchar(255) NOT NULL,
      pid int NOT NULL,
      data_dir text NOT NULL,
      started_at timestamptz NOT NULL DEFAULT now(),
      heartbeat_at timestamptz NOT NULL DEFAULT now(),
      stopped_at timestamptz)`,
    `GRANT SELECT ON server_instance TO ${APP_ROLE}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON server_instance TO ${SYSTEM_ROLE}`,
    'ALTER TABLE import_job ADD COLUMN owner_instance uuid',
    `CREATE INDEX import_job_unfinished_idx ON import_job (id)
      WHERE status IN ('queued', 'validating', 'applying', 'undoing')`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP INDEX import_job_unfinished_idx',
    'ALTER TABLE import_job DROP COLUMN owner_instance',
    'DROP TABLE server_instance',
  ]);
}
