import { sql } from 'kysely';
import type { Tx } from '../../../core/tenancy';

/**
 * Takes the lock of each content (`question-content:<hash>`, the one the form's create and update take), held until
 * the transaction ends: a writer of the same content waits for it, then sees its question. The locks are taken in
 * the order of their keys, in one statement, so that two writers of many contents never wait on each other in a ring.
 */
export async function lockContents(tx: Tx, hashes: readonly string[]): Promise<void> {
  if (hashes.length === 0) return;
  await sql`SELECT pg_advisory_xact_lock(key) FROM (
      SELECT DISTINCT hashtext('question-content:' || hash) AS key FROM unnest(${hashes}::text[]) AS hash ORDER BY key
    ) AS keys`.execute(tx);
}
