import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * A question is found by its content hash (an exact duplicate) only among questions, never items, and only by
 * equality: a hash index of the questions' hashes. The b-tree of every row's 64 hex characters it replaces was the
 * import's largest write: each new hash lands on a random page of it, so after each checkpoint nearly every insert
 * logged a whole page (165 MB of the 727 MB of WAL that 100,000 imported questions wrote into a bank of 1,000,000).
 * The hash index keeps 4 bytes of each, in a third of the pages (32 MB against 101 MB). Tenants are told apart by the row's policy.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP INDEX question_hash_idx',
    'CREATE INDEX question_hash_idx ON question USING hash (content_hash) WHERE parent_id IS NULL',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP INDEX question_hash_idx',
    'CREATE INDEX question_hash_idx ON question (tenant_id, content_hash)',
  ]);
}
