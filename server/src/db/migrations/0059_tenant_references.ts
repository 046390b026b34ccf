import type { Kysely } from 'kysely';
import { SYSTEM_ROLE } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * A reference names a row of its own tenant, and the database says so (docs/architecture.md, "References"): the
 * references kept in a column without a foreign key get a composite one with `tenant_id`, and those kept in a list
 * (an array or a jsonb list) a trigger that refuses an id of no row of the tenant. The targets' primary keys are
 * already `(tenant_id, id)`.
 *
 * Rows written before this could name another tenant's row, or one deleted since (these columns had no key). Such a
 * reference is dropped (a column set to null, an id taken out of its list) rather than the migration failing: it
 * named nothing the tenant may see, so the tenant loses nothing it had, and an upgrade never stops on old data.
 * Shared platform rows (`tenant_id` null: message templates, dictionary items) are not among these targets; the
 * references that may name them (a batch's template) keep their single-column key. A table that holds such rows
 * (a template's WeChat account) takes no key to a tenant's table either (docs/architecture.md, distribution by
 * tenant): the request's check stands alone there.
 */
const columns: [table: string, column: string, target: string][] = [
  ['admin_user', 'org_id', 'organization'],
  ['admin_user', 'staff_id', 'staff'],
  ['admin_user', 'avatar_file_id', 'file'],
  ['board', 'icon_file_id', 'file'],
  ['course', 'cover_file_id', 'file'],
  ['course_item', 'file_id', 'file'],
  ['document', 'file_id', 'file'],
  ['staff_history', 'from_org_id', 'organization'],
  ['staff_history', 'to_org_id', 'organization'],
];

/** Lists of ids: the table, the list's path in the row (a column, or a key of a jsonb column) and the target. */
const lists: [table: string, path: string[], target: string][] = [
  ['role', ['data_scope_org_ids'], 'organization'],
  ['course', ['audience_org_ids'], 'organization'],
  ['course', ['audience_trainee_type_ids'], 'trainee_type'],
  ['teaching_activity', ['audience_org_ids'], 'organization'],
  ['teaching_activity', ['audience_trainee_type_ids'], 'trainee_type'],
  ['board', ['audience', 'orgIds'], 'organization'],
  ['board', ['audience', 'traineeTypeIds'], 'trainee_type'],
];

const keyName = (table: string, column: string) => `${table}_${column}_tenant_fk`;
const triggerName = (table: string, path: string[]) => `${table}_${path.join('_').toLowerCase()}_tenant_refs`;
const pathLiteral = (path: string[]) => `'{${path.join(',')}}'`;

/** The ids of the list at `path` of the row `r` that name no row of `target` in the row's tenant. */
const foreign = (path: string[], target: string, r: string) => `SELECT x.id FROM
  jsonb_array_elements_text(COALESCE(to_jsonb(${r}) #> ${pathLiteral(path)}, '[]'::jsonb)) AS x(id)
  WHERE NOT EXISTS (SELECT 1 FROM ${target} t WHERE t.tenant_id = ${r}.tenant_id AND t.id = x.id::bigint)`;

/** The list without those ids, as its column holds it. */
const kept = (table: string, path: string[], target: string) => {
  const ids = `SELECT x.id FROM jsonb_array_elements_text(COALESCE(to_jsonb(${table}) #> ${pathLiteral(path)}, '[]'::jsonb))
    WITH ORDINALITY AS x(id, n) WHERE EXISTS (SELECT 1 FROM ${target} t
      WHERE t.tenant_id = ${table}.tenant_id AND t.id = x.id::bigint) ORDER BY x.n`;
  const [column, key] = path;
  return key
    ? `${column} = jsonb_set(${column}, '{${key}}', COALESCE((SELECT jsonb_agg(k.id) FROM (${ids}) k), '[]'::jsonb))`
    : `${column} = ARRAY(SELECT k.id::bigint FROM (${ids}) k)`;
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    ...columns.map(
      ([table, column, target]) => `UPDATE ${table} r SET ${column} = NULL WHERE ${column} IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM ${target} t WHERE t.tenant_id = r.tenant_id AND t.id = r.${column})`,
    ),
    ...lists.map(
      ([table, path, target]) =>
        `UPDATE ${table} SET ${kept(table, path, target)} WHERE EXISTS (${foreign(path, target, table)})`,
    ),
    'RESET ROLE',
    ...columns.map(
      ([table, column, target]) => `ALTER TABLE ${table} ADD CONSTRAINT ${keyName(table, column)}
        FOREIGN KEY (tenant_id, ${column}) REFERENCES ${target} (tenant_id, id) ON DELETE SET NULL (${column})`,
    ),
    // One function serves every list: its arguments are the list's path in the row and the target table.
    `CREATE FUNCTION refuse_foreign_ids() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      bad text;
    BEGIN
      EXECUTE format('SELECT x.id FROM jsonb_array_elements_text(COALESCE($1 #> $2, ''[]''::jsonb)) AS x(id)
          WHERE NOT EXISTS (SELECT 1 FROM %I t WHERE t.tenant_id = $3 AND t.id = x.id::bigint) LIMIT 1', TG_ARGV[1])
        INTO bad USING to_jsonb(NEW), TG_ARGV[0]::text[], NEW.tenant_id;
      IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'insert or update on table "%" violates a reference: % of % is not in the tenant',
          TG_TABLE_NAME, bad, TG_ARGV[1] USING ERRCODE = 'foreign_key_violation';
      END IF;
      RETURN NEW;
    END $$`,
    ...lists.map(
      ([table, path, target]) => `CREATE TRIGGER ${triggerName(table, path)}
        BEFORE INSERT OR UPDATE OF ${path[0]} ON ${table}
        FOR EACH ROW EXECUTE FUNCTION refuse_foreign_ids(${pathLiteral(path)}, '${target}')`,
    ),
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...lists.map(([table, path]) => `DROP TRIGGER ${triggerName(table, path)} ON ${table}`),
    'DROP FUNCTION refuse_foreign_ids()',
    ...columns.map(([table, column]) => `ALTER TABLE ${table} DROP CONSTRAINT ${keyName(table, column)}`),
  ]);
}
