import type { Kysely } from 'kysely';
import { tenantTable } from './0002_tenancy_rls';
import { renamePermissionCodes, runStatements } from './statements';

/**
 * The other records a person may hold (docs/domain.md §4.4–§4.6, §4.10, §4.11, issue 9), each one per person and
 * tenant-owned (forced RLS; tenant_id in every key, for Citus):
 *
 * - `staff`: an employee in a department, optionally with a console account (`admin_user_id`); `staff_history` keeps
 *   each transfer of department and each change of status.
 * - `doctor_type` and `doctor`: the management categories of doctors and the doctors, internal (a department) or
 *   external (a unit); a trainee's tutor is a doctor (`trainee.tutor_doctor_id`).
 * - `expert`: the pool of experts, from a doctor or an external person.
 * - `qualification`: a person's credentials (certificates, licences, titles), reviewed (`qualification_review` keeps
 *   every decision) and expiring.
 *
 * The placeholder codes `org:staff:*` of the manifest take the area's name, `people:staff:*` (as 0014 and 0015 did).
 */
const renames: [string, string][] = [['org:staff', 'people:staff']];

/** The list's default order (newest first, then the id) under `columns`: a page reads twenty index entries. */
const orderIndex = (table: string, columns: string[] = []) =>
  `CREATE INDEX ${table}_${columns[0] ?? 'list'}_order_idx ON ${table}
    (tenant_id, ${columns.map((c) => `${c}, `).join('')}created_at DESC NULLS LAST, id DESC)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...tenantTable(
      'staff',
      `person_id bigint NOT NULL,
      staff_no varchar(30) NOT NULL,
      org_id bigint NOT NULL,
      position varchar(50),
      professional_title varchar(50),
      employment_type text NOT NULL DEFAULT 'full_time'
        CHECK (employment_type IN ('full_time', 'part_time', 'external')),
      hire_date date,
      leave_date date,
      is_teacher boolean NOT NULL DEFAULT false,
      teacher_level varchar(50),
      admin_user_id bigint,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'on_leave', 'left')),
      remark text,
      FOREIGN KEY (tenant_id, person_id) REFERENCES person (tenant_id, id),
      FOREIGN KEY (tenant_id, org_id) REFERENCES organization (tenant_id, id),
      FOREIGN KEY (tenant_id, admin_user_id) REFERENCES admin_user (tenant_id, id) ON DELETE SET NULL (admin_user_id)`,
    ),
    'CREATE UNIQUE INDEX staff_person_uq ON staff (tenant_id, person_id)',
    'CREATE UNIQUE INDEX staff_no_uq ON staff (tenant_id, staff_no)',
    'CREATE INDEX staff_no_prefix_idx ON staff (tenant_id, (staff_no COLLATE "C"))',
    'CREATE UNIQUE INDEX staff_admin_user_uq ON staff (tenant_id, admin_user_id) WHERE admin_user_id IS NOT NULL',
    orderIndex('staff'),
    orderIndex('staff', ['org_id']),
    orderIndex('staff', ['status']),
    ...tenantTable(
      'staff_history',
      `staff_id bigint NOT NULL,
      kind text NOT NULL CHECK (kind IN ('transfer', 'status', 'account')),
      from_org_id bigint,
      to_org_id bigint,
      from_state text,
      to_state text,
      reason varchar(500),
      effective_date date,
      created_at timestamptz NOT NULL DEFAULT now(),
      created_by bigint,
      FOREIGN KEY (tenant_id, staff_id) REFERENCES staff (tenant_id, id) ON DELETE CASCADE`,
      { audited: false },
    ),
    'CREATE INDEX staff_history_staff_idx ON staff_history (tenant_id, staff_id, id)',

    ...tenantTable(
      'doctor_type',
      `code varchar(50) NOT NULL,
      name varchar(50) NOT NULL,
      description text,
      teacher_eligible boolean NOT NULL DEFAULT false,
      license_required boolean NOT NULL DEFAULT false,
      color varchar(20),
      sort int NOT NULL DEFAULT 0,
      status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
      remark text`,
    ),
    'CREATE UNIQUE INDEX doctor_type_code_uq ON doctor_type (tenant_id, code)',
    'CREATE UNIQUE INDEX doctor_type_name_uq ON doctor_type (tenant_id, name)',
    ...tenantTable(
      'doctor',
      `person_id bigint NOT NULL,
      doctor_no varchar(30),
      doctor_type_id bigint NOT NULL,
      org_id bigint,
      unit_id bigint,
      professional_title varchar(50),
      practice_category varchar(50),
      practice_scope varchar(50),
      qualification_cert_no varchar(50),
      license_no varchar(50),
      license_issued_on date,
      specialty_code varchar(50),
      subspecialty varchar(100),
      is_tutor boolean NOT NULL DEFAULT false,
      teacher_since date,
      bio_html text,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'left')),
      remark text,
      FOREIGN KEY (tenant_id, person_id) REFERENCES person (tenant_id, id),
      FOREIGN KEY (tenant_id, doctor_type_id) REFERENCES doctor_type (tenant_id, id),
      FOREIGN KEY (tenant_id, org_id) REFERENCES organization (tenant_id, id),
      FOREIGN KEY (tenant_id, unit_id) REFERENCES unit (tenant_id, id) ON DELETE SET NULL (unit_id)`,
    ),
    'CREATE UNIQUE INDEX doctor_person_uq ON doctor (tenant_id, person_id)',
    'CREATE UNIQUE INDEX doctor_no_uq ON doctor (tenant_id, doctor_no) WHERE doctor_no IS NOT NULL',
    'CREATE INDEX doctor_no_prefix_idx ON doctor (tenant_id, (doctor_no COLLATE "C"))',
    'CREATE UNIQUE INDEX doctor_license_uq ON doctor (tenant_id, license_no) WHERE license_no IS NOT NULL',
    orderIndex('doctor'),
    orderIndex('doctor', ['doctor_type_id', 'status']),
    orderIndex('doctor', ['org_id']),
    'CREATE INDEX doctor_unit_idx ON doctor (tenant_id, unit_id)',
    `ALTER TABLE trainee ADD COLUMN tutor_doctor_id bigint,
      ADD FOREIGN KEY (tenant_id, tutor_doctor_id) REFERENCES doctor (tenant_id, id) ON DELETE SET NULL (tutor_doctor_id)`,
    'CREATE INDEX trainee_tutor_idx ON trainee (tenant_id, tutor_doctor_id)',

    ...tenantTable(
      'expert',
      `person_id bigint NOT NULL,
      doctor_id bigint,
      expert_no varchar(30) NOT NULL,
      unit_id bigint,
      org_id bigint,
      professional_title varchar(50),
      specialties text[] NOT NULL DEFAULT '{}',
      expert_level text NOT NULL DEFAULT 'institutional'
        CHECK (expert_level IN ('national', 'provincial', 'municipal', 'institutional')),
      roles text[] NOT NULL DEFAULT '{}' CHECK (roles <@ ARRAY['item_writer', 'item_reviewer', 'examiner',
        'base_evaluator', 'lecturer', 'content_moderator']::text[]),
      term_start date,
      term_end date CHECK (term_end IS NULL OR term_start IS NULL OR term_end >= term_start),
      bio_html text,
      achievements_html text,
      source text NOT NULL DEFAULT 'nominated' CHECK (source IN ('self_applied', 'nominated', 'imported')),
      status text NOT NULL DEFAULT 'applied'
        CHECK (status IN ('applied', 'in_review', 'active', 'suspended', 'expired', 'retired')),
      remark text,
      FOREIGN KEY (tenant_id, person_id) REFERENCES person (tenant_id, id),
      FOREIGN KEY (tenant_id, doctor_id) REFERENCES doctor (tenant_id, id) ON DELETE SET NULL (doctor_id),
      FOREIGN KEY (tenant_id, unit_id) REFERENCES unit (tenant_id, id) ON DELETE SET NULL (unit_id),
      FOREIGN KEY (tenant_id, org_id) REFERENCES organization (tenant_id, id)`,
    ),
    'CREATE UNIQUE INDEX expert_person_uq ON expert (tenant_id, person_id)',
    'CREATE UNIQUE INDEX expert_no_uq ON expert (tenant_id, expert_no)',
    'CREATE INDEX expert_doctor_idx ON expert (tenant_id, doctor_id)',
    'CREATE INDEX expert_specialties_idx ON expert USING gin (specialties)',
    orderIndex('expert'),
    orderIndex('expert', ['status']),

    ...tenantTable(
      'qualification',
      `person_id bigint NOT NULL,
      owner_type text NOT NULL CHECK (owner_type IN ('expert', 'doctor', 'staff', 'trainee')),
      qualification_type varchar(50) NOT NULL,
      cert_no varchar(60) NOT NULL,
      issuer varchar(100),
      issued_on date,
      valid_from date,
      valid_until date CHECK (valid_until IS NULL OR valid_from IS NULL OR valid_until >= valid_from),
      level varchar(50),
      attachment_file_ids bigint[] NOT NULL DEFAULT '{}',
      review_status text NOT NULL DEFAULT 'draft' CHECK (review_status IN
        ('draft', 'submitted', 'in_review', 'approved', 'rejected', 'returned', 'expired', 'revoked')),
      current_review_level smallint NOT NULL DEFAULT 0,
      reviewed_by bigint,
      reviewed_at timestamptz,
      review_comment varchar(500),
      remark text,
      FOREIGN KEY (tenant_id, person_id) REFERENCES person (tenant_id, id)`,
    ),
    'CREATE UNIQUE INDEX qualification_cert_uq ON qualification (tenant_id, qualification_type, cert_no)',
    'CREATE INDEX qualification_person_idx ON qualification (tenant_id, person_id)',
    // the expiry job's look-up: approved records by the day they end
    `CREATE INDEX qualification_expiry_idx ON qualification (tenant_id, valid_until)
      WHERE review_status = 'approved' AND valid_until IS NOT NULL`,
    orderIndex('qualification'),
    orderIndex('qualification', ['review_status']),
    ...tenantTable(
      'qualification_review',
      `qualification_id bigint NOT NULL,
      level smallint NOT NULL DEFAULT 0,
      decision text NOT NULL CHECK (decision IN ('submit', 'approve', 'reject', 'return', 'revoke', 'expire')),
      from_state text NOT NULL,
      to_state text NOT NULL,
      comment varchar(500),
      created_at timestamptz NOT NULL DEFAULT now(),
      created_by bigint,
      FOREIGN KEY (tenant_id, qualification_id) REFERENCES qualification (tenant_id, id) ON DELETE CASCADE`,
      { audited: false },
    ),
    'CREATE INDEX qualification_review_idx ON qualification_review (tenant_id, qualification_id, id)',
    ...renames.map(([from, to]) => renamePermissionCodes(from, to)),
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...renames.map(([from, to]) => renamePermissionCodes(to, from)),
    'DROP TABLE qualification_review',
    'DROP TABLE qualification',
    'DROP TABLE expert',
    'ALTER TABLE trainee DROP COLUMN tutor_doctor_id',
    'DROP TABLE doctor',
    'DROP TABLE doctor_type',
    'DROP TABLE staff_history',
    'DROP TABLE staff',
  ]);
}
