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

/**
 * Moves the permission codes under `from` (`org:unit`, `org:unit:merge`, …) to `to`, and their locale keys with them,
 * in place: the rows keep their ids, so every role and package keeps its grants.
 */
export function renamePermissionCodes(from: string, to: string): string {
  const dotted = (code: string) => `.${code.replaceAll(':', '.')}.`;
  return `UPDATE permission
    SET code = '${to}' || substr(code, ${from.length + 1}),
        locale_key = replace(locale_key, '${dotted(from)}', '${dotted(to)}')
    WHERE code = '${from}' OR code LIKE '${from}:%'`;
}
