import type { Tenancy } from '../../../core/tenancy';
import type { SettingsService } from '../settings/settings.service';
import { allTenantIds, deleteOldRows, type PurgeableTable } from './retention.repository';

const DAY_MS = 86_400_000;

/** The retention settings (platform-only, every tenant's rows) and the seed's defaults, should one be unreadable. */
const DAYS = {
  'retention.auditLogDays': 1095,
  'retention.loginLogDays': 365,
  'retention.deliveredMessageDays': 365,
};

/** Each table with the setting that says how old its rows may grow: batches after their messages. */
const TABLES: [PurgeableTable, keyof typeof DAYS][] = [
  ['audit_log', 'retention.auditLogDays'],
  ['login_log', 'retention.loginLogDays'],
  ['message', 'retention.deliveredMessageDays'],
  ['message_batch', 'retention.deliveredMessageDays'],
];

/** Rows per statement by default: a batch removes in milliseconds what an index scan finds, well under a second. */
export const PURGE_BATCH = 2000;

export interface PurgeCount {
  table: PurgeableTable;
  /** Rows created before this were old enough. */
  before: Date;
  removed: number;
  /** Statements that removed rows, each its own transaction. */
  batches: number;
  /** The longest of them, in milliseconds. */
  slowestMs: number;
}

/**
 * The retention purge (docs/operating.md, "Retention"): the audit log, the sign-in log and the messages no longer
 * waiting to be sent lose their rows older than the platform's settings `retention.*` say, tenant by tenant, in
 * batches of `batch` rows, each batch a statement in its own short transaction: the tables stay open to reads and
 * writes, and a batch holds the locks of its own rows only.
 */
export function createRetentionService(deps: {
  tenancy: Tenancy;
  settings: SettingsService;
  /** Told of the rows each table lost (the metrics). */
  onPurged?: (table: PurgeableTable, rows: number) => void;
}) {
  const { tenancy, settings } = deps;
  return {
    async purge(now: Date, { batch = PURGE_BATCH }: { batch?: number } = {}): Promise<PurgeCount[]> {
      if (!Number.isInteger(batch) || batch < 1)
        throw new Error(`a purge batch is a positive number of rows: ${batch}`);
      const days = await tenancy.inPlatformScope((tx) => settings.numbers(tx, DAYS));
      // the audit log is never deleted from within a tenant (its rows are the application's to add, not remove)
      const tenants = await tenancy.asSystem(allTenantIds);
      const counts: PurgeCount[] = [];
      for (const [table, setting] of TABLES) {
        const count = {
          table,
          before: new Date(now.getTime() - days[setting] * DAY_MS),
          removed: 0,
          batches: 0,
          slowestMs: 0,
        };
        for (const tenantId of tenants) {
          for (;;) {
            const started = performance.now();
            const removed = await tenancy.asSystem((tx) => deleteOldRows(tx, table, tenantId, count.before, batch));
            if (removed === 0) break;
            count.removed += removed;
            count.batches += 1;
            count.slowestMs = Math.max(count.slowestMs, Math.round(performance.now() - started));
            if (removed < batch) break;
          }
        }
        if (count.removed) deps.onPurged?.(table, count.removed);
        counts.push(count);
      }
      return counts;
    },
  };
}

export type RetentionService = ReturnType<typeof createRetentionService>;
