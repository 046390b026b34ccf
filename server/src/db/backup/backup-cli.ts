import { ConfigError, findIdNumberKey, loadConfig, readEnvFiles } from '../../config';
import { type BackupReport, type BackupTarget, backup, restore } from './backup';

const usage = 'usage: npm run backup -- <file.tar.gz>   |   npm run restore -- <file.tar.gz>';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function summary(verb: string, file: string, { manifest, bytes, ms }: BackupReport): string {
  const rows = Object.values(manifest.tables).reduce((sum, n) => sum + n, 0);
  return [
    `${verb} ${file}: ${mb(bytes)} in ${(ms / 1000).toFixed(1)} s`,
    `  ${manifest.engine === 'postgres' ? 'PostgreSQL' : 'embedded database'} ${manifest.server}, migration ${manifest.migration}, release ${manifest.version}`,
    `  ${Object.keys(manifest.tables).length} tables, ${rows} rows; ${manifest.files.count} files, ${mb(manifest.files.bytes)}`,
    `  needs ID_NUMBER_KEY with fingerprint ${manifest.key.fingerprint}`,
  ].join('\n');
}

/**
 * `npm run backup -- <file>` and `npm run restore -- <file>` on the configured database (DATABASE_URL, else the
 * embedded one in DATA_DIR) and DATA_DIR's file store. PostgreSQL is read and written as BACKUP_DATABASE_URL when set
 * (a role past row-level security), else DATABASE_DIRECT_URL, else DATABASE_URL.
 */
async function main() {
  const [command, file] = process.argv.slice(2);
  if ((command !== 'backup' && command !== 'restore') || !file || file.startsWith('-')) throw new Error(usage);
  readEnvFiles();
  const config = loadConfig();
  const backupUrl = process.env.BACKUP_DATABASE_URL?.trim();
  if (backupUrl && !/^postgres(ql)?:\/\//.test(backupUrl))
    throw new ConfigError('BACKUP_DATABASE_URL: must be a postgres:// or postgresql:// URL');
  const target: BackupTarget = {
    dataDir: config.dataDir,
    postgresUrl: config.databaseUrl && (backupUrl || config.databaseDirectUrl || config.databaseUrl),
    idNumberKey: findIdNumberKey(
      config,
      config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
    ),
  };
  const report = command === 'backup' ? await backup(target, file) : await restore(target, file);
  console.log(summary(command === 'backup' ? 'backed up to' : 'restored from', file, report));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
