import { ConfigError, loadConfig, readEnvFiles } from '../config';
import { onDirectSession, openDatabase } from './database';
import { migrateDown, migrateToLatest, pendingMigrations } from './migrator';
import { holdStartupLock } from './startup-lock';

/**
 * `npm run migrate` applies pending migrations; `npm run migrate -- down` reverts the last one; `npm run migrate --
 * --dry-run` lists what would be applied and changes nothing. It takes its turn with the instances starting meanwhile
 * (db/startup-lock.ts), so as not to change the schema under their seeds.
 */
async function main() {
  readEnvFiles();
  const config = loadConfig();
  const database = config.databaseUrl
    ? ({ kind: 'postgres', url: config.databaseUrl, directUrl: config.databaseDirectUrl } as const)
    : ({ kind: 'pglite', dataDir: config.dataDir } as const);
  const { db, close } = await openDatabase(database);
  try {
    if (process.argv.includes('--dry-run')) {
      const pending = await pendingMigrations(db);
      console.log(pending.length ? `would apply:\n${pending.join('\n')}` : 'database is up to date');
      return;
    }
    const lock = await holdStartupLock(database);
    try {
      const lines = await onDirectSession(database, db, process.argv[2] === 'down' ? migrateDown : migrateToLatest);
      console.log(lines.length ? lines.join('\n') : 'database is up to date');
    } finally {
      await lock.release();
    }
  } finally {
    await close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
