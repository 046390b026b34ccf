import { type Kysely, type MigrationResultSet, Migrator } from 'kysely';
import { migrations } from './migrations';

function migrator<T>(db: Kysely<T>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
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
