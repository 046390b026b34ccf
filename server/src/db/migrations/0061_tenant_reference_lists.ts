import type { Kysely } from 'kysely';
import { SYSTEM_ROLE } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * The lists of ids that migration 0059 left to the requests' check get its trigger too (`refuse_foreign_ids`): an
 * activity's co-hosts, named trainees, slides and photos; a course's teachers; a question's knowledge points and images;
 * a paper rule's categories and knowledge points; the attachments of a document, a post, a reply, a qualification and
 * a report. A row that names an id of no row of its tenant (another tenant's) is refused by the database.
 *
 * The trigger runs only for a list that has ids (`WHEN`): a question imported without knowledge points or images pays
 * nothing for it. As in 0059, ids that old rows hold to another tenant's row, or to a row removed since, are taken out
 * of their lists first, so that an upgrade never stops on old data.
 */
const lists: [table: string, column: string, target: string][] = [
  ['teaching_activity', 'co_host_ids', 'doctor'],
  ['teaching_activity', 'audience_trainee_ids', 'trainee'],
  ['teaching_activity', 'material_file_ids', 'file'],
  ['teaching_activity', 'photo_file_ids', 'file'],
  ['course', 'teacher_doctor_ids', 'doctor'],
  ['course', 'teacher_staff_ids', 'staff'],
  ['question', 'knowledge_point_ids', 'knowledge_point'],
  ['question', 'stem_media_file_ids', 'file'],
  ['paper_rule', 'category_ids', 'question_category'],
  ['paper_rule', 'knowledge_point_ids', 'knowledge_point'],
  ['document', 'attachment_file_ids', 'file'],
  ['post', 'attachment_file_ids', 'file'],
  ['post_reply', 'attachment_file_ids', 'file'],
  ['qualification', 'attachment_file_ids', 'file'],
  ['report', 'evidence_file_ids', 'file'],
];

const triggerName = (table: string, column: string) => `${table}_${column}_tenant_refs`;
/** Whether `id` names a row of `target` in the tenant of the row `r`. */
const ofTenant = (target: string, r: string, id: string) =>
  `EXISTS (SELECT 1 FROM ${target} t WHERE t.tenant_id = ${r}.tenant_id AND t.id = ${id})`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    ...lists.map(
      ([table, column, target]) => `UPDATE ${table} r
        SET ${column} = ARRAY(SELECT x.id FROM unnest(r.${column}) WITH ORDINALITY AS x(id, n)
          WHERE ${ofTenant(target, 'r', 'x.id')} ORDER BY x.n)
        WHERE EXISTS (SELECT 1 FROM unnest(r.${column}) AS x(id) WHERE NOT ${ofTenant(target, 'r', 'x.id')})`,
    ),
    'RESET ROLE',
    ...lists.map(
      ([table, column, target]) => `CREATE TRIGGER ${triggerName(table, column)}
        BEFORE INSERT OR UPDATE OF ${column} ON ${table}
        FOR EACH ROW WHEN (cardinality(NEW.${column}) > 0)
        EXECUTE FUNCTION refuse_foreign_ids('{${column}}', '${target}')`,
    ),
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    lists.map(([table, column]) => `DROP TRIGGER ${triggerName(table, column)} ON ${table}`),
  );
}
