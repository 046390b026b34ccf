import type { Kysely } from 'kysely';
import { tenantTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * People and trainees (docs/domain.md §4.3, §4.9, issue 9).
 *
 * `person`: one identity per human in a tenant, shared by the staff, doctor, trainee and expert records. The ID number
 * is kept encrypted (`id_no_enc`) with a keyed hash (`id_no_hash`, unique in the tenant) to find it and its mask to
 * show it; `search_text` (name, full pinyin and initials, lower case) is what the lists' keyword matches by trigram.
 *
 * `trainee`: a person in a training programme, with the values of its type's custom fields (`custom_fields`), its
 * lifecycle (`status`) and its registration audit; `trainee_history` keeps each transition and audit decision. Its
 * type and training base are kept from deletion by their services; a deleted specialty base or unit leaves it without.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...tenantTable(
      'person',
      `name varchar(50) NOT NULL,
      search_text varchar(400) NOT NULL DEFAULT '',
      gender varchar(20),
      birth_date date,
      id_type text NOT NULL DEFAULT 'resident_id'
        CHECK (id_type IN ('resident_id', 'passport', 'hk_macao_pass', 'taiwan_pass', 'other')),
      id_no_enc bytea,
      id_no_hash bytea,
      id_no_masked varchar(40),
      mobile varchar(20),
      email varchar(100),
      ethnicity varchar(50),
      education varchar(50),
      degree varchar(50),
      CHECK ((id_no_enc IS NULL) = (id_no_hash IS NULL))`,
    ),
    'CREATE UNIQUE INDEX person_id_no_uq ON person (tenant_id, id_no_hash) WHERE id_no_hash IS NOT NULL',
    'CREATE UNIQUE INDEX person_mobile_uq ON person (tenant_id, mobile) WHERE mobile IS NOT NULL',
    'CREATE INDEX person_search_trgm ON person USING gin (search_text gin_trgm_ops)',
    ...tenantTable(
      'trainee',
      `person_id bigint NOT NULL,
      trainee_no varchar(30) NOT NULL,
      trainee_type_id bigint NOT NULL,
      training_base_id bigint NOT NULL,
      specialty_base_id bigint,
      specialty_code varchar(50),
      cohort_year smallint CHECK (cohort_year BETWEEN 1950 AND 2100),
      training_start date,
      planned_end date,
      actual_end date,
      work_unit_id bigint,
      recruit_type text CHECK (recruit_type IN ('social', 'unit_entrusted', 'postgraduate', 'other')),
      graduate_school varchar(100),
      graduate_major varchar(100),
      graduation_date date,
      status text NOT NULL DEFAULT 'applied' CHECK (status IN
        ('applied', 'in_training', 'suspended', 'extended', 'graduated', 'terminated', 'withdrawn')),
      registration_status text NOT NULL DEFAULT 'not_submitted'
        CHECK (registration_status IN ('not_submitted', 'pending', 'approved', 'rejected')),
      audit_level smallint NOT NULL DEFAULT 0,
      custom_fields jsonb NOT NULL DEFAULT '{}',
      remark text,
      FOREIGN KEY (tenant_id, person_id) REFERENCES person (tenant_id, id),
      FOREIGN KEY (tenant_id, trainee_type_id) REFERENCES trainee_type (tenant_id, id),
      FOREIGN KEY (tenant_id, training_base_id) REFERENCES organization (tenant_id, id),
      FOREIGN KEY (tenant_id, specialty_base_id) REFERENCES organization (tenant_id, id)
        ON DELETE SET NULL (specialty_base_id),
      FOREIGN KEY (tenant_id, work_unit_id) REFERENCES unit (tenant_id, id) ON DELETE SET NULL (work_unit_id)`,
    ),
    'CREATE UNIQUE INDEX trainee_no_uq ON trainee (tenant_id, trainee_no)',
    'CREATE UNIQUE INDEX trainee_person_type_uq ON trainee (tenant_id, person_id, trainee_type_id)',
    'CREATE INDEX trainee_created_idx ON trainee (tenant_id, created_at DESC, id DESC)',
    'CREATE INDEX trainee_type_status_idx ON trainee (tenant_id, trainee_type_id, status, created_at DESC)',
    'CREATE INDEX trainee_base_idx ON trainee (tenant_id, training_base_id)',
    'CREATE INDEX trainee_specialty_base_idx ON trainee (tenant_id, specialty_base_id)',
    'CREATE INDEX trainee_unit_idx ON trainee (tenant_id, work_unit_id)',
    'CREATE INDEX trainee_custom_fields_gin ON trainee USING gin (custom_fields jsonb_path_ops)',
    ...tenantTable(
      'trainee_history',
      `trainee_id bigint NOT NULL,
      kind text NOT NULL CHECK (kind IN ('status', 'registration')),
      from_state text NOT NULL,
      to_state text NOT NULL,
      audit_level smallint,
      reason varchar(500),
      effective_date date,
      created_at timestamptz NOT NULL DEFAULT now(),
      created_by bigint,
      FOREIGN KEY (tenant_id, trainee_id) REFERENCES trainee (tenant_id, id) ON DELETE CASCADE`,
      { audited: false },
    ),
    'CREATE INDEX trainee_history_trainee_idx ON trainee_history (tenant_id, trainee_id, id)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['DROP TABLE trainee_history', 'DROP TABLE trainee', 'DROP TABLE person']);
}
