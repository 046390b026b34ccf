import type { Kysely } from 'kysely';
import { SYSTEM_ROLE, tenantOwnedTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

/** The longest custom value the look-up table holds (a longer one, a long text, is filtered by containment). */
export const INDEXED_VALUE_LENGTH = 200;

/**
 * `trainee_custom_value`: each trainee's custom values by key, a scalar or each item of a list, kept by statement
 * triggers on `trainee`. A list filtered by a custom value finds its trainees through this table's index: under
 * row-level security a condition is tested before the policy only when its operators are leakproof, and jsonb
 * containment is not (a count of a type's trainees read every one of them), where text and bigint equality are.
 * The rows already there are filled in as the system role (the policies bind the owner too).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const values = (rows: string) => `SELECT DISTINCT t.tenant_id, e.key, x.value, t.id
    FROM ${rows} t CROSS JOIN LATERAL jsonb_each(t.custom_fields) e
    CROSS JOIN LATERAL (
      SELECT e.value #>> '{}' AS value WHERE jsonb_typeof(e.value) IN ('string', 'number', 'boolean')
      UNION ALL SELECT a #>> '{}' FROM jsonb_array_elements(
        CASE jsonb_typeof(e.value) WHEN 'array' THEN e.value ELSE '[]'::jsonb END) a
      WHERE jsonb_typeof(a) IN ('string', 'number', 'boolean')) x
    WHERE length(x.value) <= ${INDEXED_VALUE_LENGTH}`;
  await runStatements(db, [
    `CREATE TABLE trainee_custom_value (
      tenant_id bigint NOT NULL,
      key text NOT NULL,
      value text NOT NULL,
      trainee_id bigint NOT NULL,
      PRIMARY KEY (tenant_id, key, value, trainee_id),
      FOREIGN KEY (tenant_id, trainee_id) REFERENCES trainee (tenant_id, id) ON DELETE CASCADE)`,
    'CREATE INDEX trainee_custom_value_trainee_idx ON trainee_custom_value (tenant_id, trainee_id)',
    ...tenantOwnedTable('trainee_custom_value'),
    `CREATE FUNCTION trainee_custom_values_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM trainee_custom_value v USING changed c WHERE v.tenant_id = c.tenant_id AND v.trainee_id = c.id;
      INSERT INTO trainee_custom_value (tenant_id, key, value, trainee_id) ${values('changed')};
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER trainee_custom_values_inserted AFTER INSERT ON trainee REFERENCING NEW TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION trainee_custom_values_sync()`,
    `CREATE TRIGGER trainee_custom_values_updated AFTER UPDATE ON trainee REFERENCING NEW TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION trainee_custom_values_sync()`,
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    `INSERT INTO trainee_custom_value (tenant_id, key, value, trainee_id) ${values('trainee')}`,
    'RESET ROLE',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP TRIGGER trainee_custom_values_updated ON trainee',
    'DROP TRIGGER trainee_custom_values_inserted ON trainee',
    'DROP FUNCTION trainee_custom_values_sync()',
    'DROP TABLE trainee_custom_value',
  ]);
}
