import { sql } from 'kysely';
import type { ListQuery } from '../../../core/resource/list-query';
import { columnsOf, tableRepository } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import { jsonbParameter } from '../../../db/database';
import { AuditLog, LoginLog } from './audit.schema';

const auditLogs = tableRepository({
  name: 'audit_log',
  columns: columnsOf(AuditLog),
  audited: false,
});

const loginLogs = tableRepository({
  name: 'login_log',
  /** `reason` is read from `result`, which stores the outcome (the service splits them). */
  columns: columnsOf(LoginLog, { except: ['reason'] }),
  audited: false,
});

export const listAuditLogs = (tx: Tx, query: ListQuery) => auditLogs.list(tx, query);
export const listLoginLogs = (tx: Tx, query: ListQuery) => loginLogs.list(tx, query);

/** What the rows of one operation share: who did it, from where, when. */
export interface AuditActor {
  tenantId: string;
  /** None: the system (a scheduled job). */
  actorId: string | null;
  ip: string | null;
  userAgent: string | null;
  at: Date;
}

/** What differs from one row of an operation to the next. */
export interface AuditItem {
  action: string;
  resourceType: string;
  resourceId: string | null;
  summary: string;
  before?: unknown;
  after?: unknown;
  traceId?: string;
}

export type AuditEntry = AuditActor & AuditItem;

export async function insertAuditLog(tx: Tx, e: AuditEntry): Promise<void> {
  await insertAuditLogs(tx, e, [e]);
}

/**
 * The rows of one operation in one statement, set-based: what differs from row to row travels as one JSON parameter
 * expanded into audit_log's row type; what they share (tenant, actor, the actor's name, address, time) is sent once.
 * `prepare` turns an item into its record, `clean` a record's before and after into their stored form (the trail's
 * redaction); the JSON is made before anything is sent, so no row's copy stays alive while the database works.
 */
export function insertAuditLogs<T>(
  tx: Tx,
  actor: AuditActor,
  items: readonly T[],
  prepare: (item: T) => AuditItem = (item) => item as AuditItem,
  clean: (value: unknown) => unknown = (value) => value,
): Promise<void> {
  if (items.length === 0) return Promise.resolve();
  // Each row's JSON is made from its item at once: the objects in between never outlive their row.
  const rows = items.map((item) => {
    const e = prepare(item);
    return JSON.stringify({
      action: e.action,
      resource_type: e.resourceType,
      resource_id: e.resourceId,
      summary: e.summary.slice(0, 500),
      before: clean(e.before ?? null),
      after: clean(e.after ?? null),
      trace_id: e.traceId ?? null,
    });
  });
  const json = `[${rows.join(',')}]`;
  return sql`INSERT INTO audit_log (tenant_id, actor_id, actor_name, ip, user_agent, created_at,
      action, resource_type, resource_id, summary, before, after, trace_id)
    SELECT ${actor.tenantId}::bigint, ${actor.actorId}::bigint,
      (SELECT username FROM admin_user WHERE id = ${actor.actorId}::bigint),
      ${actor.ip}::varchar, ${actor.userAgent}::varchar, ${actor.at.toISOString()}::timestamptz,
      r.action, r.resource_type, r.resource_id, r.summary, r.before, r.after, r.trace_id
    FROM jsonb_populate_recordset(NULL::audit_log, ${jsonbParameter(json)}) r`
    .execute(tx)
    .then(() => undefined);
}

/** The audit rows of one trace (an import job), newest first, `limit` at a time before the row `beforeId`. */
export async function importAuditTrail(tx: Tx, traceId: string, beforeId: string | undefined, limit: number) {
  let q = tx.selectFrom('audit_log').select(['id', 'before', 'after']).where('trace_id', '=', traceId);
  if (beforeId) q = q.where('id', '<', beforeId);
  return q.orderBy('id', 'desc').limit(limit).execute();
}
