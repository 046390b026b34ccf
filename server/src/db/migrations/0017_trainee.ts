import type { Kysely } from 'kysely';
import { tenantTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * People and trainees (docs/domain.md §4.3, §4.9, issue 9).
 *
 * `person`: one identity per human in a tenant, shared by the staff, doctor, trainee and expert records. The ID number
 * is kept encrypted (`id_no_enc`) with a keyed hash (`id_no_hash`, unique in the tenant) to find it and its mask to
 * show it. The lists' keyword finds people by the start of their name, its pinyin (`name_pinyin`, lower case), its
 * initials (`name_initials`) or their mobile: prefix look-ups (`starts_with`), which row-level security lets an index
 * answer (the operators of LIKE and of trigrams are not leakproof: under RLS their conditions are tested row by row).
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
      name_pinyin varchar(300) NOT NULL DEFAULT '',
      name_initials varchar(50) NOT NULL DEFAULT '',
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
    'CREATE INDEX person_name_prefix_idx ON person (tenant_id, name text_pattern_ops)',
    'CREATE INDEX person_pinyin_prefix_idx ON person (tenant_id, name_pinyin text_pattern_ops)',
    'CREATE INDEX person_initials_prefix_idx ON person (tenant_id, name_initials text_pattern_ops)',
    'CREATE INDEX person_mobile_prefix_idx ON person (tenant_id, mobile text_pattern_ops)',
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
    // byte order: a prefix look-up, and the last number of a pattern's prefix, read the index
    'CREATE INDEX trainee_no_prefix_idx ON trainee (tenant_id, (trainee_no COLLATE "C"))',
    'CREATE INDEX trainee_person_idx ON trainee (tenant_id, person_id)',
    // the list's default order (newest first, then the id), under its usual filters: a page reads twenty index entries
    ...[[], ['trainee_type_id', 'status'], ['training_base_id'], ['specialty_base_id']].map(
      (columns) =>
        `CREATE INDEX trainee_${columns[0] ?? 'list'}_order_idx ON trainee
          (tenant_id, ${columns.map((c) => `${c}, `).join('')}created_at DESC NULLS LAST, id DESC)`,
    ),
    'CREATE INDEX trainee_unit_idx ON trainee (tenant_id, work_unit_id)',
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
