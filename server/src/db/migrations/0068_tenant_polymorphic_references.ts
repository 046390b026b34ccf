import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * The references that name their table by a sibling column (a polymorphic reference: `subject_type` says whether
 * `subject_id` is a role, an organisation, …) get a trigger that refuses an id of no row of the tenant in the table its
 * kind names, as migrations 0059 and 0061 did for plain keys and lists of ids. Each column pair lists every kind it
 * may hold: a kind the list does not name (a new one, added without its table here) is refused with its id, so that a
 * new kind of reference cannot skip the check; a row whose kind or id is null names nothing and passes.
 *
 * A kind's table may hold shared platform rows (`tenant_id` null: a platform message template a message was sent
 * from); such a row is referable as the request's check lets it be (`core/references.ts`).
 *
 * The trigger runs on an insert, and on an update that changes the kind or the id: rows written before this are left
 * as they are (a message keeps its recipient after the recipient's record was removed; nothing is lost on upgrade).
 * The audit log's `resource_type`/`resource_id` is no reference: it records what happened to a record, removed ones
 * included, and may name a platform's resource from a tenant's log.
 */
const authors = { trainee: 'trainee', doctor: 'doctor', staff: 'staff', admin: 'admin_user' };
const reported = { post: 'post', reply: 'post_reply', user: 'admin_user' };

/** The references: the table, the kind's column, the id's column, and each kind with the table it names. */
const polymorphic: [table: string, kind: string, id: string, kinds: Record<string, string>][] = [
  [
    'qualification',
    'owner_type',
    'owner_id',
    { expert: 'expert', doctor: 'doctor', staff: 'staff', trainee: 'trainee' },
  ],
  [
    'document_base_grant',
    'subject_type',
    'subject_id',
    { role: 'role', org: 'organization', trainee_type: 'trainee_type', admin_user: 'admin_user' },
  ],
  ['board_moderator', 'subject_type', 'subject_id', { admin_user: 'admin_user', doctor: 'doctor' }],
  ['post', 'author_type', 'author_id', authors],
  ['post_reply', 'author_type', 'author_id', authors],
  ['community_mute', 'author_type', 'author_id', authors],
  ['report_case', 'target_type', 'target_id', reported],
  ['report', 'target_type', 'target_id', reported],
  ['report', 'reporter_type', 'reporter_id', authors],
  ['follower', 'bound_person_type', 'bound_person_id', { trainee: 'trainee', staff: 'staff', doctor: 'doctor' }],
  ['message', 'recipient_type', 'recipient_id', { admin_user: 'admin_user', trainee: 'trainee', person: 'person' }],
  [
    'message',
    'biz_ref_type',
    'biz_ref_id',
    {
      course: 'course',
      message_template: 'message_template',
      qualification: 'qualification',
      report_case: 'report_case',
      teaching_activity: 'teaching_activity',
      trainee: 'trainee',
    },
  ],
  [
    'file',
    'biz_type',
    'biz_id',
    {
      'course-item.material': 'course_item',
      'course.cover': 'course',
      // a document's files are held by its chain: the chain's first document
      'document.file': 'document',
      'post.attachment': 'post',
      'post_reply.attachment': 'post_reply',
      'qualification.attachment': 'qualification',
      'question.media': 'question',
      'report.evidence': 'report',
      'teaching-activity.material': 'teaching_activity',
      'teaching-activity.photo': 'teaching_activity',
    },
  ],
];

/**
 * The lists' function of migration 0059, which now names the list it refuses (its path, `audience.orgIds`) as the
 * error's column, for the API to name the field; `named` false gives it back as 0059 wrote it.
 */
const listFunction = (named: boolean) => `CREATE OR REPLACE FUNCTION refuse_foreign_ids() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
      bad text;
    BEGIN
      EXECUTE format('SELECT x.id FROM jsonb_array_elements_text(COALESCE($1 #> $2, ''[]''::jsonb)) AS x(id)
          WHERE NOT EXISTS (SELECT 1 FROM %I t WHERE t.tenant_id = $3 AND t.id = x.id::bigint) LIMIT 1', TG_ARGV[1])
        INTO bad USING to_jsonb(NEW), TG_ARGV[0]::text[], NEW.tenant_id;
      IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'insert or update on table "%" violates a reference: % of % is not in the tenant',
          TG_TABLE_NAME, bad, TG_ARGV[1] USING ERRCODE = 'foreign_key_violation'${
            named
              ? `, TABLE = TG_TABLE_NAME,
          COLUMN = array_to_string(TG_ARGV[0]::text[], '.')`
              : ''
          };
      END IF;
      RETURN NEW;
    END $$`;

const triggerName = (table: string, id: string) => `${table}_${id}_tenant_ref`;
const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    listFunction(true),
    // Its arguments: the kind's column, the id's column, and the kinds as a JSON object (kind → table).
    `CREATE FUNCTION refuse_foreign_subject() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      new_row jsonb := to_jsonb(NEW);
      kind text := new_row ->> TG_ARGV[0];
      ref text := new_row ->> TG_ARGV[1];
      target text;
      found boolean;
    BEGIN
      IF kind IS NULL OR ref IS NULL THEN
        RETURN NEW;
      END IF;
      IF TG_OP = 'UPDATE' AND to_jsonb(OLD) ->> TG_ARGV[0] = kind AND to_jsonb(OLD) ->> TG_ARGV[1] = ref THEN
        RETURN NEW;
      END IF;
      target := TG_ARGV[2]::jsonb ->> kind;
      found := false;
      IF target IS NOT NULL THEN
        EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I t WHERE t.tenant_id = $1 AND t.id = $2)
            OR EXISTS (SELECT 1 FROM %I t WHERE t.tenant_id IS NULL AND t.id = $2)', target, target)
          INTO found USING NEW.tenant_id, ref::bigint;
      END IF;
      IF NOT found THEN
        RAISE EXCEPTION 'insert or update on table "%" violates a reference: % % (%) is not in the tenant',
          TG_TABLE_NAME, kind, ref, TG_ARGV[1]
          USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME, COLUMN = TG_ARGV[1];
      END IF;
      RETURN NEW;
    END $$`,
    ...polymorphic.map(
      ([table, kind, id, kinds]) => `CREATE TRIGGER ${triggerName(table, id)}
        BEFORE INSERT OR UPDATE OF ${kind}, ${id} ON ${table}
        FOR EACH ROW EXECUTE FUNCTION refuse_foreign_subject(${quoted(kind)}, ${quoted(id)}, ${quoted(JSON.stringify(kinds))})`,
    ),
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...polymorphic.map(([table, , id]) => `DROP TRIGGER ${triggerName(table, id)} ON ${table}`),
    'DROP FUNCTION refuse_foreign_subject()',
    listFunction(false),
  ]);
}
