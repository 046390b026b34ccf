import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * A reader's search finds its page, when more than a thousand documents match, by walking the published documents in
 * its order (pinned first, then the latest published) until the page is full: an index in that order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE INDEX document_reader_idx ON document (tenant_id, is_pinned DESC, published_at DESC, id DESC)
      WHERE status = 'published'`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['DROP INDEX document_reader_idx']);
}
