import type { Kysely } from 'kysely';
import { tenantTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

const TYPES = [
  'single_choice',
  'multiple_choice',
  'true_false',
  'fill_blank',
  'short_answer',
  'essay',
  'case_group',
  'option_group',
  'case_analysis',
];
const FORMATS = ['A1', 'A2', 'A3', 'A4', 'B1', 'X', 'CASE'];
const STATUSES = ['draft', 'pending_review', 'ready', 'rejected', 'hidden', 'retired'];
const quoted = (values: string[]) => values.map((v) => `'${v}'`).join(', ');

/** A tree of the bank (categories, knowledge points): a materialised path of ids (`/1/7/`) finds a subtree. */
export const taxonomy = (table: string) => [
  ...tenantTable(
    table,
    `parent_id bigint,
    path varchar(400) NOT NULL,
    depth smallint NOT NULL DEFAULT 0,
    code varchar(50) NOT NULL,
    name varchar(100) NOT NULL,
    sort int NOT NULL DEFAULT 0,
    status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
    remark varchar(500),
    FOREIGN KEY (tenant_id, parent_id) REFERENCES ${table} (tenant_id, id)`,
  ),
  `CREATE UNIQUE INDEX ${table}_code_uq ON ${table} (tenant_id, code)`,
  `CREATE UNIQUE INDEX ${table}_name_uq ON ${table} (tenant_id, COALESCE(parent_id, 0), name)`,
  `CREATE INDEX ${table}_parent_idx ON ${table} (tenant_id, parent_id, sort)`,
  `CREATE INDEX ${table}_path_idx ON ${table} (tenant_id, path text_pattern_ops)`,
];

/**
 * The question bank (docs/domain.md §9.1). `question`: one row per question; a group (A3/A4 case, B1 shared options,
 * case analysis) is a parent row whose items are child rows (`parent_id`, `sub_order`), which the list never shows
 * alone. `knowledge_point_ids` and `tags` are arrays (GIN-indexed: a filter or a random rule reads them without a
 * join). `content_hash` is the normalised stem and options, for duplicates; `current_version` names the snapshot in
 * `question_version` that a paper pins (a new one each time a ready question is edited).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...taxonomy('question_category'),
    ...taxonomy('knowledge_point'),
    ...tenantTable(
      'question',
      `parent_id bigint,
      sub_order smallint NOT NULL DEFAULT 0,
      code varchar(30) NOT NULL,
      category_id bigint NOT NULL,
      question_type text NOT NULL CHECK (question_type IN (${quoted(TYPES)})),
      medical_format text CHECK (medical_format IN (${quoted(FORMATS)})),
      stem text NOT NULL,
      options jsonb,
      answer jsonb,
      analysis text,
      difficulty smallint NOT NULL DEFAULT 3 CHECK (difficulty BETWEEN 1 AND 5),
      knowledge_point_ids bigint[] NOT NULL DEFAULT '{}',
      tags text[] NOT NULL DEFAULT '{}',
      source varchar(100),
      suggested_score numeric(5, 2),
      status text NOT NULL DEFAULT 'draft' CHECK (status IN (${quoted(STATUSES)})),
      current_version int NOT NULL DEFAULT 1,
      reviewed_by bigint,
      reviewed_at timestamptz,
      review_comment varchar(500),
      content_hash char(64) NOT NULL,
      usage_count int NOT NULL DEFAULT 0,
      FOREIGN KEY (tenant_id, parent_id) REFERENCES question (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, category_id) REFERENCES question_category (tenant_id, id)`,
    ),
    'CREATE UNIQUE INDEX question_code_uq ON question (tenant_id, code)',
    'CREATE INDEX question_children_idx ON question (tenant_id, parent_id, sub_order) WHERE parent_id IS NOT NULL',
    'CREATE INDEX question_list_idx ON question (tenant_id, created_at DESC, id DESC) WHERE parent_id IS NULL',
    // the bank's facets, most selective first: a category (its subtree's ids), then type, format and difficulty, read
    // in the index without visiting the rows they leave out
    `CREATE INDEX question_facets_idx ON question (tenant_id, category_id, question_type, medical_format, difficulty)
      WHERE parent_id IS NULL`,
    'CREATE INDEX question_hash_idx ON question (tenant_id, content_hash)',
    'CREATE INDEX question_tags_gin ON question USING gin (tags)',
    'CREATE INDEX question_kp_gin ON question USING gin (knowledge_point_ids)',
    'CREATE INDEX question_stem_trgm ON question USING gin (stem gin_trgm_ops)',
    ...tenantTable(
      'question_version',
      `question_id bigint NOT NULL,
      number int NOT NULL,
      snapshot jsonb NOT NULL,
      change_note varchar(200),
      FOREIGN KEY (tenant_id, question_id) REFERENCES question (tenant_id, id) ON DELETE CASCADE`,
    ),
    'CREATE UNIQUE INDEX question_version_uq ON question_version (tenant_id, question_id, number)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP TABLE question_version',
    'DROP TABLE question',
    'DROP TABLE knowledge_point',
    'DROP TABLE question_category',
  ]);
}
