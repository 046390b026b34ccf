import type { Kysely } from 'kysely';
import { SYSTEM_ROLE } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * A trainee's sign-in to a teaching activity (docs/domain.md §8.3) is recorded as it was made: by the code (`qr`), by
 * the code with the trainee's position checked (`qr_geo`), or set by hand (`manual`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE activity_participant DROP CONSTRAINT activity_participant_sign_in_method_check,
      ADD CONSTRAINT activity_participant_sign_in_method_check CHECK (sign_in_method IN ('qr', 'qr_geo', 'manual'))`,
    // the sign-ins by position recorded before: those with a distance
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    `UPDATE activity_participant SET sign_in_method = 'qr_geo'
      WHERE sign_in_method = 'qr' AND sign_in_distance_m IS NOT NULL`,
    'RESET ROLE',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    `UPDATE activity_participant SET sign_in_method = 'qr' WHERE sign_in_method = 'qr_geo'`,
    'RESET ROLE',
    `ALTER TABLE activity_participant DROP CONSTRAINT activity_participant_sign_in_method_check,
      ADD CONSTRAINT activity_participant_sign_in_method_check CHECK (sign_in_method IN ('qr', 'manual'))`,
  ]);
}
