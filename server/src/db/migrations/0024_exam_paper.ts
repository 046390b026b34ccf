import type { Kysely } from 'kysely';
import { tenantTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * Exam papers (docs/domain.md §9.2). `exam_paper`: the settings; `paper_section`: its parts, in order; `paper_slot`: a
 * question placed in a section (a group is one slot), with its score and, once the paper is published, the version
 * of the question it pins; `paper_rule`: a random draw of a section (categories with their sub-categories, knowledge
 * points, tags any/all, type, format, difficulty range, how many, the score of each). A published paper's structure
 * is frozen: it is cloned to be changed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...tenantTable(
      'exam_paper',
      `code varchar(30) NOT NULL,
      title varchar(200) NOT NULL,
      purpose text NOT NULL DEFAULT 'practice' CHECK (purpose IN ('practice', 'unit_test', 'department_exit', 'annual',
        'mock_completion', 'entrance', 'cme')),
      compose_mode text NOT NULL DEFAULT 'manual' CHECK (compose_mode IN ('manual', 'random_once', 'random_per_candidate')),
      total_score numeric(6, 2) NOT NULL DEFAULT 0,
      pass_score numeric(6, 2) NOT NULL CHECK (pass_score > 0),
      duration_minutes int NOT NULL CHECK (duration_minutes > 0),
      shuffle_questions boolean NOT NULL DEFAULT false,
      shuffle_options boolean NOT NULL DEFAULT false,
      multi_answer_scoring text NOT NULL DEFAULT 'all_or_nothing'
        CHECK (multi_answer_scoring IN ('all_or_nothing', 'partial_no_wrong', 'weighted')),
      instructions text,
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'closed', 'archived')),
      published_at timestamptz,
      question_count int NOT NULL DEFAULT 0,
      remark varchar(500)`,
    ),
    'CREATE UNIQUE INDEX exam_paper_code_uq ON exam_paper (tenant_id, code)',
    'CREATE INDEX exam_paper_created_idx ON exam_paper (tenant_id, created_at DESC, id DESC)',
    ...tenantTable(
      'paper_section',
      `paper_id bigint NOT NULL,
      title varchar(100) NOT NULL,
      instructions varchar(1000),
      default_score numeric(5, 2) NOT NULL DEFAULT 1,
      sort int NOT NULL DEFAULT 0,
      FOREIGN KEY (tenant_id, paper_id) REFERENCES exam_paper (tenant_id, id) ON DELETE CASCADE`,
      { audited: false },
    ),
    'CREATE INDEX paper_section_paper_idx ON paper_section (tenant_id, paper_id, sort)',
    ...tenantTable(
      'paper_slot',
      `paper_id bigint NOT NULL,
      section_id bigint NOT NULL,
      question_id bigint NOT NULL,
      question_version int,
      score numeric(5, 2) NOT NULL CHECK (score > 0),
      sort int NOT NULL DEFAULT 0,
      FOREIGN KEY (tenant_id, paper_id) REFERENCES exam_paper (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, section_id) REFERENCES paper_section (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, question_id) REFERENCES question (tenant_id, id)`,
      { audited: false },
    ),
    'CREATE INDEX paper_slot_section_idx ON paper_slot (tenant_id, section_id, sort)',
    'CREATE INDEX paper_slot_question_idx ON paper_slot (tenant_id, question_id)',
    ...tenantTable(
      'paper_rule',
      `paper_id bigint NOT NULL,
      section_id bigint NOT NULL,
      category_ids bigint[] NOT NULL DEFAULT '{}',
      include_subcategories boolean NOT NULL DEFAULT true,
      knowledge_point_ids bigint[] NOT NULL DEFAULT '{}',
      tags text[] NOT NULL DEFAULT '{}',
      tag_match text NOT NULL DEFAULT 'any' CHECK (tag_match IN ('any', 'all')),
      question_type text,
      medical_format text,
      difficulty_min smallint NOT NULL DEFAULT 1 CHECK (difficulty_min BETWEEN 1 AND 5),
      difficulty_max smallint NOT NULL DEFAULT 5 CHECK (difficulty_max BETWEEN 1 AND 5),
      count int NOT NULL CHECK (count > 0),
      score numeric(5, 2) NOT NULL CHECK (score > 0),
      sort int NOT NULL DEFAULT 0,
      FOREIGN KEY (tenant_id, paper_id) REFERENCES exam_paper (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, section_id) REFERENCES paper_section (tenant_id, id) ON DELETE CASCADE`,
      { audited: false },
    ),
    'CREATE INDEX paper_rule_section_idx ON paper_rule (tenant_id, section_id, sort)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP TABLE paper_rule',
    'DROP TABLE paper_slot',
    'DROP TABLE paper_section',
    'DROP TABLE exam_paper',
  ]);
}
