import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { type Migration, type MigrationResultSet, Migrator } from 'kysely/migration';

const directory = path.join(__dirname, 'migrations');
/** `.ts` beside the sources (tsx, vitest); `.js` in the release, where `npm run build` compiled each one. */
const extension = path.extname(__filename);

/**
 * The migrations are the files of `migrations/` named `NNNN_<name>.ts`, applied in name order: adding one is adding
 * its file. Append-only: never edit one that has shipped.
 */
export function migrationNames(): string[] {
  return readdirSync(directory)
    .filter((file) => /^\d{4}_\w+\.[jt]s$/.test(file) && path.extname(file) === extension)
    .sort()
    .map((file) => path.basename(file, extension));
}

type Load = (file: string) => Migration | Promise<Migration>;
let loaded: Promise<Record<string, Migration>> | undefined;

/**
 * Every migration, loaded once. `load` is a dynamic import; a host whose TypeScript hook is active only while it loads
 * its own files (the Umi mock) calls this with its `require` at that time.
 */
export function loadMigrations(load: Load = (file) => import(file)): Promise<Record<string, Migration>> {
  loaded ??= Promise.all(
    migrationNames().map(async (name) => [name, await load(path.join(directory, `${name}${extension}`))] as const),
  ).then(Object.fromEntries);
  return loaded;
}

function migrator<T>(db: Kysely<T>): Migrator {
  return new Migrator({ db, provider: { getMigrations: () => loadMigrations() } });
}

function unwrap({ error, results }: MigrationResultSet): string[] {
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${String((error as Error).message ?? error)}`, {
      cause: error,
    });
  }
  return (results ?? []).map((r) => `${r.direction === 'Up' ? 'applied' : 'reverted'} ${r.migrationName}`);
}

export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  return unwrap(await migrator(db).migrateToLatest());
}

export async function migrateDown<T>(db: Kysely<T>): Promise<string[]> {
  return unwrap(await migrator(db).migrateDown());
}

/** The migrations not yet applied to `db`, in the order `migrateToLatest` would apply them (`npm run migrate -- --dry-run`). */
export async function pendingMigrations<T>(db: Kysely<T>): Promise<string[]> {
  return (await migrator(db).getMigrations()).filter((m) => !m.executedAt).map((m) => m.name);
}
