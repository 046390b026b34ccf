import { sql } from 'kysely';
import type { ListQuery } from '../../../core/resource/list-query';
import { columnsOf, tableRepository } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
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

export interface AuditEntry {
  tenantId: string;
  actorId: string;
  action: string;
  resourceType: string;
  resourceId: string | null;
  summary: string;
  before: unknown;
  after: unknown;
  ip: string | null;
  userAgent: string | null;
  at: Date;
  traceId?: string;
}

export async function insertAuditLog(tx: Tx, e: AuditEntry): Promise<void> {
  await insertAuditLogs(tx, [e]);
}

/**
 * One statement for a batch (imports): the entries travel as one JSON parameter expanded into audit_log's row type,
 * and the actor's name is read once.
 */
export async function insertAuditLogs(tx: Tx, entries: AuditEntry[]): Promise<void> {
  const actorIds = [...new Set(entries.map((e) => e.actorId))];
  if (actorIds.length === 0) return;
  const names = new Map(
    (await tx.selectFrom('admin_user').select(['id', 'username']).where('id', 'in', actorIds).execute()).map((u) => [
      u.id,
      u.username,
    ]),
  );
  const rows = entries.map((e) => ({
    tenant_id: e.tenantId,
    actor_id: e.actorId,
    actor_name: names.get(e.actorId) ?? null,
    action: e.action,
    resource_type: e.resourceType,
    resource_id: e.resourceId,
    summary: e.summary.slice(0, 500),
    before: e.before ?? null,
    after: e.after ?? null,
    ip: e.ip,
    user_agent: e.userAgent,
    created_at: e.at,
    trace_id: e.traceId ?? null,
  }));
  const columns = sql.join(Object.keys(rows[0] ?? {}).map((c) => sql.ref(c)));
  await sql`INSERT INTO audit_log (${columns})
    SELECT ${columns} FROM json_populate_recordset(NULL::audit_log, ${JSON.stringify(rows)})`.execute(tx);
}

/** The audit rows of one trace (an import job), newest first, `limit` at a time before the row `beforeId`. */
export async function importAuditTrail(tx: Tx, traceId: string, beforeId: string | undefined, limit: number) {
  let q = tx.selectFrom('audit_log').select(['id', 'before', 'after']).where('trace_id', '=', traceId);
  if (beforeId) q = q.where('id', '<', beforeId);
  return q.orderBy('id', 'desc').limit(limit).execute();
}
