import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Images on questions (docs/domain.md §9.1): the files a stem shows (ECGs, X-rays, histology), in order, on a question
 * and on each item of a group; an option's images are kept in its JSON (`options[].mediaIds`). The question holds the
 * files (`file.biz_type` `question.media`) while any of its versions shows them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ["ALTER TABLE question ADD COLUMN stem_media_file_ids bigint[] NOT NULL DEFAULT '{}'"]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['ALTER TABLE question DROP COLUMN stem_media_file_ids']);
}
