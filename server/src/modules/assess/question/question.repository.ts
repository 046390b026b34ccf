import { sql } from 'kysely';
import type { Tx } from '../../../core/tenancy';

/**
 * Waits for, then holds until the transaction ends, the lock of one content of the bank (its `content_hash`): whoever
 * writes a question of that content takes it before looking for a duplicate, so that two writers of the same content
 * at once look one after the other.
 */
export async function lockQuestionContent(tx: Tx, hash: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`question-content:${hash}`}))`.execute(tx);
}
