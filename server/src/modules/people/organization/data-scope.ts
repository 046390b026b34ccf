import { type RawBuilder, sql } from 'kysely';
import type { Narrow } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import { onceIn } from '../../../core/tx-memo';

/**
 * What the viewer's enabled roles let them see (docs/domain.md §2.3): everything (`all`), or the rows of the
 * organisations of their scopes (their own organisation, it and those below, or the chosen ones) and, with a `self`
 * scope, the rows they made.
 */
export interface DataScope {
  viewer: string;
  all: boolean;
  orgIds: string[];
  self: boolean;
}

/**
 * The viewer's data scope, read once per transaction: two small look-ups, so that a list's own query carries a plain
 * condition its indexes answer (or none, for a viewer who sees everything) instead of subqueries tested row by row.
 */
export function dataScopeOf(tx: Tx, viewer: string): Promise<DataScope> {
  return onceIn(tx, `data-scope:${viewer}`, async () => {
    const roles = await tx
      .selectFrom('user_role as ur')
      .innerJoin('role as r', 'r.id', 'ur.role_id')
      .select('r.data_scope')
      .where('ur.user_id', '=', viewer)
      .where('r.status', '=', 'enabled')
      .where('r.deleted_at', 'is', null)
      .execute();
    const scopes = new Set(roles.map((r) => r.data_scope));
    const all = scopes.has('all');
    if (all || !['org', 'org_and_children', 'org_custom'].some((s) => scopes.has(s as never)))
      return { viewer, all, orgIds: [], self: scopes.has('self') };
    const { rows } = await sql<{ id: string }>`SELECT o.id FROM organization o
      JOIN admin_user u ON u.id = ${viewer}
      LEFT JOIN organization own ON own.id = u.org_id
      WHERE EXISTS (SELECT 1 FROM user_role ur JOIN role r ON r.id = ur.role_id
        WHERE ur.user_id = ${viewer} AND r.status = 'enabled' AND r.deleted_at IS NULL AND (
          (r.data_scope = 'org' AND o.id = u.org_id)
          OR (r.data_scope = 'org_and_children' AND o.path LIKE own.path || '%')
          OR (r.data_scope = 'org_custom' AND o.id = ANY(r.data_scope_org_ids))))`.execute(tx);
    return { viewer, all, orgIds: rows.map((r) => String(r.id)), self: scopes.has('self') };
  });
}

/**
 * A row of `table` is within `scope` when the scope is everything, or one of `orgColumns` names one of its
 * organisations, or (a `self` scope) the viewer made it.
 */
export function inDataScope(scope: DataScope, orgColumns: readonly string[], table: string): RawBuilder<boolean> {
  if (scope.all) return sql<boolean>`true`;
  const parts = orgColumns.map((column) => sql`${sql.ref(`${table}.${column}`)} = ANY(${scope.orgIds}::bigint[])`);
  if (scope.self) parts.push(sql`${sql.ref(`${table}.created_by`)} = ${scope.viewer}`);
  return parts.length > 0 ? sql<boolean>`(${sql.join(parts, sql` OR `)})` : sql<boolean>`false`;
}

/** The rows of `table` within the viewer's data scope (every row without a viewer: a read of the system's own). */
export async function scopedTo(
  tx: Tx,
  viewer: string | undefined,
  orgColumns: readonly string[],
  table: string,
): Promise<Narrow> {
  if (!viewer) return (qb) => qb;
  const scope = await dataScopeOf(tx, viewer);
  return scope.all ? (qb) => qb : (qb) => qb.where(inDataScope(scope, orgColumns, table));
}

/**
 * The rows of `table` within the viewer's data scope by their author (`created_by`): a `self` scope reaches what the
 * viewer wrote, an organisation scope what the users of its organisations wrote. The authors are read once per
 * transaction, so the list's query carries one indexed condition.
 */
export async function authoredInScope(tx: Tx, viewer: string | undefined, table: string): Promise<Narrow> {
  const authors = await authorsInScope(tx, viewer);
  if (!authors) return (qb) => qb;
  return (qb) => qb.where(sql<boolean>`${sql.ref(`${table}.created_by`)} = ANY(${authors}::bigint[])`);
}

/** The authors whose rows the viewer's data scope reaches (`authoredInScope`); undefined: every author's. */
export async function authorsInScope(tx: Tx, viewer: string | undefined): Promise<string[] | undefined> {
  if (!viewer) return undefined;
  const scope = await dataScopeOf(tx, viewer);
  if (scope.all) return undefined;
  return onceIn(tx, `data-scope-authors:${viewer}`, async () => {
    const ids = scope.self ? [scope.viewer] : [];
    if (scope.orgIds.length > 0) {
      const users = await tx
        .selectFrom('admin_user')
        .select('id')
        .where(sql<boolean>`org_id = ANY(${scope.orgIds}::bigint[])`)
        .execute();
      ids.push(...users.map((u) => String(u.id)));
    }
    return [...new Set(ids)];
  });
}
