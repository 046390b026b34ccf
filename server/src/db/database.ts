import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect';
import type { DB } from './types';

export type DatabaseOptions =
  | { kind: 'memory' }
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'postgres'; url: string };

export type Engine = 'pglite' | 'postgres';

export interface OpenDatabase {
  db: Kysely<DB>;
  engine: Engine;
  close(): Promise<void>;
}

/**
 * bigint columns are read as strings on both engines (pg already does; PGlite is told to). bytea (an import job's
 * file) goes through Buffer's hex codec: PGlite's own makes a string per byte, hundreds of MB for a spreadsheet.
 */
const pgliteParsers = {
  [types.INT8]: (value: string) => value,
  [types.BYTEA]: (hex: string) => {
    const bytes = Buffer.from(hex.slice(2), 'hex');
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  },
};
const pgliteSerializers = {
  [types.BYTEA]: (bytes: Uint8Array) =>
    `\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`,
};

/** How often a statement runs before it is prepared, and how many statements are prepared at most. */
const PREPARE_AFTER = 3;
const MAX_PREPARED = 200;
const MAX_COUNTED = 10_000;

/**
 * A statement with parameters that has run a few times is prepared (named): each connection then parses and plans it
 * once, not at every execution, which is most of what a short read costs PostgreSQL. At most MAX_PREPARED statements
 * per process (the first to become frequent: the request paths), so that what each connection keeps stays small.
 * A statement without parameters goes as a simple query, as node-postgres sends it.
 */
function statementNames() {
  const names = new Map<string, string>();
  const counts = new Map<string, number>();
  return (text: string): string | undefined => {
    const name = names.get(text);
    if (name || names.size >= MAX_PREPARED) return name;
    const count = (counts.get(text) ?? 0) + 1;
    if (count < PREPARE_AFTER) {
      if (counts.size >= MAX_COUNTED) counts.clear();
      counts.set(text, count);
      return undefined;
    }
    counts.delete(text);
    const assigned = `medu_${names.size + 1}`;
    names.set(text, assigned);
    return assigned;
  };
}

/** The pool as Kysely's PostgreSQL driver takes it, with its statements prepared as above. */
function preparingPool(pool: pg.Pool): PostgresPool {
  const nameOf = statementNames();
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (!wrapped) {
        const query = (text: string, values: readonly unknown[]) =>
          values.length ? client.query({ text, values: [...values], name: nameOf(text) }) : client.query(text);
        // Kysely's other overload takes a cursor, which this application does not configure (it never streams).
        wrapped = { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
        clients.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}

/**
 * `onIdleError`: an idle pooled connection the server ended (a restart, an administrator's termination). The pool
 * drops that connection and opens a new one for the next query; without a listener the error would end the process.
 */
export async function openDatabase(
  options: DatabaseOptions,
  onIdleError: (error: Error) => void = () => {},
): Promise<OpenDatabase> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    pool.on('error', onIdleError);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
    return { db, engine: 'postgres', close: () => db.destroy() };
  }
  const dataDir = options.kind === 'pglite' ? path.resolve(options.dataDir, 'pgdata') : undefined;
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const client = await PGlite.create({
    dataDir,
    extensions: { pg_trgm },
    parsers: pgliteParsers,
    serializers: pgliteSerializers,
  });
  const db = new Kysely<DB>({ dialect: new PGliteDialect(client) });
  return { db, engine: 'pglite', close: () => db.destroy() };
}
