import type { Kysely } from 'kysely';
import { tenantOwnedTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * A published random paper draws from the pool its rules matched when it was published, each question at the version
 * it had then (`paper_rule_pool`, one row a rule and a question), so that later edits to the bank never change it. A
 * rule may ask a mix of difficulties (`difficulty_mix`: how many questions of each level 1-5) instead of a range.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE paper_rule_pool (
      tenant_id bigint NOT NULL REFERENCES tenant (id),
      paper_id bigint NOT NULL,
      rule_id bigint NOT NULL,
      question_id bigint NOT NULL,
      question_version int NOT NULL,
      difficulty smallint NOT NULL,
      PRIMARY KEY (tenant_id, rule_id, question_id),
      FOREIGN KEY (tenant_id, paper_id) REFERENCES exam_paper (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, rule_id) REFERENCES paper_rule (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, question_id) REFERENCES question (tenant_id, id))`,
    ...tenantOwnedTable('paper_rule_pool'),
    'CREATE INDEX paper_rule_pool_question_idx ON paper_rule_pool (tenant_id, question_id)',
    'ALTER TABLE paper_rule ADD COLUMN difficulty_mix jsonb',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['ALTER TABLE paper_rule DROP COLUMN difficulty_mix', 'DROP TABLE paper_rule_pool']);
}
