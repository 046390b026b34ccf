import { CronExpressionParser } from 'cron-parser';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { setAsideV10Schema, takeV10Jobs } from './job-queue-upgrade.repository';

/**
 * Background work (message batches and deliveries, the removal of orphaned files, scheduled publishing, expiry): named
 * queues, each with one handler, fed by `send` and by schedules. On PostgreSQL the queue is pg-boss, in the database
 * itself (schema `pgboss`): a job queued survives a restart and is worked by whichever instance is running. On the
 * embedded database it is the same interface in this process.
 *
 * The database stays the truth of the work: a job says "look at this" (a batch to expand, a tenant's messages that are
 * due), and its handler reads what is to be done. So a job is queued after the transaction that made its work commits,
 * and a job that finds nothing to do does nothing; a job lost with a stopped process (in process only) is found again
 * by the schedule that sweeps what is due.
 */
export interface Jobs {
  /** Declares a queue and its handler. Before `start`; a job that throws is tried again, up to `retryLimit` times. */
  define<T extends object>(name: string, handler: (data: T) => Promise<void>, options?: QueueOptions): void;
  /** Runs `name` (declared first) on a cron schedule (minutes). */
  schedule(name: string, cron: string): void;
  /** Queues a job; `startAfter` delays it. Starts the queue on first use. */
  send<T extends object>(name: string, data: T, options?: { startAfter?: Date; singletonKey?: string }): Promise<void>;
  /**
   * Makes what the queues need in the database (on PostgreSQL pg-boss's schema, the queues and their schedules) without
   * working them. The server does it at start-up, under the start-up lock (db/startup-lock.ts): instances making
   * pg-boss's queues at the same moment deadlock. `start` does it when not yet done.
   */
  prepare(): Promise<void>;
  /** Starts working the queues and their schedules (the server does at start; `send` does when not yet started). */
  start(): Promise<void>;
  /** Stops taking jobs and waits for those running. */
  stop(): Promise<void>;
  /** Started and not stopped: the queues are worked (the readiness probe, /api/ready). */
  readonly running: boolean;
  /** The jobs waiting in each declared queue (queued, delayed or to be retried), for the metrics. */
  depth(): Promise<Record<string, number>>;
}

export interface QueueOptions {
  /** How many times a failed job is tried again (default 2). */
  retryLimit?: number;
  /** Seconds before the first retry, doubled each time (default 5). */
  retryDelaySeconds?: number;
}

interface Queue {
  name: string;
  handler: (data: object) => Promise<void>;
  options: Required<QueueOptions>;
}

const defaults: Required<QueueOptions> = { retryLimit: 2, retryDelaySeconds: 5 };

export type JobsBackend = { kind: 'postgres'; url: string } | { kind: 'local' };

/**
 * `work: false` is a command-line tool's (server.ts, role `tool`): it works no job and runs no schedule. On PostgreSQL a
 * job it sends waits in the queue for a server; in process it is dropped, and the schedule that sweeps what is due
 * finds its work again in the server.
 */
export interface JobsOptions {
  work?: boolean;
  /** Told of each run of a job that failed (the metrics count them by queue). */
  onFailure?: (queue: string) => void;
}

export function createJobs(backend: JobsBackend, logger?: Logger, { work = true, onFailure }: JobsOptions = {}): Jobs {
  const failed = onFailure ?? (() => {});
  return backend.kind === 'postgres' ? pgBossJobs(backend.url, work, failed, logger) : localJobs(work, failed, logger);
}

type Step = (queues: Queue[], schedules: [string, string][]) => Promise<void>;

/** The queues and schedules declared, and the preparation and start both kinds share (once, whoever asks first). */
function declarations(steps: { prepare: Step; begin: Step }) {
  const queues = new Map<string, Queue>();
  const schedules: [string, string][] = [];
  let prepared: Promise<void> | undefined;
  let started: Promise<void> | undefined;
  let running = false;
  const prepare = () => {
    prepared ??= steps.prepare([...queues.values()], schedules);
    return prepared;
  };
  return {
    queues,
    define(name: string, handler: (data: never) => Promise<void>, options: QueueOptions = {}) {
      if (prepared) throw new Error(`queue ${name} declared after the jobs were prepared`);
      queues.set(name, { name, handler: handler as Queue['handler'], options: { ...defaults, ...options } });
    },
    schedule(name: string, cron: string) {
      if (!queues.has(name)) throw new Error(`schedule of an undeclared queue ${name}`);
      CronExpressionParser.parse(cron); // a wrong expression fails at start-up, not at its first run
      schedules.push([name, cron]);
    },
    prepare,
    start() {
      started ??= prepare()
        .then(() => steps.begin([...queues.values()], schedules))
        .then(() => {
          running = true;
        });
      return started;
    },
    stopped() {
      running = false;
    },
    get running() {
      return running;
    },
    get prepared() {
      return prepared !== undefined;
    },
  };
}

function pgBossJobs(url: string, work: boolean, failed: (queue: string) => void, logger?: Logger): Jobs {
  const boss = new PgBoss({
    connectionString: url,
    max: 3,
    application_name: 'medu-jobs',
    // the maintenance removes completed jobs past their queue's deleteAfterSeconds every few minutes (in a server
    // only, as are the schedules: a tool only queues)
    maintenanceIntervalSeconds: 300,
    supervise: work,
    schedule: work,
  });
  // pg-boss runs each statement through its pool's query, which listens for the connection's errors while it runs, and
  // reports an idle connection's here: a database that blinks costs a poll, not the process
  boss.on('error', (err) => logger?.error({ err }, 'job queue'));
  boss.on('warning', (warning) => logger?.warn({ warning }, 'job queue'));
  const workers = new Map<string, string>();
  const prepare: Step = async (queues, schedules) => {
    const client = new pg.Client({ connectionString: url, application_name: 'medu-jobs' });
    await client.connect();
    try {
      if (await setAsideV10Schema(client)) logger?.info('pg-boss 10 schema moved aside to pgboss_v10');
      await boss.start();
      await declareQueues(boss, queues);
      const declared = new Set(queues.map((queue) => queue.name));
      const taken = await takeV10Jobs(client, async (jobs) => {
        const kept = jobs.filter((job) => declared.has(job.name));
        for (const name of new Set(kept.map((job) => job.name)))
          await boss.insert(
            name,
            kept
              .filter((job) => job.name === name)
              .map(({ id, data, priority, startAfter, singletonKey }) => ({
                id,
                data: data ?? {},
                priority,
                startAfter,
                singletonKey: singletonKey ?? undefined,
              })),
          );
        return { kept: kept.length, dropped: jobs.length - kept.length };
      });
      if (taken) logger?.info(taken, "pg-boss 10's waiting jobs queued again; schema pgboss_v10 dropped");
    } finally {
      await client.end();
    }
    if (!work) return;
    const wanted = new Set(schedules.map(([name]) => name));
    for (const { name, key } of await boss.getSchedules()) if (!wanted.has(name)) await boss.unschedule(name, key);
    for (const [name, cron] of schedules) await boss.schedule(name, cron, {}, { tz: 'UTC' });
  };
  const begin: Step = async (queues) => {
    if (!work) return;
    for (const queue of queues) {
      const id = await boss.work<object>(queue.name, { pollingIntervalSeconds: 1, batchSize: 1 }, async ([job]) => {
        if (!job) return;
        try {
          await queue.handler(job.data);
        } catch (err) {
          failed(queue.name);
          throw err;
        }
      });
      workers.set(queue.name, id);
    }
  };
  const declared = declarations({ prepare, begin });
  return {
    define: declared.define,
    schedule: declared.schedule,
    prepare: declared.prepare,
    start: declared.start,
    get running() {
      return declared.running;
    },
    async depth() {
      if (!declared.prepared) return {};
      await declared.prepare();
      const names = [...declared.queues.keys()];
      // as pg-boss's monitor last counted them (each minute, in a server)
      const counted = new Map((await boss.getQueues(names)).map((queue) => [queue.name, queue.queuedCount]));
      return Object.fromEntries(names.map((name) => [name, counted.get(name) ?? 0]));
    },
    async send(name, data, options = {}) {
      await declared.start();
      await boss.send(name, data, { startAfter: options.startAfter, singletonKey: options.singletonKey });
      // the worker polls each second; a job due now is taken at once
      const worker = workers.get(name);
      if (worker && !options.startAfter) boss.notifyWorker(worker);
    },
    async stop() {
      declared.stopped();
      if (declared.prepared) await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}

/**
 * Makes each queue, or brings its retries and retention to what the code declares (pg-boss keeps a queue's options
 * from when it was made). Completed jobs are kept a day for inspection.
 */
async function declareQueues(boss: PgBoss, queues: Queue[]): Promise<void> {
  const stored = new Map((await boss.getQueues(queues.map((queue) => queue.name))).map((queue) => [queue.name, queue]));
  for (const queue of queues) {
    const options = {
      retryLimit: queue.options.retryLimit,
      retryDelay: queue.options.retryDelaySeconds,
      retryBackoff: true,
      deleteAfterSeconds: 86_400,
    };
    const found = stored.get(queue.name);
    if (!found) await boss.createQueue(queue.name, options);
    else if (Object.entries(options).some(([key, value]) => found[key as keyof typeof options] !== value))
      await boss.updateQueue(queue.name, options);
  }
}

/** In process: each queue works its jobs one at a time, in order; a delayed or retried job waits on a timer. */
function localJobs(work: boolean, failed: (queue: string) => void, logger?: Logger): Jobs {
  const timers = new Set<NodeJS.Timeout>();
  const tails = new Map<string, Promise<void>>();
  /** Jobs sent or to be tried again and not yet run, by queue. */
  const waiting = new Map<string, number>();
  const count = (name: string, by: number) => waiting.set(name, (waiting.get(name) ?? 0) + by);
  let stopped = false;
  const later = (at: number, run: () => void) => {
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        run();
      },
      Math.max(0, at - Date.now()),
    );
    timer.unref();
    timers.add(timer);
  };
  /** A job waits from when it is sent (or its retry is decided) until its run begins. */
  const enqueue = (queue: Queue, data: object, attempt: number) => {
    if (stopped) return;
    const tail = (tails.get(queue.name) ?? Promise.resolve()).then(async () => {
      count(queue.name, -1);
      if (stopped) return;
      try {
        await queue.handler(data);
      } catch (err) {
        failed(queue.name);
        if (attempt >= queue.options.retryLimit) {
          logger?.error({ err, queue: queue.name }, 'a job failed and is not tried again');
          return;
        }
        logger?.warn({ err, queue: queue.name, attempt }, 'a job failed; it is tried again');
        count(queue.name, 1);
        later(Date.now() + queue.options.retryDelaySeconds * 1000 * 2 ** attempt, () =>
          enqueue(queue, data, attempt + 1),
        );
      }
    });
    tails.set(queue.name, tail);
  };
  const begin: Step = async (_queues, schedules) => {
    if (!work) return;
    for (const [name, cron] of schedules) {
      const queue = declared.queues.get(name) as Queue;
      const next = () => {
        const at = CronExpressionParser.parse(cron, { tz: 'UTC' }).next().getTime();
        later(at, () => {
          count(name, 1);
          enqueue(queue, {}, 0);
          next();
        });
      };
      next();
    }
  };
  const declared = declarations({ prepare: async () => {}, begin });
  return {
    define: declared.define,
    schedule: declared.schedule,
    prepare: declared.prepare,
    start: declared.start,
    async send(name, data, options = {}) {
      await declared.start();
      const queue = declared.queues.get(name);
      if (!queue) throw new Error(`no queue ${name}`);
      if (!work) {
        logger?.info({ queue: name }, 'a tool works no job: the server finds its work again on schedule');
        return;
      }
      count(name, 1);
      if (options.startAfter && options.startAfter.getTime() > Date.now())
        later(options.startAfter.getTime(), () => enqueue(queue, data, 0));
      else enqueue(queue, data, 0);
    },
    get running() {
      return declared.running;
    },
    async depth() {
      return Object.fromEntries([...declared.queues.keys()].map((name) => [name, waiting.get(name) ?? 0]));
    },
    async stop() {
      declared.stopped();
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(tails.values());
    },
  };
}
