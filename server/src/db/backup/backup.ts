import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../database';
import { APP_ROLE, SYSTEM_ROLE } from '../migrations/0002_tenancy_rls';
import { migrationNames } from '../migrator';
import {
  DATABASE_ENTRY,
  extractFiles,
  FORMAT,
  keyFingerprint,
  listStoredFiles,
  type Manifest,
  readArchive,
  writeArchive,
} from './archive';
import {
  ensureRoles,
  exportSnapshot,
  isEmptyDatabase,
  mayBypassRowSecurity,
  migrationLevel,
  rowCounts,
  serverVersion,
  tableNames,
} from './backup.repository';
import { isServing, requestSnapshot, type Snapshot, snapshotOf } from './dump-channel';
import { connectionOf, pgTool, runPgTool } from './pg-tools';

/** Where a backup is taken from, or restored to: the configured database, its DATA_DIR and its key. */
export interface BackupTarget {
  dataDir: string;
  /** PostgreSQL: the URL pg_dump and pg_restore connect to (BACKUP_DATABASE_URL, else the direct URL). */
  postgresUrl?: string;
  /** The ID_NUMBER_KEY the target runs with; on the embedded database, the one kept beside it when not configured. */
  idNumberKey?: Buffer;
}

export interface BackupReport {
  manifest: Manifest;
  bytes: number;
  ms: number;
}

const storeOf = (dataDir: string) => path.resolve(dataDir, 'files');
const pgdataOf = (dataDir: string) => path.resolve(dataDir, 'pgdata');

function productVersion(): string {
  try {
    return JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

const needsBypass = (url: string) =>
  new Error(
    `the backup reads and writes every tenant's rows past row-level security, which the user of ${new URL(url).username || 'this URL'} may not: ` +
      'set BACKUP_DATABASE_URL to the database as a superuser or a role WITH BYPASSRLS',
  );

async function withStaging<T>(work: (staging: string) => Promise<T>): Promise<T> {
  const staging = await mkdtemp(path.join(tmpdir(), 'medu-backup-'));
  try {
    return await work(staging);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** `npm run backup -- <file>`: the database, the local file store and a manifest, in one archive. */
export async function backup(target: BackupTarget, file: string): Promise<BackupReport> {
  const started = performance.now();
  const manifest = await withStaging(async (staging) => {
    await mkdir(path.join(staging, 'database'));
    const database = target.postgresUrl
      ? await dumpPostgres(target.postgresUrl, path.join(staging, DATABASE_ENTRY.postgres), target.idNumberKey)
      : await dumpPglite(target, path.join(staging, DATABASE_ENTRY.pglite));
    // after the database: a file the dump names is on disk by now (one uploaded meanwhile is kept too, harmlessly)
    const files = await listStoredFiles(storeOf(target.dataDir));
    const manifest: Manifest = {
      format: FORMAT,
      product: 'medu-admin',
      version: productVersion(),
      createdAt: new Date().toISOString(),
      ...database,
      files: { count: files.length, bytes: files.reduce((sum, f) => sum + f.size, 0) },
    };
    await writeArchive(file, staging, manifest, storeOf(target.dataDir), files);
    return manifest;
  });
  return { manifest, bytes: (await stat(file)).size, ms: Math.round(performance.now() - started) };
}

type DatabasePart = Pick<Manifest, 'engine' | 'migration' | 'server' | 'pgDump' | 'tables' | 'key'>;

const keyOf = (fingerprint: string): Manifest['key'] => ({ variable: 'ID_NUMBER_KEY', fingerprint });

/**
 * pg_dump in its custom format, without owners, reading the snapshot of a transaction that counts the rows meanwhile:
 * the manifest's counts are the dump's.
 */
async function dumpPostgres(url: string, out: string, idNumberKey: Buffer | undefined): Promise<DatabasePart> {
  if (!idNumberKey) throw new Error('ID_NUMBER_KEY is required with DATABASE_URL');
  const { db, close } = await openDatabase({ kind: 'postgres', url });
  try {
    const plain = db;
    if (!(await mayBypassRowSecurity(plain))) throw needsBypass(url);
    const server = await serverVersion(plain);
    const { bin, version } = await pgTool('pg_dump', server);
    return await plain
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (tx) => {
        const snapshot = await exportSnapshot(tx);
        const { dbname, env } = connectionOf(url);
        await runPgTool(
          bin,
          ['--format=custom', '--no-owner', `--snapshot=${snapshot}`, `--file=${out}`, `--dbname=${dbname}`],
          env,
        );
        return {
          engine: 'postgres' as const,
          migration: (await migrationLevel(tx)) ?? '',
          server,
          pgDump: version,
          tables: await rowCounts(tx, await tableNames(tx)),
          key: keyOf(keyFingerprint(idNumberKey)),
        };
      });
  } finally {
    await close();
  }
}

/** The running server's snapshot, asked for on its socket; else, no server running, the database opened here. */
async function dumpPglite(target: BackupTarget, out: string): Promise<DatabasePart> {
  let snapshot: Snapshot | undefined = await requestSnapshot(target.dataDir);
  if (!snapshot) {
    if (!existsSync(pgdataOf(target.dataDir))) throw new Error(`there is no database in ${target.dataDir}`);
    if (!target.idNumberKey) throw new Error(`there is no ID_NUMBER_KEY for the database in ${target.dataDir}`);
    const { db, dumpDataDir, close } = await openDatabase({ kind: 'pglite', dataDir: target.dataDir });
    try {
      snapshot = await snapshotOf(db, dumpDataDir as () => Promise<Blob>, target.idNumberKey);
    } finally {
      await close();
    }
  }
  await writeFile(out, snapshot.dump);
  return {
    engine: 'pglite',
    migration: snapshot.migration,
    server: snapshot.server,
    tables: snapshot.tables,
    key: keyOf(snapshot.fingerprint),
  };
}

/**
 * `npm run restore -- <file>`: into an empty database and a stopped embedded one only. Refused before anything is
 * written when the archive is of the other engine, of a migration this code does not know, or of another key.
 */
export async function restore(target: BackupTarget, file: string): Promise<BackupReport> {
  const started = performance.now();
  const manifest = await withStaging(async (staging) => {
    const manifest = await readArchive(file, staging);
    checkRestorable(manifest, target);
    const dump = path.join(staging, DATABASE_ENTRY[manifest.engine]);
    const tables = target.postgresUrl
      ? await restorePostgres(target.postgresUrl, dump)
      : await restorePglite(target.dataDir, dump);
    const differ = Object.entries(manifest.tables).filter(([table, rows]) => tables[table] !== rows);
    if (differ.length)
      throw new Error(
        `the restored database differs from the backup's manifest: ${differ.map(([t, n]) => `${t} ${tables[t] ?? 'missing'} rows, not ${n}`).join('; ')}`,
      );
    await extractFiles(file, storeOf(target.dataDir));
    return manifest;
  });
  return { manifest, bytes: (await stat(file)).size, ms: Math.round(performance.now() - started) };
}

function checkRestorable(manifest: Manifest, target: BackupTarget): void {
  const engine = target.postgresUrl ? 'postgres' : 'pglite';
  if (manifest.engine !== engine)
    throw new Error(
      `this is a backup of ${manifest.engine === 'postgres' ? 'PostgreSQL' : 'the embedded database'}: restore it with ${manifest.engine === 'postgres' ? 'DATABASE_URL set' : 'DATABASE_URL unset'}`,
    );
  const known = migrationNames().at(-1) ?? '';
  if (manifest.migration > known)
    throw new Error(
      `this backup is at migration ${manifest.migration}, newer than this release knows (${known}): restore it with the release that made it (${manifest.version}) or a later one`,
    );
  const wanted = manifest.key.fingerprint;
  if (!target.idNumberKey)
    throw new Error(
      `this backup needs its ID_NUMBER_KEY (fingerprint ${wanted}): set ID_NUMBER_KEY to the key the backed-up server ran with`,
    );
  const given = keyFingerprint(target.idNumberKey);
  if (given !== wanted)
    throw new Error(
      `ID_NUMBER_KEY here has fingerprint ${given}, but this backup was made under the key with fingerprint ${wanted}: set ID_NUMBER_KEY to that key`,
    );
}

async function restorePostgres(url: string, dump: string): Promise<Record<string, number>> {
  const { db, close } = await openDatabase({ kind: 'postgres', url });
  try {
    const plain = db;
    if (!(await mayBypassRowSecurity(plain))) throw needsBypass(url);
    if (!(await isEmptyDatabase(plain)))
      throw new Error('the database of DATABASE_URL has tables: restore into an empty database (createdb a new one)');
    const { bin } = await pgTool('pg_restore', await serverVersion(plain));
    await ensureRoles(plain, [APP_ROLE, SYSTEM_ROLE]);
    const { dbname, env } = connectionOf(url);
    await runPgTool(bin, ['--no-owner', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, dump], env);
    return await rowCounts(plain, await tableNames(plain));
  } finally {
    await close();
  }
}

async function restorePglite(dataDir: string, dump: string): Promise<Record<string, number>> {
  if (await isServing(dataDir)) throw new Error(`a server is running on ${dataDir}: stop it before restoring`);
  const pgdata = pgdataOf(dataDir);
  if (existsSync(pgdata) && (await readdir(pgdata)).length)
    throw new Error(`${pgdata} holds a database: move it away before restoring`);
  const from = new Blob([await readFile(dump)], { type: 'application/x-gzip' });
  const { db, close } = await openDatabase({ kind: 'pglite', dataDir, from });
  try {
    const plain = db;
    return await rowCounts(plain, await tableNames(plain));
  } finally {
    await close();
  }
}
