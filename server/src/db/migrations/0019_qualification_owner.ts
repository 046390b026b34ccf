import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * A qualification names the record it was filed under (`owner_type`, `owner_id`: the expert, doctor, staff member or
 * trainee), not only the person: the data scope of its list is that record's, and its profile links there. No
 * qualification was written before this (the table had no API), so the column is added as required.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'ALTER TABLE qualification ADD COLUMN owner_id bigint NOT NULL',
    'CREATE INDEX qualification_owner_idx ON qualification (tenant_id, owner_type, owner_id)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['ALTER TABLE qualification DROP COLUMN owner_id']);
}
