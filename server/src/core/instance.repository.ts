import { sql } from 'kysely';
import type { Tx } from './tenancy';

/** The SQL of server instances (migration 0055), read and written as the system: no tenant owns them. */

/**
 * The oldest heartbeat of a live instance, on the database's clock: every instance compares with the same clock, however
 * far apart the machines' clocks drift.
 */
export const liveSince = (staleMs: number) => sql<Date>`now() - make_interval(secs => ${staleMs / 1000})`;

/** How long an instance's row is kept once it stopped or went silent: its jobs have been taken over long before. */
const FORGOTTEN_AFTER = sql<Date>`now() - interval '1 day'`;

export interface InstanceRecord {
  id: string;
  host: string;
  pid: number;
  dataDir: string;
}

/** Registers the instance, or refreshes its heartbeat: one statement, so a row removed meanwhile comes back. */
export async function beatInstance(tx: Tx, instance: InstanceRecord): Promise<void> {
  await tx
    .insertInto('server_instance')
    .values({ id: instance.id, host: instance.host.slice(0, 255), pid: instance.pid, data_dir: instance.dataDir })
    .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: sql`now()` }))
    .execute();
}

export async function markInstanceStopped(tx: Tx, id: string): Promise<void> {
  await tx.updateTable('server_instance').set({ stopped_at: sql`now()` }).where('id', '=', id).execute();
}

/** Forgets the instances that stopped or went silent a day ago. */
export async function forgetOldInstances(tx: Tx): Promise<void> {
  await tx
    .deleteFrom('server_instance')
    .where((eb) => eb(eb.fn.coalesce('stopped_at', 'heartbeat_at'), '<', FORGOTTEN_AFTER))
    .execute();
}

/** The instances live now: not stopped, their heartbeat younger than `staleMs`. */
export async function liveInstances(tx: Tx, staleMs: number) {
  return tx
    .selectFrom('server_instance')
    .select(['id', 'host', 'data_dir as dataDir'])
    .where('stopped_at', 'is', null)
    .where('heartbeat_at', '>', liveSince(staleMs))
    .orderBy('started_at')
    .execute();
}
