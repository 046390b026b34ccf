import type { ListQuery } from '../../core/resource/list-query';
import { tableRepository } from '../../core/resource/table.repository';
import type { Tx } from '../../core/tenancy';

const auditLogs = tableRepository({
  name: 'audit_log',
  columns: {
    id: 'id',
    actorId: 'actor_id',
    actorName: 'actor_name',
    action: 'action',
    resourceType: 'resource_type',
    resourceId: 'resource_id',
    summary: 'summary',
    before: 'before',
    after: 'after',
    ip: 'ip',
    userAgent: 'user_agent',
    createdAt: 'created_at',
  },
  audited: false,
});

const loginLogs = tableRepository({
  name: 'login_log',
  columns: {
    id: 'id',
    userId: 'user_id',
    username: 'username',
    clientId: 'client_id',
    logType: 'log_type',
    result: 'result',
    ip: 'ip',
    userAgent: 'user_agent',
    createdAt: 'created_at',
  },
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
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

export async function insertAuditLog(tx: Tx, e: AuditEntry): Promise<void> {
  await insertAuditLogs(tx, [e]);
}

/** One statement for a batch (imports); the actor's name is read once per statement. */
export async function insertAuditLogs(tx: Tx, entries: AuditEntry[]): Promise<void> {
  const actorIds = [...new Set(entries.map((e) => e.actorId))];
  if (actorIds.length === 0) return;
  const names = new Map(
    (await tx.selectFrom('admin_user').select(['id', 'username']).where('id', 'in', actorIds).execute()).map((u) => [u.id, u.username]),
  );
  await tx
    .insertInto('audit_log')
    .values(
      entries.map((e) => ({
        tenant_id: e.tenantId,
        actor_id: e.actorId,
        actor_name: names.get(e.actorId) ?? null,
        action: e.action,
        resource_type: e.resourceType,
        resource_id: e.resourceId,
        summary: e.summary.slice(0, 500),
        before: json(e.before),
        after: json(e.after),
        ip: e.ip,
        user_agent: e.userAgent,
        created_at: e.at,
      })),
    )
    .execute();
}
