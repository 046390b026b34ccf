import { sql } from 'kysely';
import { summaryWithoutFields } from '../../../../../src/utils/auditSummary';
import type { Lang } from '../../../core/i18n';
import { findLabel } from '../../../core/labels';
import type { Narrow } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import type { WorkspaceActivity } from './workspace.schema';

const count = (row: { count: string | number | bigint } | undefined) => Number(row?.count ?? 0);

/** Rows not deleted of a soft-deleting table. */
const countLive = async (tx: Tx, table: 'admin_user' | 'role') =>
  count(
    await tx
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('count'))
      .where('deleted_at', 'is', null)
      .executeTakeFirst(),
  );

export const countAccounts = (tx: Tx) => countLive(tx, 'admin_user');
export const countRoles = (tx: Tx) => countLive(tx, 'role');

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

/**
 * An action's name: its permission's under its menu (`角色管理 · 新增`); an action no permission names (done by the
 * clock, or under another permission), its entity and verb (`教学活动 · 结束`) from the labels.
 */
export function actionName(action: string, menu: string | null, name: string | null, lang: Lang): string | null {
  if (name) return [menu, name].filter(Boolean).join(' · ');
  const parts = action.split(':');
  const verb = findLabel(`resource.audit.action.${parts.pop()}`, lang);
  if (!verb) return null;
  const entity = findLabel(`${parts.join('.')}.entity`, lang);
  return entity ? `${entity.charAt(0).toUpperCase()}${entity.slice(1)} · ${verb}` : verb;
}

/**
 * The actor's latest writes, each with the names of its permission (`角色管理 · 新增`) when the code is known, and its
 * summary without the changed fields' API names.
 */
export async function recentActivity(tx: Tx, actorId: string, limit: number): Promise<WorkspaceActivity[]> {
  const rows = await tx
    .selectFrom('audit_log as a')
    .leftJoin('permission as p', 'p.code', 'a.action')
    .leftJoin('permission as menu', 'menu.id', 'p.parent_id')
    .select(['a.id', 'a.action', 'a.resource_type', 'a.resource_id', 'a.summary', 'a.created_at'])
    .select(['p.name', 'p.name_en', 'menu.name as menu_name', 'menu.name_en as menu_name_en'])
    .select(
      sql<string[]>`(SELECT coalesce(array_agg(k), '{}') FROM (
        SELECT jsonb_object_keys(a.before) WHERE jsonb_typeof(a.before) = 'object'
        UNION SELECT jsonb_object_keys(a.after) WHERE jsonb_typeof(a.after) = 'object') AS f(k))`.as('fields'),
    )
    .where('a.actor_id', '=', actorId)
    .orderBy('a.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    action: r.action,
    actionName: actionName(r.action, r.menu_name, r.name, 'zh-CN'),
    actionNameEn: actionName(r.action, r.menu_name_en, r.name_en, 'en-US'),
    resourceType: r.resource_type,
    resourceId: r.resource_id,
    summary: summaryWithoutFields(r.summary, r.fields) ?? null,
    createdAt: r.created_at.toISOString(),
  }));
}

export interface Tally {
  key: string | null;
  label: string | null;
  count: number;
}

/**
 * Trainees in training by specialty base or by cohort, among the rows `narrow` leaves (the viewer's data scope, the
 * one their trainee list keeps to), largest first.
 */
export async function traineesInTrainingBy(
  tx: Tx,
  narrow: Narrow,
  by: 'specialty_base_id' | 'cohort_year',
): Promise<Tally[]> {
  const grouped = tx
    .selectFrom('trainee')
    .select([sql<string | null>`${sql.ref(`trainee.${by}`)}::text`.as('key')])
    .select((eb) => eb.fn.countAll().as('count'))
    .where('trainee.status', '=', 'in_training')
    .groupBy(`trainee.${by}`);
  const rows = await (narrow(grouped as never) as unknown as typeof grouped).execute();
  const names =
    by === 'specialty_base_id'
      ? await organizationNames(
          tx,
          rows.flatMap((r) => (r.key ? [r.key] : [])),
        )
      : new Map<string, string>();
  return rows
    .map((r) => ({ key: r.key, label: r.key ? (names.get(r.key) ?? r.key) : null, count: count(r) }))
    .sort((a, b) => b.count - a.count || String(a.key).localeCompare(String(b.key)));
}

async function organizationNames(tx: Tx, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.selectFrom('organization').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [String(r.id), r.name]));
}

export interface ImportSummary {
  id: string;
  resource: string;
  fileName: string;
  status: string;
  total: number | null;
  createdAt: string;
}

/** The tenant's latest import jobs of the given resources (API paths), newest first. */
export async function recentImports(tx: Tx, resources: string[], limit: number): Promise<ImportSummary[]> {
  if (resources.length === 0) return [];
  const rows = await tx
    .selectFrom('import_job')
    .select(['id', 'resource', 'file_name', 'status', 'total', 'created_at'])
    .where('resource', 'in', resources)
    .where('dry_run', '=', false)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    resource: r.resource,
    fileName: r.file_name,
    status: r.status,
    total: r.total,
    createdAt: r.created_at.toISOString(),
  }));
}
