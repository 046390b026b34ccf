import type { Kysely } from 'kysely';
import { SYSTEM_ROLE } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * Teaching activities (docs/domain.md §8.3), continued. `specialty_base_id`: the specialty base it belongs to (an
 * organisation, optional). `audience_trainee_ids`: trainees named one by one in its audience. Sign-in mode `qr_geo`:
 * the code and the trainee's position, within `geo_radius_m` metres of `geo_latitude` / `geo_longitude`;
 * `activity_participant.sign_in_distance_m`: how far from the place a trainee signed in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'ALTER TABLE teaching_activity DROP CONSTRAINT teaching_activity_sign_in_mode_check',
    `ALTER TABLE teaching_activity
      ADD CONSTRAINT teaching_activity_sign_in_mode_check CHECK (sign_in_mode IN ('qr', 'qr_geo', 'manual', 'none')),
      ADD COLUMN specialty_base_id bigint,
      ADD COLUMN audience_trainee_ids bigint[] NOT NULL DEFAULT '{}',
      ADD COLUMN geo_latitude double precision CHECK (geo_latitude BETWEEN -90 AND 90),
      ADD COLUMN geo_longitude double precision CHECK (geo_longitude BETWEEN -180 AND 180),
      ADD COLUMN geo_radius_m int NOT NULL DEFAULT 300 CHECK (geo_radius_m BETWEEN 50 AND 5000),
      ADD CONSTRAINT teaching_activity_specialty_base_fk
        FOREIGN KEY (tenant_id, specialty_base_id) REFERENCES organization (tenant_id, id),
      ADD CONSTRAINT teaching_activity_roster_check CHECK (cardinality(audience_trainee_ids) <= 500),
      ADD CONSTRAINT teaching_activity_geo_check
        CHECK (sign_in_mode <> 'qr_geo' OR (geo_latitude IS NOT NULL AND geo_longitude IS NOT NULL))`,
    'CREATE INDEX teaching_activity_specialty_base_idx ON teaching_activity (tenant_id, specialty_base_id)',
    'ALTER TABLE activity_participant ADD COLUMN sign_in_distance_m int CHECK (sign_in_distance_m >= 0)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'ALTER TABLE activity_participant DROP COLUMN sign_in_distance_m',
    'DROP INDEX teaching_activity_specialty_base_idx',
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    `UPDATE teaching_activity SET sign_in_mode = 'qr' WHERE sign_in_mode = 'qr_geo'`,
    'RESET ROLE',
    `ALTER TABLE teaching_activity DROP CONSTRAINT teaching_activity_geo_check,
      DROP CONSTRAINT teaching_activity_roster_check,
      DROP CONSTRAINT teaching_activity_specialty_base_fk,
      DROP COLUMN geo_radius_m, DROP COLUMN geo_longitude, DROP COLUMN geo_latitude,
      DROP COLUMN audience_trainee_ids, DROP COLUMN specialty_base_id,
      DROP CONSTRAINT teaching_activity_sign_in_mode_check,
      ADD CONSTRAINT teaching_activity_sign_in_mode_check CHECK (sign_in_mode IN ('qr', 'manual', 'none'))`,
  ]);
}
