import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * A list's default order is `created_at DESC NULLS LAST, id DESC` (the generic repository puts nulls last either
 * way); an index made `created_at DESC` sorts nulls first, so the planner could not walk it for that order and read
 * every row of the tenant to sort them. These indexes are made again in the list's order, as those of people are.
 */
const indexes = [
  ['question_list_idx', 'question', 'WHERE parent_id IS NULL'],
  ['exam_paper_created_idx', 'exam_paper', ''],
  ['course_created_idx', 'course', ''],
  ['file_created_idx', 'file', ''],
] as const;

const made = (nulls: string) =>
  indexes.flatMap(([name, table, where]) => [
    `DROP INDEX ${name}`,
    `CREATE INDEX ${name} ON ${table} (tenant_id, created_at DESC${nulls}, id DESC) ${where}`,
  ]);

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, made(' NULLS LAST'));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, made(''));
}
