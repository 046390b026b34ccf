import type { Kysely } from 'kysely';
import { SYSTEM_ROLE, tenantTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * `trainee_base_change`: a request to move a trainee in training to another training base (and specialty base), with
 * its reason and date, decided once (approved: the trainee moves; rejected), at most one awaiting a decision per
 * trainee. The bases are kept as ids without a key, so that an organisation deleted later leaves the history readable
 * by the names the trainee's history recorded (`trainee_history` gains the kind `base`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...tenantTable(
      'trainee_base_change',
      `trainee_id bigint NOT NULL,
      from_training_base_id bigint NOT NULL,
      from_specialty_base_id bigint,
      to_training_base_id bigint NOT NULL,
      to_specialty_base_id bigint,
      reason varchar(500) NOT NULL,
      effective_date date NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
      decided_by bigint,
      decided_at timestamptz,
      decision_comment varchar(500),
      FOREIGN KEY (tenant_id, trainee_id) REFERENCES trainee (tenant_id, id) ON DELETE CASCADE`,
    ),
    `CREATE UNIQUE INDEX trainee_base_change_pending_uq ON trainee_base_change (tenant_id, trainee_id)
      WHERE status = 'pending'`,
    'CREATE INDEX trainee_base_change_trainee_idx ON trainee_base_change (tenant_id, trainee_id, id)',
    'ALTER TABLE trainee_history DROP CONSTRAINT trainee_history_kind_check',
    `ALTER TABLE trainee_history ADD CONSTRAINT trainee_history_kind_check
      CHECK (kind IN ('status', 'registration', 'base'))`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    // as the system role: the policies bind the owner too
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    "DELETE FROM trainee_history WHERE kind = 'base'",
    'RESET ROLE',
    'ALTER TABLE trainee_history DROP CONSTRAINT trainee_history_kind_check',
    `ALTER TABLE trainee_history ADD CONSTRAINT trainee_history_kind_check
      CHECK (kind IN ('status', 'registration'))`,
    'DROP TABLE trainee_base_change',
  ]);
}
