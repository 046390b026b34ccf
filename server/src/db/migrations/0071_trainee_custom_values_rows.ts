import type { Kysely } from 'kysely';
import { INDEXED_VALUE_LENGTH } from './0020_trainee_custom_values';
import { runStatements } from './statements';

/**
 * `trainee_custom_value` (migration 0020) is kept by row triggers on `trainee` in place of statement triggers with a
 * transition table: Citus runs a distributed table's triggers on its shards, where a statement trigger fires once per
 * shard and its transition table's rows are joined to another distributed table with no tenant to route by, which
 * Citus refuses ("cannot execute a distributed query from a query on a shard"). A row trigger reads and writes the
 * values of its own row's tenant only, the co-located shard beside it (docs/architecture.md, "Scaling out").
 * An update that leaves the custom values as they were leaves their rows as they are.
 */
const values = `SELECT DISTINCT NEW.tenant_id, e.key, x.value, NEW.id
      FROM jsonb_each(NEW.custom_fields) e
      CROSS JOIN LATERAL (
        SELECT e.value #>> '{}' AS value WHERE jsonb_typeof(e.value) IN ('string', 'number', 'boolean')
        UNION ALL SELECT a #>> '{}' FROM jsonb_array_elements(
          CASE jsonb_typeof(e.value) WHEN 'array' THEN e.value ELSE '[]'::jsonb END) a
        WHERE jsonb_typeof(a) IN ('string', 'number', 'boolean')) x
      WHERE length(x.value) <= ${INDEXED_VALUE_LENGTH}`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP TRIGGER trainee_custom_values_updated ON trainee',
    'DROP TRIGGER trainee_custom_values_inserted ON trainee',
    `CREATE FUNCTION trainee_custom_values_row() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        DELETE FROM trainee_custom_value WHERE tenant_id = OLD.tenant_id AND trainee_id = OLD.id;
      END IF;
      INSERT INTO trainee_custom_value (tenant_id, key, value, trainee_id) ${values};
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER trainee_custom_values_inserted AFTER INSERT ON trainee
      FOR EACH ROW WHEN (NEW.custom_fields <> '{}')
      EXECUTE FUNCTION trainee_custom_values_row()`,
    `CREATE TRIGGER trainee_custom_values_updated AFTER UPDATE ON trainee
      FOR EACH ROW WHEN (OLD.custom_fields IS DISTINCT FROM NEW.custom_fields)
      EXECUTE FUNCTION trainee_custom_values_row()`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP TRIGGER trainee_custom_values_updated ON trainee',
    'DROP TRIGGER trainee_custom_values_inserted ON trainee',
    'DROP FUNCTION trainee_custom_values_row()',
    `CREATE TRIGGER trainee_custom_values_inserted AFTER INSERT ON trainee REFERENCING NEW TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION trainee_custom_values_sync()`,
    `CREATE TRIGGER trainee_custom_values_updated AFTER UPDATE ON trainee REFERENCING NEW TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION trainee_custom_values_sync()`,
  ]);
}
