import { type Kysely, sql } from 'kysely';

/** Runs DDL one statement at a time: PGlite's extended protocol accepts a single command per query. */
export async function runStatements(db: Kysely<unknown>, statements: readonly string[]): Promise<void> {
  for (const statement of statements) {
    await sql.raw(statement).execute(db);
  }
}

export const auditColumns = `
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  updated_at timestamptz,
  updated_by bigint,
  version int NOT NULL DEFAULT 0`;
