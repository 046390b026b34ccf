import type { Kysely } from 'kysely';
import type { Jobs } from '../../core/jobs';
import { migrationNames } from '../../db/migrator';
import type { DB } from '../../db/types';
import { latestMigration } from './health.repository';

/** What keeps the server from taking traffic, in the order checked (`/api/ready`). */
export const READY_CHECKS = ['shutdown', 'database', 'migrations', 'jobs'] as const;
export type ReadyCheck = (typeof READY_CHECKS)[number];

/**
 * Readiness, apart from liveness (`/api/health`): the server takes traffic once the database answers, every migration
 * this version knows is applied and the job queues are worked, and stops taking it when it is told to shut down (a
 * balancer sees 503 and sends the next requests elsewhere while the ones in flight finish).
 */
export function createReadiness({ db, jobs }: { db: Kysely<DB>; jobs: Jobs }) {
  let stopping = false;
  const latest = migrationNames().at(-1) ?? null;
  return {
    /** From now on the server answers 503 to the probe: SIGTERM, or closing it. */
    stop() {
      stopping = true;
    },
    get stopping() {
      return stopping;
    },
    /** The first check that fails, or undefined when the server is ready. */
    async failing(): Promise<ReadyCheck | undefined> {
      if (stopping) return 'shutdown';
      let applied: string | null;
      try {
        applied = await latestMigration(db);
      } catch {
        return 'database';
      }
      if (applied !== latest) return 'migrations';
      if (!jobs.running) return 'jobs';
      return undefined;
    },
  };
}

export type Readiness = ReturnType<typeof createReadiness>;
