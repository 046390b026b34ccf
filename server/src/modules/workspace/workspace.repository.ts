import type { Tx } from '../../core/tenancy';
import type { WorkspaceActivity } from './workspace.schema';

const count = (row: { count: string | number | bigint } | undefined) => Number(row?.count ?? 0);

export const countAccounts = async (tx: Tx) =>
  count(await tx.selectFrom('admin_user').select((eb) => eb.fn.countAll().as('count')).where('deleted_at', 'is', null).executeTakeFirst());

/** Locked by an administrator, or for a while after too many failed sign-ins. */
export const countLockedAccounts = async (tx: Tx, now: Date) =>
  count(
    await tx
      .selectFrom('admin_user')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('status', '=', 'locked'), eb('locked_until', '>', now)]))
      .executeTakeFirst(),
  );

export const countRoles = async (tx: Tx) =>
  count(await tx.selectFrom('role').select((eb) => eb.fn.countAll().as('count')).where('deleted_at', 'is', null).executeTakeFirst());

/** Password sign-ins since `since`, successful or failed. */
export const countSignIns = async (tx: Tx, since: Date, outcome: 'success' | 'failure') =>
  count(
    await tx
      .selectFrom('login_log')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('log_type', '=', 'login_password')
      .where('created_at', '>=', since)
      .where('result', outcome === 'success' ? '=' : '!=', 'success')
      .executeTakeFirst(),
  );

export async function recentActivity(tx: Tx, actorId: string, limit: number): Promise<WorkspaceActivity[]> {
  const rows = await tx
    .selectFrom('audit_log')
    .select(['id', 'action', 'resource_type', 'resource_id', 'summary', 'created_at'])
    .where('actor_id', '=', actorId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    action: r.action,
    resourceType: r.resource_type,
    resourceId: r.resource_id,
    summary: r.summary,
    createdAt: r.created_at.toISOString(),
  }));
}
