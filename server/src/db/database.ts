import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { PoolUse } from '../core/metrics';
import { PGliteDialect } from './pglite-dialect';
import type { DB } from './types';

export type DatabaseOptions =
  /**
   * `from`: a dump of a data directory (PGlite's `dumpDataDir`) that a new database starts as (a restore, db/backup;
   * the test suite's copies of a migrated database).
   */
  | { kind: 'memory'; from?: Blob }
  | { kind: 'pglite'; dataDir: string; from?: Blob }
  /** `directUrl`: the same database past any pooler in transaction mode (config.ts, DATABASE_DIRECT_URL); else `url`. */
  | { kind: 'postgres'; url: string; directUrl?: string };

export type Engine = 'pglite' | 'postgres';

export interface OpenDatabase {
  db: Kysely<DB>;
  engine: Engine;
  /**
   * The embedded database's own dump of its data folder, a gzipped tar (PGlite's `dumpDataDir`); PostgreSQL has none
   * (pg_dump reads it from outside). Taken as it stands: the caller keeps transactions out meanwhile (db/backup).
   */
  dumpDataDir?: () => Promise<Blob>;
  /** The pool's connections now (the metrics): pg's pool; PGlite's one connection, lent to one transaction at a time. */
  poolUse(): PoolUse;
  close(): Promise<void>;
}

/**
 * bigint columns are read as strings on both engines (pg already does; PGlite is told to), and so are dates. bytea (an import job's
 * file) goes through Buffer's hex codec: PGlite's own makes a string per byte, hundreds of MB for a spreadsheet.
 */
const pgliteParsers = {
  [types.INT8]: (value: string) => value,
  [types.DATE]: (value: string) => value,
  [types.BYTEA]: (hex: string) => {
    const bytes = Buffer.from(hex.slice(2), 'hex');
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  },
};
/** A calendar date stays the text `2026-09-01` (as a Date it would be midnight in the server's zone). */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.DATE
      ? (value: string) => value
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};
const json = (value: unknown): string =>
  value instanceof Uint8Array
    ? (value as unknown as string)
    : typeof value === 'string'
      ? value
      : JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v));
const pgliteSerializers = {
  [types.BYTEA]: (bytes: Uint8Array) =>
    `\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`,
  /**
   * A JSON document already encoded (jsonbParameter) goes as it is, in binary form (PGlite's binder sends bytes as they
   * are, though its types say a serializer answers a string); anything else as PGlite's own serializer does.
   */
  [types.JSON]: json,
  [types.JSONB]: json,
};

/**
 * A large JSON parameter (a batch's rows for jsonb_populate_recordset) as a jsonb value's binary form, on both engines:
 * its format's version (1), then its text in UTF-8. The server parses it once into jsonb, where a json parameter would
 * be parsed once as a whole and again for each jsonb field of each row. Encoded at once from the string just made, the
 * text dies young; the bytes live outside the JavaScript heap until the statement is done. Passed as a string, the text
 * would live through the statement's round trips and be flattened into a second copy by the driver, both ending in the
 * old generation (an import sends a thousand of them).
 */
export const jsonbParameter = (text: string): Uint8Array => {
  const bytes = Buffer.allocUnsafe(Buffer.byteLength(text, 'utf8') + 1);
  bytes[0] = 1;
  bytes.write(text, 1, 'utf8');
  return bytes;
};

/**
 * `onConnectionError`: the server ended a connection (a restart, a fail-over, an administrator's termination). pg says
 * so by an 'error' event on the client, idle in the pool or checked out by a transaction between two of its
 * statements, and an 'error' event nobody listens to ends the process. So every client listens for its whole life:
 * the statement in flight fails (its request answers an error), the pool drops the client once it is released (pg-pool
 * drops a client that can no longer query) and opens a new one for the next query. A client says it once, though pg
 * may emit twice (the server's message, then the closed socket).
 */
export async function openDatabase(
  options: DatabaseOptions,
  onConnectionError: (error: Error) => void = () => {},
): Promise<OpenDatabase> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: 10, types: pgTypes });
    pool.on('connect', (client) => listenForErrors(client, onConnectionError));
    // an idle client's error, which the client's own listener has already said
    pool.on('error', () => {});
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      engine: 'postgres',
      poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => db.destroy(),
    };
  }
  const dataDir = options.kind === 'pglite' ? path.resolve(options.dataDir, 'pgdata') : undefined;
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const client = await PGlite.create({
    dataDir,
    loadDataDir: options.from,
    extensions: { pg_trgm },
    parsers: pgliteParsers,
    serializers: pgliteSerializers,
  });
  const dialect = new PGliteDialect(client);
  const db = new Kysely<DB>({ dialect });
  return {
    db,
    engine: 'pglite',
    dumpDataDir: () => client.dumpDataDir('gzip'),
    poolUse: () => dialect.use(),
    close: () => db.destroy(),
  };
}

/** Keeps a connection's 'error' events from ending the process: the first is handed to `onError`, the others dropped. */
export function listenForErrors(client: pg.ClientBase, onError: (error: Error) => void): void {
  let said = false;
  client.on('error', (error) => {
    if (said) return;
    said = true;
    onError(error);
  });
}

/**
 * Runs `work` on a database reached past any pooler in transaction mode: `db` itself, unless a direct URL is set apart
 * from the pooled one, when a pool of one connection to it is opened for the work and closed after. Migrations need
 * it: Kysely's migration lock is a session-level advisory lock taken and released by statements outside the
 * migrations' transaction, which through pgbouncer in transaction mode run on different server connections, so the
 * lock was never released and the next migration (an instance's restart, `npm run create-admin`) waited on it.
 */
export async function onDirectSession<T>(
  options: DatabaseOptions,
  db: Kysely<DB>,
  work: (db: Kysely<DB>) => Promise<T>,
): Promise<T> {
  if (options.kind !== 'postgres' || !options.directUrl || options.directUrl === options.url) return work(db);
  const pool = new pg.Pool({ connectionString: options.directUrl, max: 1, types: pgTypes });
  pool.on('connect', (client) => listenForErrors(client, () => {}));
  const direct = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  try {
    return await work(direct);
  } finally {
    await direct.destroy();
  }
}
