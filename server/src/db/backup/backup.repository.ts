import { type QueryExecutorProvider, sql } from 'kysely';

type Executor = QueryExecutorProvider;

/**
 * The SQL of backups: what a manifest records of a database (its migration level, its tables' rows), a checksum of a
 * table's contents, and what makes a PostgreSQL database ready to receive a dump. Read past row-level security: a
 * backup is the operator's, who connects as the tables' owner.
 */

/** Schemas a backup counts: the application's and the job queue's, not the catalogue's. */
const SKIPPED_SCHEMAS = ['pg_catalog', 'information_schema', 'pg_toast'];

export async function migrationLevel(db: Executor): Promise<string | undefined> {
  const exists = await sql<{
    found: boolean;
  }>`SELECT to_regclass('public.kysely_migration') IS NOT NULL AS found`.execute(db);
  if (!exists.rows[0]?.found) return undefined;
  const { rows } = await sql<{ name: string | null }>`SELECT max(name) AS name FROM kysely_migration`.execute(db);
  return rows[0]?.name ?? undefined;
}

/** Every ordinary table of the database as `schema.table`, in name order. */
export async function tableNames(db: Executor): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT n.nspname || '.' || c.relname AS name
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
      AND n.nspname <> ALL (${SKIPPED_SCHEMAS}::text[]) AND n.nspname NOT LIKE 'pg_temp%'
    ORDER BY 1`.execute(db);
  return rows.map((r) => r.name);
}

const qualified = (table: string) => sql.id(...(table.split('.') as [string, string]));

/** The rows of each table, exactly (count(*), not the planner's estimate). */
export async function rowCounts(db: Executor, tables: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM ${qualified(table)}`.execute(db);
    counts[table] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

/** An md5 of a table's rows as text, in the order of that text: equal for equal contents, on either engine. */
export async function tableChecksum(db: Executor, table: string): Promise<string> {
  const { rows } = await sql<{ sum: string | null }>`
    SELECT md5(coalesce(string_agg(t::text, E'\n' ORDER BY t::text COLLATE "C"), '')) AS sum
    FROM ${qualified(table)} t`.execute(db);
  return rows[0]?.sum ?? '';
}

/** Writes every dirty page out, so a copy of the data folder taken next needs no recovery when it is opened. */
export async function checkpoint(db: Executor): Promise<void> {
  await sql`CHECKPOINT`.execute(db);
}

export async function serverVersion(db: Executor): Promise<string> {
  const { rows } = await sql<{ version: string }>`SELECT current_setting('server_version') AS version`.execute(db);
  return rows[0]?.version ?? '';
}

/** A restore goes into an empty database only: one with tables of its own is the operator's to move away first. */
export async function isEmptyDatabase(db: Executor): Promise<boolean> {
  return (await tableNames(db)).length === 0;
}

/**
 * The roles the migrations make (0002) are the cluster's, not the database's, so a dump carries their grants and
 * policies but not them: a restore onto another server makes them first, as the migration does.
 */
export async function ensureRoles(db: Executor, roles: string[]): Promise<void> {
  for (const role of roles) {
    await sql`DO $$
BEGIN
  BEGIN
    EXECUTE format('CREATE ROLE %I NOLOGIN NOBYPASSRLS', ${sql.lit(role)});
  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
  END;
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
     AND NOT pg_has_role(current_user, ${sql.lit(role)}, 'MEMBER') THEN
    EXECUTE format('GRANT %I TO %I', ${sql.lit(role)}, current_user);
  END IF;
END $$`.execute(db);
  }
}

/** pg_dump reads every tenant's rows, and pg_restore writes them, past forced row-level security. */
export async function mayBypassRowSecurity(db: Executor): Promise<boolean> {
  const { rows } = await sql<{ may: boolean }>`
    SELECT rolsuper OR rolbypassrls AS may FROM pg_roles WHERE rolname = current_user`.execute(db);
  return rows[0]?.may === true;
}

/** The snapshot of the transaction it runs in, for pg_dump to read the same rows (`--snapshot`). */
export async function exportSnapshot(db: Executor): Promise<string> {
  const { rows } = await sql<{ id: string }>`SELECT pg_export_snapshot() AS id`.execute(db);
  const id = rows[0]?.id;
  if (!id) throw new Error('the database exported no snapshot');
  return id;
}
