/**
 * Backups and restores (issue 33), as `npm run backup` and `npm run restore` take them: the demo tenant's database with
 * its demo content, then the same with TRAINEES generated trainees; each archive's size and the time to take it while
 * the server runs, and the time to restore it into an empty database and data folder.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type BackupReport, type BackupTarget, backup, restore } from '../../server/src/db/backup/backup';
import { openDumpChannel, snapshotOf } from '../../server/src/db/backup/dump-channel';
import type { DatabaseOptions } from '../../server/src/db/database';
import { BENCH_KEY, withBenchApi } from './bench-api';
import { generateTrainees } from './trainees';

const TRAINEES = Number(process.env.BENCH_BACKUP_TRAINEES ?? 100_000);

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const rows = (report: BackupReport) =>
  Object.values(report.manifest.tables)
    .reduce((sum, n) => sum + n, 0)
    .toLocaleString('en');

/** A second database on the server of `url`, empty, for a restore; dropped after `run`. */
async function withEmptyPostgres(url: string, run: (emptyUrl: string) => Promise<void>) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const name = `${new URL(url).pathname.slice(1)}_restore`;
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const empty = new URL(url);
    empty.pathname = `/${name}`;
    await run(empty.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

export async function benchBackups(label: string, database: DatabaseOptions) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'medu-bench-backup-'));
  const dataDir = database.kind === 'pglite' ? database.dataDir : path.join(work, 'data');
  const target: BackupTarget = {
    dataDir,
    idNumberKey: BENCH_KEY,
    ...(database.kind === 'postgres' ? { postgresUrl: database.url } : {}),
  };
  try {
    await withBenchApi(
      database,
      async ({ server, call }) => {
        // the embedded database is dumped by the server that holds it, asked on its socket as the CLI asks
        const channel = server.dumpDataDir
          ? await openDumpChannel(dataDir, () =>
              snapshotOf(server.db, server.dumpDataDir as () => Promise<Blob>, BENCH_KEY),
            )
          : undefined;
        try {
          const taken = async (name: string) => {
            const file = path.join(work, `${name}.tar.gz`);
            const report = await backup(target, file);
            console.log(
              `  ${label}: backup of ${name} (${rows(report)} rows): ${megabytes(report.bytes)} in ${seconds(report.ms)}`,
            );
            return file;
          };
          await taken('the demo tenant');
          await generateTrainees({ server, call }, TRAINEES);
          const file = await taken(`${TRAINEES.toLocaleString('en')} trainees`);
          const restoreInto = async (into: BackupTarget) => {
            const report = await restore(into, file);
            console.log(`  ${label}: restore of ${TRAINEES.toLocaleString('en')} trainees: ${seconds(report.ms)}`);
          };
          if (database.kind === 'postgres')
            await withEmptyPostgres(database.url, (url) =>
              restoreInto({ dataDir: path.join(work, 'restored'), postgresUrl: url, idNumberKey: BENCH_KEY }),
            );
          else await restoreInto({ dataDir: path.join(work, 'restored'), idNumberKey: BENCH_KEY });
        } finally {
          await channel?.close();
        }
      },
      { demoContent: true, dataDir },
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
