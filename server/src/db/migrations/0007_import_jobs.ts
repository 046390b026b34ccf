import type { Kysely } from 'kysely';
import { tenantOwnedTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

const tables = ['import_job', 'import_job_failure'];

/**
 * Imports as jobs (issue 6): the job with its uploaded file, progress and report; every failing row (the full
 * report is the uploaded sheet with an error column). The audit rows of a job carry its trace id: they are the log
 * from which a failed or cancelled import is undone batch by batch, without one transaction for the whole file.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE TABLE import_job (
      id bigint GENERATED ALWAYS AS IDENTITY,
      tenant_id bigint NOT NULL REFERENCES tenant (id),
      resource varchar(50) NOT NULL,
      mode text NOT NULL CHECK (mode IN ('insert', 'upsert')),
      dry_run boolean NOT NULL,
      status text NOT NULL CHECK (status IN ('queued', 'validating', 'applying', 'undoing', 'done', 'failed', 'cancelled')),
      cancel_requested boolean NOT NULL DEFAULT false,
      done int NOT NULL DEFAULT 0,
      total int,
      file_name varchar(255) NOT NULL,
      file bytea NOT NULL,
      report jsonb,
      created_by bigint NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      PRIMARY KEY (tenant_id, id))`,
    `CREATE INDEX import_job_latest_idx ON import_job (tenant_id, resource, created_by, id DESC)`,
    `CREATE TABLE import_job_failure (
      tenant_id bigint NOT NULL,
      job_id bigint NOT NULL,
      seq int NOT NULL,
      row_number int NOT NULL,
      column_label varchar(255) NOT NULL,
      message varchar(1000) NOT NULL,
      PRIMARY KEY (tenant_id, job_id, seq),
      FOREIGN KEY (tenant_id, job_id) REFERENCES import_job (tenant_id, id) ON DELETE CASCADE)`,
    `CREATE INDEX audit_log_trace_idx ON audit_log (trace_id, id) WHERE trace_id IS NOT NULL`,
  ];
  statements.push(...tables.flatMap(tenantOwnedTable));
  await runStatements(db, statements);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['DROP INDEX audit_log_trace_idx', 'DROP TABLE import_job_failure', 'DROP TABLE import_job']);
}
