import { chmod, rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { keyFingerprint } from './archive';
import { checkpoint, migrationLevel, rowCounts, serverVersion, tableNames } from './backup.repository';

/**
 * The embedded database belongs to the process that opened it: another process opening its data folder meanwhile
 * would corrupt it, and a copy of the folder taken from outside may catch a page half written. So a running server
 * answers for its database on a socket of its own, `DATA_DIR/backup.sock` (a Unix socket, readable and writable by its
 * owner only: whoever may read DATA_DIR may take a backup, no one else, and nothing of it is on the network), and
 * `npm run backup` asks it there. The server takes the dump between two transactions: it holds the database's one
 * connection (no transaction is open), writes every dirty page out (CHECKPOINT), counts the rows and has PGlite dump
 * its data folder, all before the next transaction starts.
 */

export const SOCKET = 'backup.sock';
export const socketOf = (dataDir: string) => path.resolve(dataDir, SOCKET);

export interface Snapshot {
  migration: string;
  server: string;
  tables: Record<string, number>;
  fingerprint: string;
  /** The data folder as PGlite dumps it: a gzipped tar. */
  dump: Uint8Array;
}

/** Takes a consistent snapshot of an embedded database, in the process that holds it. */
export async function snapshotOf<T>(
  db: Kysely<T>,
  dumpDataDir: () => Promise<Blob>,
  idNumberKey: Buffer,
): Promise<Snapshot> {
  return db.connection().execute(async (connection) => {
    await checkpoint(connection);
    const migration = (await migrationLevel(connection)) ?? '';
    const tables = await rowCounts(connection, await tableNames(connection));
    const server = await serverVersion(connection);
    const dump = new Uint8Array(await (await dumpDataDir()).arrayBuffer());
    return { migration, server, tables, fingerprint: keyFingerprint(idNumberKey), dump };
  });
}

const HEADER = 'x-medu-snapshot';

/** Serves `GET /snapshot` on the data folder's socket; `close` stops and removes it. */
export async function openDumpChannel(
  dataDir: string,
  snapshot: () => Promise<Snapshot>,
  onError: (err: unknown) => void = () => {},
): Promise<{ close(): Promise<void> }> {
  const socket = socketOf(dataDir);
  // a socket left by a process that died (two servers on one data folder would be wrong already)
  await rm(socket, { force: true });
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/ping') {
      res.writeHead(204).end();
      return;
    }
    if (req.method !== 'GET' || req.url !== '/snapshot') {
      res.writeHead(404).end();
      return;
    }
    snapshot().then(
      ({ dump, ...rest }) => {
        res.writeHead(200, {
          'content-type': 'application/gzip',
          'content-length': dump.byteLength,
          [HEADER]: Buffer.from(JSON.stringify(rest)).toString('base64'),
        });
        res.end(dump);
      },
      (err: unknown) => {
        onError(err);
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String((err as Error)?.message ?? err));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  await chmod(socket, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Asks the server running on `dataDir` for a snapshot. `undefined` when none answers (no socket, or one left by a
 * process that died): the database is then the caller's to open.
 */
export function requestSnapshot(dataDir: string): Promise<Snapshot | undefined> {
  return new Promise((resolve, reject) => {
    const req = http.get({ socketPath: socketOf(dataDir), path: '/snapshot' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if (res.statusCode !== 200) {
          reject(new Error(`the running server could not take the snapshot: ${body.toString('utf8')}`));
          return;
        }
        const rest = JSON.parse(Buffer.from(String(res.headers[HEADER]), 'base64').toString('utf8'));
        resolve({ ...rest, dump: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) });
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') resolve(undefined);
      else reject(err);
    });
  });
}

/** Whether a server answers on the data folder's socket. */
export function isServing(dataDir: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ socketPath: socketOf(dataDir), path: '/ping' }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
  });
}
