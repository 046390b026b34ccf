import type { Kysely } from 'kysely';
import { tenantTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * Teaching activities (docs/domain.md §8.3). `teaching_activity`: a ward round, lecture or case discussion of a
 * department, with its host, time, place and audience (trainee types, organisations, cohorts); `activity_participant`:
 * each trainee on its list (made from the audience when it is published, or added), with their attendance (signed in
 * with the rotating code, or corrected by hand) and their rating of it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...tenantTable(
      'teaching_activity',
      `title varchar(200) NOT NULL,
      activity_type varchar(50) NOT NULL,
      org_id bigint NOT NULL,
      host_doctor_id bigint NOT NULL,
      start_at timestamptz NOT NULL,
      end_at timestamptz NOT NULL,
      mode text NOT NULL DEFAULT 'onsite' CHECK (mode IN ('onsite', 'online', 'hybrid')),
      location varchar(200),
      online_url varchar(500),
      audience_trainee_type_ids bigint[] NOT NULL DEFAULT '{}',
      audience_org_ids bigint[] NOT NULL DEFAULT '{}',
      audience_cohort_years smallint[] NOT NULL DEFAULT '{}',
      capacity int CHECK (capacity > 0),
      sign_in_mode text NOT NULL DEFAULT 'qr' CHECK (sign_in_mode IN ('qr', 'manual', 'none')),
      late_after_minutes int NOT NULL DEFAULT 10 CHECK (late_after_minutes >= 0),
      evaluation_enabled boolean NOT NULL DEFAULT true,
      description text,
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'completed', 'cancelled')),
      cancel_reason varchar(500),
      published_at timestamptz,
      participant_count int NOT NULL DEFAULT 0,
      present_count int NOT NULL DEFAULT 0,
      rating_count int NOT NULL DEFAULT 0,
      avg_rating numeric(3, 2),
      remark varchar(500),
      CHECK (end_at > start_at),
      FOREIGN KEY (tenant_id, org_id) REFERENCES organization (tenant_id, id),
      FOREIGN KEY (tenant_id, host_doctor_id) REFERENCES doctor (tenant_id, id)`,
    ),
    'CREATE INDEX teaching_activity_start_idx ON teaching_activity (tenant_id, start_at DESC, id DESC)',
    'CREATE INDEX teaching_activity_org_idx ON teaching_activity (tenant_id, org_id, start_at)',
    'CREATE INDEX teaching_activity_host_idx ON teaching_activity (tenant_id, host_doctor_id)',
    ...tenantTable(
      'activity_participant',
      `activity_id bigint NOT NULL,
      trainee_id bigint NOT NULL,
      role text NOT NULL DEFAULT 'attendee' CHECK (role IN ('attendee', 'presenter')),
      attendance text NOT NULL DEFAULT 'registered'
        CHECK (attendance IN ('registered', 'present', 'late', 'absent', 'excused')),
      signed_in_at timestamptz,
      sign_in_method text CHECK (sign_in_method IN ('qr', 'manual')),
      note varchar(200),
      rating smallint CHECK (rating BETWEEN 1 AND 5),
      comment varchar(500),
      rated_at timestamptz,
      FOREIGN KEY (tenant_id, activity_id) REFERENCES teaching_activity (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, trainee_id) REFERENCES trainee (tenant_id, id)`,
    ),
    'CREATE UNIQUE INDEX activity_participant_uq ON activity_participant (tenant_id, activity_id, trainee_id)',
    'CREATE INDEX activity_participant_trainee_idx ON activity_participant (tenant_id, trainee_id)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['DROP TABLE activity_participant', 'DROP TABLE teaching_activity']);
}
