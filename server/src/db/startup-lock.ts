import pg from 'pg';
import type { Logger } from 'pino';
import { type DatabaseOptions, listenForErrors } from './database';

/**
 * The lock every instance of a deployment holds while it prepares the database: migrations, pg-boss's schema, queues
 * and schedules, the base (and demo) seeds. Instances started together would otherwise do that work at the same
 * moment: pg-boss's queue creation deadlocks, and a seed that looked for its rows before another inserted them
 * inserts them twice or fails on a unique key. With the lock the first does the work and the others find it done.
 *
 * A session-level advisory lock, on a connection of its own to `directUrl` (else `url`): through a pooler in
 * transaction mode a session lock would be taken on one server connection and released on another, or never. The
 * lock ends with its connection, so an instance that dies while holding it lets the next one go on. The embedded
 * database belongs to one process and needs none.
 */
export interface StartupLock {
  release(): Promise<void>;
}

/** One key for the whole database, named rather than numbered. */
const KEY = `hashtextextended('medu.start-up', 0)`;

export async function holdStartupLock(database: DatabaseOptions, logger?: Logger): Promise<StartupLock> {
  if (database.kind !== 'postgres') return { release: async () => {} };
  const client = new pg.Client({
    connectionString: database.directUrl ?? database.url,
    application_name: 'medu-start-up',
  });
  // the lock's connection ended by the server (a restart) costs the lock, which start-up can do without: each of its
  // steps is a transaction of its own, and the worst is two instances preparing at once, as without it
  listenForErrors(client, (err) => logger?.warn({ err }, 'the start-up lock was lost with its connection'));
  await client.connect();
  try {
    const { rows } = await client.query<{ held: boolean }>(`SELECT pg_try_advisory_lock(${KEY}) AS held`);
    if (!rows[0]?.held) {
      logger?.info('another instance is preparing the database: waiting for it');
      await client.query(`SELECT pg_advisory_lock(${KEY})`);
    }
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      // the session's end releases its lock, and the next instance waiting takes it
      await client.end().catch(() => {});
    },
  };
}
