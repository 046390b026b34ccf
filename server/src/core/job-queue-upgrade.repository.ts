import type pg from 'pg';

/**
 * pg-boss 11 rewrote its schema and migrates none older than its own first (version 25); pg-boss 10 left version 24.
 * A database of a release on pg-boss 10 has its schema moved aside (`pgboss_v10`), pg-boss installs its own in
 * `pgboss`, and the jobs still waiting in the old one are queued again in the new one (core/jobs.ts).
 */
const SCHEMA = 'pgboss';
const SET_ASIDE = 'pgboss_v10';
const LAST_V10_VERSION = 24;
/** Held for each step's transaction: two processes never move the schema or its jobs at once. */
const LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('medu.pgboss-v10', 0))";

/** A job pg-boss 10 had not finished: queued, delayed, to be retried, or taken by a process that stopped. */
export interface WaitingV10Job {
  id: string;
  name: string;
  data: object | null;
  priority: number;
  startAfter: Date;
  singletonKey: string | null;
}

async function inTransaction<T>(client: pg.ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    await client.query(LOCK);
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
}

/** Renames pg-boss 10's schema `pgboss_v10`; false when `pgboss` holds none (a new database, or pg-boss 11 on). */
export function setAsideV10Schema(client: pg.ClientBase): Promise<boolean> {
  return inTransaction(client, async () => {
    const { rows } = await client.query<{ installed: boolean }>(
      `SELECT to_regclass('${SCHEMA}.version') IS NOT NULL AS installed`,
    );
    if (!rows[0]?.installed) return false;
    const version = await client.query<{ version: number }>(`SELECT version FROM ${SCHEMA}.version`);
    if (Number(version.rows[0]?.version) > LAST_V10_VERSION) return false;
    const aside = await client.query<{ found: boolean }>(`SELECT to_regnamespace('${SET_ASIDE}') IS NOT NULL AS found`);
    if (aside.rows[0]?.found)
      throw new Error(`schemas ${SCHEMA} and ${SET_ASIDE} both hold pg-boss 10's jobs: keep one, drop the other`);
    await client.query(`ALTER SCHEMA ${SCHEMA} RENAME TO ${SET_ASIDE}`);
    return true;
  });
}

/**
 * Hands the jobs waiting in `pgboss_v10` to `take`, then drops that schema, in one transaction: a process that stops
 * half-way leaves the schema to the next one (pg-boss skips a job id it already holds). Undefined when there is none.
 */
export function takeV10Jobs<T>(
  client: pg.ClientBase,
  take: (jobs: WaitingV10Job[]) => Promise<T>,
): Promise<T | undefined> {
  return inTransaction(client, async () => {
    const { rows } = await client.query<{ found: boolean }>(
      `SELECT to_regnamespace('${SET_ASIDE}') IS NOT NULL AS found`,
    );
    if (!rows[0]?.found) return undefined;
    const jobs = await client.query<WaitingV10Job>(
      `SELECT id, name, data, priority, start_after AS "startAfter", singleton_key AS "singletonKey"
         FROM ${SET_ASIDE}.job WHERE state IN ('created', 'retry', 'active') ORDER BY created_on, id`,
    );
    const taken = await take(jobs.rows);
    await client.query(`DROP SCHEMA ${SET_ASIDE} CASCADE`);
    return taken;
  });
}
