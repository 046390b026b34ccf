import type { Kysely } from 'kysely';
import { SYSTEM_ROLE } from './0002_tenancy_rls';
import { taxonomy } from './0023_question_bank';
import { runStatements } from './statements';

/**
 * A course's category becomes a node of the tenant's `course_category` tree (docs/domain.md §8.1), as the bank's trees:
 * a materialised path of ids (`/1/7/`), codes unique in the tenant, names among siblings. The dictionary
 * `course_category` it replaces becomes each tenant's roots: the items the tenant saw (its own of a value, else the
 * platform's), then the values its courses hold that no item has, a name taken twice followed by its code. Each course
 * takes the root of its value; the column and the dictionary go. Written as the system role (the policies bind the
 * owner too).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...taxonomy('course_category'),
    `ALTER TABLE course ADD COLUMN category_id bigint,
      ADD CONSTRAINT course_category_id_fkey FOREIGN KEY (tenant_id, category_id)
        REFERENCES course_category (tenant_id, id)`,
    'CREATE INDEX course_by_category_idx ON course (tenant_id, category_id)',
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    `INSERT INTO course_category (tenant_id, path, code, name, sort, status)
    WITH seen AS (
      SELECT DISTINCT ON (t.id, i.value) t.id AS tenant_id, i.value, i.label, i.sort, i.status
      FROM tenant t JOIN dict_item i ON i.type_code = 'course_category' AND (i.tenant_id IS NULL OR i.tenant_id = t.id)
      ORDER BY t.id, i.value, i.tenant_id NULLS LAST
    ), used AS (
      SELECT DISTINCT c.tenant_id, c.category AS value, c.category AS label, 1000000 AS sort, 'enabled' AS status
      FROM course c
      WHERE c.category IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM seen s WHERE s.tenant_id = c.tenant_id AND s.value = c.category)
    ), roots AS (SELECT * FROM seen UNION ALL SELECT * FROM used)
    SELECT tenant_id, '/', left(value, 50),
      CASE WHEN row_number() OVER (PARTITION BY tenant_id, label ORDER BY sort, value) = 1 THEN label
        ELSE left(label, 97 - length(left(value, 50))) || ' (' || left(value, 50) || ')' END,
      sort, status
    FROM roots`,
    `UPDATE course_category SET path = '/' || id || '/'`,
    `UPDATE course c SET category_id = r.id FROM course_category r
      WHERE r.tenant_id = c.tenant_id AND r.parent_id IS NULL AND r.code = left(c.category, 50)`,
    `DELETE FROM dict_item WHERE type_code = 'course_category'`,
    `DELETE FROM dict_type WHERE code = 'course_category'`,
    'RESET ROLE',
    'ALTER TABLE course DROP COLUMN category',
  ]);
}

/** The column again, holding the code of each course's category; the dictionary's items are not made again. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'ALTER TABLE course ADD COLUMN category varchar(50)',
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    `UPDATE course c SET category = r.code FROM course_category r WHERE r.tenant_id = c.tenant_id AND r.id = c.category_id`,
    'RESET ROLE',
    'ALTER TABLE course DROP COLUMN category_id',
    'DROP TABLE course_category',
  ]);
}
