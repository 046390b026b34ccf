import type { Kysely } from 'kysely';
import { SYSTEM_ROLE } from './0002_tenancy_rls';
import { runStatements } from './statements';

const BEFORE = `'chapter', 'video', 'document', 'link', 'quiz'`;
const AFTER = `${BEFORE}, 'audio', 'rich_text', 'live', 'assignment'`;

/**
 * The course item kinds of docs/domain.md §8.2 the first set lacked: `audio` (a stored file, read for its length as a
 * video is), `rich_text` (`content_html`, sanitised by the server), `live` (`live_config`: start, end, platform, room
 * address) and `assignment` (its instructions in `content_html`); a document item shows a stored file or a document of
 * the document base (`document_id`; a draft document deleted lets go of the draft items that named it); `is_preview`:
 * open before enrolling.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'ALTER TABLE course_item DROP CONSTRAINT course_item_item_type_check',
    `ALTER TABLE course_item
      ADD CONSTRAINT course_item_item_type_check CHECK (item_type IN (${AFTER})),
      ADD COLUMN content_html text,
      ADD COLUMN document_id bigint,
      ADD COLUMN live_config jsonb,
      ADD COLUMN is_preview boolean NOT NULL DEFAULT false,
      ADD CONSTRAINT course_item_document_fk FOREIGN KEY (tenant_id, document_id)
        REFERENCES document (tenant_id, id) ON DELETE SET NULL (document_id)`,
    'CREATE INDEX course_item_document_idx ON course_item (tenant_id, document_id) WHERE document_id IS NOT NULL',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    `DELETE FROM course_item WHERE item_type NOT IN (${BEFORE})`,
    'RESET ROLE',
    'DROP INDEX course_item_document_idx',
    `ALTER TABLE course_item DROP CONSTRAINT course_item_document_fk, DROP CONSTRAINT course_item_item_type_check,
      DROP COLUMN content_html, DROP COLUMN document_id, DROP COLUMN live_config, DROP COLUMN is_preview`,
    `ALTER TABLE course_item ADD CONSTRAINT course_item_item_type_check CHECK (item_type IN (${BEFORE}))`,
  ]);
}
