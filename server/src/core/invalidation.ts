import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { DB } from '../db/types';
import { INVALIDATION_CHANNEL, notify } from './invalidation.repository';

/** What an instance keeps in memory that another instance's write can make stale. */
export type CacheTopic = 'principals' | 'error-catalog';

const TOPICS: readonly CacheTopic[] = ['principals', 'error-catalog'];

/**
 * Tells the other instances on the database that a cache of theirs is stale. On PostgreSQL by NOTIFY, heard by a
 * connection of each instance's own that LISTENs: that connection must reach the server directly (DATABASE_DIRECT_URL),
 * since pgbouncer in transaction mode hands a session's LISTEN to whichever client comes next. On the embedded
 * database there is no other instance (its one process owns it), so a change has nobody to tell.
 *
 * Each cache keeps its time-to-live as the fallback: a notification lost with a crash between a commit and its
 * NOTIFY, or sent while an instance's listener was reconnecting, is made good by it (and a reconnected listener
 * empties every cache, since it cannot know what it missed).
 */
export interface Invalidation {
  /** After the change has committed: every other instance runs its handlers of `topic`. Never throws. */
  publish(topic: CacheTopic): Promise<void>;
  /** `handler` empties or reloads this instance's cache of `topic`. Before `start`. */
  subscribe(topic: CacheTopic, handler: () => unknown): void;
  /** Connects the listener; fails when the database cannot be reached. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export type InvalidationBackend =
  | {
      kind: 'postgres' /** A direct connection, not through a pooler in transaction mode. */;
      url: string;
      db: Kysely<DB>;
    }
  | { kind: 'local' };

export interface ListenerTiming {
  /** The first wait before reconnecting a dropped listener, doubled after each failure up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
}

const defaultTiming: ListenerTiming = { backoffMs: 100, maxBackoffMs: 5_000 };

export function createInvalidation(
  backend: InvalidationBackend,
  logger?: Logger,
  timing: ListenerTiming = defaultTiming,
): Invalidation {
  const handlers = new Map<CacheTopic, (() => unknown)[]>();
  const run = async (topic: CacheTopic) => {
    for (const handler of handlers.get(topic) ?? []) {
      try {
        await handler();
      } catch (err) {
        logger?.warn({ err, topic }, 'refreshing a cache another instance made stale failed');
      }
    }
  };
  const subscribe = (topic: CacheTopic, handler: () => unknown) => {
    handlers.set(topic, [...(handlers.get(topic) ?? []), handler]);
  };
  if (backend.kind === 'local') {
    return { publish: async () => {}, subscribe, start: async () => {}, stop: async () => {} };
  }

  /** Who sent a notification: an instance does not hear its own, whose caches its write has already emptied. */
  const self = randomUUID();
  const listener = createListener(backend.url, timing, logger, {
    onNotification(payload) {
      const [from, topic] = payload.split(' ');
      if (from !== self && TOPICS.includes(topic as CacheTopic)) void run(topic as CacheTopic);
    },
    onReconnect() {
      for (const topic of TOPICS) void run(topic);
    },
  });
  return {
    async publish(topic) {
      try {
        await notify(backend.db, `${self} ${topic}`);
      } catch (err) {
        logger?.warn({ err, topic }, 'telling the other instances of a change failed; their caches expire instead');
      }
    },
    subscribe,
    start: listener.start,
    stop: listener.stop,
  };
}

/**
 * One connection that LISTENs, reconnected with a growing wait whenever it drops (a restart, a fail-over, an
 * administrator's pg_terminate_backend): a dropped connection costs at most the notifications sent meanwhile.
 */
function createListener(
  url: string,
  timing: ListenerTiming,
  logger: Logger | undefined,
  on: { onNotification(payload: string): void; onReconnect(): void },
) {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let backoff = timing.backoffMs;

  const connect = async () => {
    const next = new pg.Client({ connectionString: url, application_name: 'medu-invalidation', keepAlive: true });
    // Errors of a connection that was up are the end of it; the error of a failed connect is thrown by connect().
    next.on('error', (err) => dropped(next, err));
    next.on('end', () => dropped(next));
    next.on('notification', (message) => {
      if (message.channel === INVALIDATION_CHANNEL && message.payload) on.onNotification(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${INVALIDATION_CHANNEL}`);
    } catch (err) {
      next.removeAllListeners('end');
      await next.end().catch(() => {});
      throw err;
    }
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
  };

  const dropped = (which: pg.Client, err?: Error) => {
    if (which !== client || stopped) return;
    client = undefined;
    which.end().catch(() => {});
    logger?.warn({ err }, 'the cache invalidation listener lost its connection; reconnecting');
    reconnectLater();
  };

  const reconnectLater = () => {
    retry = setTimeout(async () => {
      retry = undefined;
      try {
        await connect();
        backoff = timing.backoffMs;
        logger?.info('the cache invalidation listener is connected again');
        on.onReconnect();
      } catch (err) {
        backoff = Math.min(backoff * 2, timing.maxBackoffMs);
        if (!stopped) {
          logger?.warn({ err }, 'the cache invalidation listener could not reconnect');
          reconnectLater();
        }
      }
    }, backoff);
    retry.unref();
  };

  return {
    start: connect,
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}
