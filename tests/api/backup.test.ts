import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import type { QueryExecutorProvider } from 'kysely';
import pg from 'pg';
import * as tar from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import { isExcluded, listStoredFiles, type Manifest } from '../../server/src/db/backup/archive';
import { type BackupTarget, restore } from '../../server/src/db/backup/backup';
import { rowCounts, tableChecksum, tableNames } from '../../server/src/db/backup/backup.repository';
import { openDumpChannel, snapshotOf } from '../../server/src/db/backup/dump-channel';
import { type DatabaseOptions, openDatabase } from '../../server/src/db/database';
import { createServer } from '../../server/src/server';
import { engines, type Json, TEST_ID_NUMBER_KEY, testArgon2 } from './helpers';

/**
 * `npm run backup` and `npm run restore` as an operator runs them, in processes of their own: a database with the demo
 * content and uploaded files is backed up while its server runs, wiped, and restored; every table's rows and checksum
 * and every file's bytes come back. The archive holds no key and no environment file.
 */
const root = path.resolve(__dirname, '../..');
const KEY_HEX = TEST_ID_NUMBER_KEY.toString('hex');

function cli(command: 'backup' | 'restore', file: string, env: NodeJS.ProcessEnv) {
  return promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'server/src/db/backup/backup-cli.ts', command, file],
    { cwd: root, env, timeout: 60_000 },
  ).then(
    ({ stdout }) => ({ ok: true, out: stdout }),
    (err: { stderr?: string; stdout?: string }) => ({ ok: false, out: `${err.stderr ?? ''}${err.stdout ?? ''}` }),
  );
}

/** Rows of every table, and a checksum of each of the application's (pg-boss's own are counted only). */
async function contentsOf(db: QueryExecutorProvider) {
  const tables = await tableNames(db);
  const counts = await rowCounts(db, tables);
  const sums: Record<string, string> = {};
  for (const table of tables.filter((t) => t.startsWith('public.'))) sums[table] = await tableChecksum(db, table);
  return { counts, sums };
}

async function filesOf(dataDir: string) {
  const store = path.join(dataDir, 'files');
  const sums: Record<string, string> = {};
  for (const f of await listStoredFiles(store))
    sums[f.path] = createHash('sha256')
      .update(readFileSync(path.join(store, f.path)))
      .digest('hex');
  return sums;
}

/** An archive like `file` whose manifest says what `change` makes of it. */
async function tampered(file: string, change: (m: Manifest) => void): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'medu-tampered-'));
  await tar.extract({ file, cwd: dir });
  const manifestFile = path.join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  change(manifest);
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const out = path.join(dir, 'tampered.tar.gz');
  await tar.create({ gzip: true, file: out, cwd: dir }, ['manifest.json', 'database']);
  return out;
}

describe.each(engines())('backup and restore on $name', (engine) => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'medu-backup-test-'));
  const dataDir = path.join(work, 'data');
  const archive = path.join(work, 'backup.tar.gz');
  let drop = async () => {};
  afterAll(async () => {
    await drop();
    rmSync(work, { recursive: true, force: true });
  });

  it('backs up the demo content and files while the server runs, and restores them exactly', {
    timeout: 300_000,
  }, async () => {
    let database: DatabaseOptions = { kind: 'pglite', dataDir };
    if (engine.name === 'postgres') {
      const created = await engine.create();
      database = created.options;
      drop = created.drop;
    }
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ID_NUMBER_KEY: KEY_HEX, LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    delete env.DATABASE_DIRECT_URL;
    delete env.BACKUP_DATABASE_URL;
    if (database.kind === 'postgres') env.DATABASE_URL = database.url;

    const server = await createServer({
      database,
      demo: true,
      demoContent: true,
      logger: false,
      instance: false,
      config: { argon2: testArgon2, idNumberKey: TEST_ID_NUMBER_KEY, dataDir },
    });
    let before: Awaited<ReturnType<typeof contentsOf>>;
    let filesBefore: Record<string, string>;
    const { dumpDataDir } = server;
    const channel = dumpDataDir
      ? await openDumpChannel(dataDir, () => snapshotOf(server.db, dumpDataDir, TEST_ID_NUMBER_KEY))
      : undefined;
    try {
      const signIn = await server.app.fetch(
        new Request('http://test.local/api/auth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            grant_type: 'password',
            tenant: 'demo',
            username: 'admin',
            password: 'admin123',
            client_id: 'console',
          }),
        }),
      );
      const token = ((await signIn.json()) as Json).access_token;
      for (const [name, bytes] of [
        ['scan.pdf', Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')],
        ['notes.pdf', Buffer.from(`%PDF-1.4\n%${randomBytes(200_000).toString('base64')}\ntrailer <<>>\n%%EOF\n`)],
      ] as const) {
        const res = await server.app.fetch(
          new Request(`http://test.local/api/file/file/upload?name=${name}&purpose=library`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
            body: bytes,
          }),
        );
        expect(res.status, await res.clone().text()).toBe(201);
      }
      // what must never travel: keys, environment files, this machine's instance markers
      const store = path.join(dataDir, 'files');
      for (const dir of ['.instances', 't1']) mkdirSync(path.join(store, dir), { recursive: true });
      for (const planted of ['.env', '.env.local', 'id-number.key', 't1/stray.key', 'tls.pem', '.instances/abc'])
        writeFileSync(path.join(store, planted), `ID_NUMBER_KEY=${KEY_HEX}\n`);
      writeFileSync(path.join(dataDir, '.env'), `ID_NUMBER_KEY=${KEY_HEX}\n`);

      const started = performance.now();
      const made = await cli('backup', archive, env);
      expect(made.out).toContain('backed up to');
      console.log(
        `${engine.name}: ${made.out.trim()} (${Math.round(performance.now() - started)} ms with the CLI's start)`,
      );
      before = await contentsOf(server.db);
      filesBefore = await filesOf(dataDir);
    } finally {
      await channel?.close();
      await server.close();
    }
    expect(Object.keys(filesBefore)).toHaveLength(2);
    expect(before.counts['public.question']).toBeGreaterThan(20);

    // the archive: a manifest, the database, the two files; no key, no environment file
    const entries: string[] = [];
    await tar.list({ file: archive, onReadEntry: (e) => entries.push(e.path) });
    expect(entries[0]).toBe('manifest.json');
    expect(entries.filter((e) => e.startsWith('files/') && isExcluded(e.slice(6)))).toEqual([]);
    expect(entries.filter((e) => e.startsWith('files/'))).toHaveLength(2);
    const raw = gunzipSync(readFileSync(archive));
    expect(raw.includes(KEY_HEX)).toBe(false);
    if (engine.name === 'pglite') {
      const inner = path.join(work, 'inner');
      mkdirSync(inner);
      await tar.extract({ file: archive, cwd: inner, filter: (p) => p.startsWith('database/') });
      expect(gunzipSync(readFileSync(path.join(inner, 'database/pgdata.tar.gz'))).includes(KEY_HEX)).toBe(false);
    }
    const manifest: Manifest = JSON.parse(
      (
        await new Promise<Buffer>((resolve) => {
          const chunks: Buffer[] = [];
          tar.list({
            file: archive,
            filter: (p) => p === 'manifest.json',
            onReadEntry: (e) => {
              e.on('data', (c: Buffer) => chunks.push(c));
              e.on('end', () => resolve(Buffer.concat(chunks)));
            },
          });
        })
      ).toString('utf8'),
    );
    expect(manifest).toMatchObject({ engine: engine.name, files: { count: 2 }, key: { variable: 'ID_NUMBER_KEY' } });
    expect(manifest.migration).toMatch(/^\d{4}_/);
    expect(manifest.tables).toEqual(before.counts);

    // wiped
    rmSync(dataDir, { recursive: true, force: true });
    if (database.kind === 'postgres') {
      const name = new URL(database.url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
    }

    // refused before anything is written: another key, no key, a backup from a newer release
    const target: BackupTarget = {
      dataDir,
      postgresUrl: database.kind === 'postgres' ? database.url : undefined,
      idNumberKey: TEST_ID_NUMBER_KEY,
    };
    await expect(restore({ ...target, idNumberKey: Buffer.alloc(32, 1) }, archive)).rejects.toThrow(
      `backup was made under the key with fingerprint ${manifest.key.fingerprint}: set ID_NUMBER_KEY to that key`,
    );
    await expect(restore({ ...target, idNumberKey: undefined }, archive)).rejects.toThrow(
      `this backup needs its ID_NUMBER_KEY (fingerprint ${manifest.key.fingerprint})`,
    );
    const future = await tampered(archive, (m) => {
      m.migration = '9999_from_the_future';
    });
    await expect(restore(target, future)).rejects.toThrow(
      'migration 9999_from_the_future, newer than this release knows',
    );

    const restored = await cli('restore', archive, env);
    expect(restored.out).toContain('restored from');
    console.log(`${engine.name}: ${restored.out.trim()}`);
    const reopened = await openDatabase(database);
    const after = await contentsOf(reopened.db).finally(() => reopened.close());
    expect(after.counts).toEqual(before.counts);
    expect(after.sums).toEqual(before.sums);
    expect(await filesOf(dataDir)).toEqual(filesBefore);

    // a second restore onto the restored database is refused: it is not empty
    await expect(restore(target, archive)).rejects.toThrow(/holds a database|has tables/);
  });
});
