import type { Kysely } from 'kysely';
import { tenantTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * Courses (docs/domain.md §8.1–8.2). `course`: an online or blended course with its audience, credit hours, final
 * paper and completion rule; `course_item`: its ordered content (chapters at the top, the rest in or beside them);
 * `course_enrollment`: a trainee on the course with their progress; `course_item_progress`: a trainee's progress on one
 * item (reported by the learning client, or recorded by hand).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...tenantTable(
      'course',
      `code varchar(50) NOT NULL,
      title varchar(200) NOT NULL,
      category varchar(50),
      course_type text NOT NULL DEFAULT 'required' CHECK (course_type IN ('required', 'elective', 'open')),
      purpose text NOT NULL DEFAULT 'general' CHECK (purpose IN ('pre_job', 'general', 'cme')),
      audience_trainee_type_ids bigint[] NOT NULL DEFAULT '{}',
      audience_org_ids bigint[] NOT NULL DEFAULT '{}',
      audience_cohort_years smallint[] NOT NULL DEFAULT '{}',
      owner_org_id bigint,
      summary varchar(2000),
      credit_hours numeric(5, 1) NOT NULL DEFAULT 0 CHECK (credit_hours >= 0),
      available_from date,
      available_to date,
      final_paper_id bigint,
      min_item_percent smallint NOT NULL DEFAULT 100 CHECK (min_item_percent BETWEEN 0 AND 100),
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'offline', 'archived')),
      published_at timestamptz,
      remark varchar(500),
      CHECK (available_to IS NULL OR available_from IS NULL OR available_to >= available_from),
      FOREIGN KEY (tenant_id, owner_org_id) REFERENCES organization (tenant_id, id),
      FOREIGN KEY (tenant_id, final_paper_id) REFERENCES exam_paper (tenant_id, id)`,
    ),
    'CREATE UNIQUE INDEX course_code_uq ON course (tenant_id, code)',
    'CREATE INDEX course_created_idx ON course (tenant_id, created_at DESC, id DESC)',
    ...tenantTable(
      'course_item',
      `course_id bigint NOT NULL,
      parent_id bigint,
      item_type text NOT NULL CHECK (item_type IN ('chapter', 'video', 'document', 'link', 'quiz')),
      title varchar(200) NOT NULL,
      description varchar(2000),
      file_id bigint,
      url varchar(1000),
      exam_paper_id bigint,
      duration_minutes int CHECK (duration_minutes > 0),
      min_view_percent smallint NOT NULL DEFAULT 80 CHECK (min_view_percent BETWEEN 1 AND 100),
      is_required boolean NOT NULL DEFAULT true,
      sort int NOT NULL DEFAULT 0,
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'hidden')),
      FOREIGN KEY (tenant_id, course_id) REFERENCES course (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, parent_id) REFERENCES course_item (tenant_id, id),
      FOREIGN KEY (tenant_id, exam_paper_id) REFERENCES exam_paper (tenant_id, id)`,
    ),
    'CREATE INDEX course_item_course_idx ON course_item (tenant_id, course_id, sort)',
    ...tenantTable(
      'course_enrollment',
      `course_id bigint NOT NULL,
      trainee_id bigint NOT NULL,
      source text NOT NULL DEFAULT 'assigned' CHECK (source IN ('assigned', 'self')),
      progress_percent smallint NOT NULL DEFAULT 0,
      status text NOT NULL DEFAULT 'not_started'
        CHECK (status IN ('not_started', 'in_progress', 'completed', 'failed')),
      completed_at timestamptz,
      FOREIGN KEY (tenant_id, course_id) REFERENCES course (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, trainee_id) REFERENCES trainee (tenant_id, id)`,
      { audited: false },
    ),
    'CREATE UNIQUE INDEX course_enrollment_uq ON course_enrollment (tenant_id, course_id, trainee_id)',
    'CREATE INDEX course_enrollment_trainee_idx ON course_enrollment (tenant_id, trainee_id)',
    ...tenantTable(
      'course_item_progress',
      `item_id bigint NOT NULL,
      course_id bigint NOT NULL,
      trainee_id bigint NOT NULL,
      percent smallint NOT NULL DEFAULT 0 CHECK (percent BETWEEN 0 AND 100),
      score numeric(6, 2),
      completed_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (tenant_id, item_id) REFERENCES course_item (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, trainee_id) REFERENCES trainee (tenant_id, id)`,
      { audited: false },
    ),
    'CREATE UNIQUE INDEX course_item_progress_uq ON course_item_progress (tenant_id, item_id, trainee_id)',
    'CREATE INDEX course_item_progress_course_idx ON course_item_progress (tenant_id, course_id, trainee_id)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP TABLE course_item_progress',
    'DROP TABLE course_enrollment',
    'DROP TABLE course_item',
    'DROP TABLE course',
  ]);
}
