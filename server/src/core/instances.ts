import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { beatInstance, forgetOldInstances, liveInstances, markInstanceStopped } from './instance.repository';
import type { Tenancy } from './tenancy';

/** How often a live instance says so. */
export const HEARTBEAT_MS = 5_000;
/**
 * How old a heartbeat may be before its instance counts as gone (killed, frozen, cut off from the database): its
 * import jobs are then taken over by another instance. Six heartbeats: a busy event loop or a database blink of a few
 * seconds never makes a live instance look gone.
 */
export const INSTANCE_STALE_MS = 30_000;

export interface InstanceTiming {
  heartbeatMs: number;
  staleMs: number;
}

/**
 * This server process as the other instances on the database see it (issue 31): a row written at start, its heartbeat
 * refreshed on a timer, marked stopped on a clean shutdown. A process that only runs a command (create-admin) never
 * registers. After each heartbeat `onBeat` runs (the look for jobs whose owner went stale), never two at once.
 *
 * The instance also leaves a marker file under its local file store (`<DATA_DIR>/files/.instances/<id>`): another
 * instance whose marker it can see writes its files to the same directory (one shared volume); one it cannot see
 * keeps its files apart, and a file uploaded through one is then missing through the other.
 */
export function createInstances(deps: { tenancy: Tenancy; dataDir: string; logger?: Logger }) {
  const { tenancy, logger } = deps;
  const markers = path.resolve(deps.dataDir, 'files', '.instances');
  const record = { id: randomUUID(), host: os.hostname(), pid: process.pid, dataDir: path.resolve(deps.dataDir) };
  let timing: InstanceTiming = { heartbeatMs: HEARTBEAT_MS, staleMs: INSTANCE_STALE_MS };
  let timer: NodeJS.Timeout | undefined;
  let beating: Promise<void> | undefined;
  let usesLocalDisk: () => Promise<boolean> = async () => true;
  let localDiskNotShared = false;

  const beat = async (onBeat?: () => Promise<unknown>) => {
    try {
      await tenancy.asSystem((tx) => beatInstance(tx, record));
      await assess();
      await onBeat?.();
    } catch (err) {
      // the database may be away for a moment: the next heartbeat tries again
      logger?.warn({ err }, 'the instance heartbeat failed');
    }
  };

  /**
   * How many instances are live, and whether they all keep local files in this instance's directory (each one's marker
   * is found here).
   */
  const sharing = async (): Promise<{ live: number; shared: boolean }> => {
    const live = await tenancy.asSystem((tx) => liveInstances(tx, timing.staleMs));
    const shared = live.every((i) => i.id === record.id || existsSync(path.join(markers, i.id)));
    return { live: live.length, shared };
  };

  /** Works out the health warning once per heartbeat, so that a liveness probe reads it and queries nothing. */
  const assess = async () => {
    const apart = await sharing();
    localDiskNotShared = !apart.shared && (await usesLocalDisk());
    return apart;
  };

  return {
    sharing,
    /** This process's id: the owner named by the import jobs it runs. */
    id: record.id,
    /** The age past which a heartbeat is stale (INSTANCE_STALE_MS unless a test asked for less). */
    get staleMs() {
      return timing.staleMs;
    },
    /**
     * Whether some tenant's files go to a local disk that the live instances do not share, as of the last heartbeat
     * (false for a process that never registered).
     */
    get localDiskNotShared() {
      return localDiskNotShared;
    },

    /**
     * Writes the instance's row and marker and starts the heartbeat; the timer never keeps the process alive.
     * `usesLocalDisk` says whether some tenant stores files on the local disk (the warning's other half).
     */
    async register(
      options: Partial<InstanceTiming> & {
        onBeat?: () => Promise<unknown>;
        usesLocalDisk?: () => Promise<boolean>;
      } = {},
    ): Promise<void> {
      const { onBeat, usesLocalDisk: uses, ...given } = options;
      timing = { ...timing, ...given };
      if (uses) usesLocalDisk = uses;
      await tenancy.asSystem(async (tx) => {
        await forgetOldInstances(tx);
        await beatInstance(tx, record);
      });
      try {
        mkdirSync(markers, { recursive: true });
        writeFileSync(path.join(markers, record.id), `${record.host} ${record.pid}\n`);
      } catch (err) {
        logger?.warn({ err }, 'the instance marker could not be written in DATA_DIR/files');
      }
      timer = setInterval(() => {
        beating ??= beat(onBeat).finally(() => {
          beating = undefined;
        });
      }, timing.heartbeatMs);
      timer.unref();
      const apart = await assess();
      if (!apart.shared)
        logger?.warn(
          { instances: apart.live },
          'several live instances keep local files in different directories: use S3 or one shared volume',
        );
    },

    /** Stops the heartbeat and says the instance stopped (a clean shutdown: its jobs are handed back first). */
    async stop(): Promise<void> {
      if (!timer) return;
      clearInterval(timer);
      timer = undefined;
      await beating;
      // a disk gone unusable (its marker never written) does not keep the instance from saying it stopped
      try {
        rmSync(path.join(markers, record.id), { force: true });
      } catch (err) {
        logger?.warn({ err }, 'the instance marker could not be removed');
      }
      // without the database the row's heartbeat simply goes stale: the others find out a little later
      await tenancy
        .asSystem((tx) => markInstanceStopped(tx, record.id))
        .catch((err: unknown) => logger?.warn({ err }, 'the instance could not be marked stopped'));
    },
  };
}

export type Instances = ReturnType<typeof createInstances>;
