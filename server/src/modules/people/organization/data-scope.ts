import { type RawBuilder, sql } from 'kysely';

/**
 * The roles' data scope (docs/domain.md §2.3) as a condition on the rows of a people list, evaluated in the list's own
 * query: a row is the viewer's to see when one of the viewer's enabled roles sees all data, or one of `orgColumns`
 * names an organisation of a role's scope (its own organisation, its organisation and those below, or the chosen
 * ones), or the viewer made the row and a role's scope is `self`. The parts that do not depend on the row are
 * subqueries PostgreSQL runs once (InitPlans), so a viewer who sees everything pays one small look-up.
 */
export function inDataScope(viewer: string, orgColumns: readonly string[], table: string): RawBuilder<boolean> {
  const roles = sql`FROM user_role ur JOIN role r ON r.id = ur.role_id
    WHERE ur.user_id = ${viewer} AND r.status = 'enabled' AND r.deleted_at IS NULL`;
  const scopeOrgs = sql`SELECT o.id FROM organization o
    JOIN admin_user u ON u.id = ${viewer}
    LEFT JOIN organization own ON own.id = u.org_id
    WHERE EXISTS (SELECT 1 ${roles} AND (
      (r.data_scope = 'org' AND o.id = u.org_id)
      OR (r.data_scope = 'org_and_children' AND o.path LIKE own.path || '%')
      OR (r.data_scope = 'org_custom' AND o.id = ANY(r.data_scope_org_ids))))`;
  const orgs = orgColumns.map((column) => sql`${sql.ref(`${table}.${column}`)} IN (${scopeOrgs})`);
  return sql<boolean>`(EXISTS (SELECT 1 ${roles} AND r.data_scope = 'all')
    OR ${sql.join(orgs, sql` OR `)}
    OR (${sql.ref(`${table}.created_by`)} = ${viewer} AND EXISTS (SELECT 1 ${roles} AND r.data_scope = 'self')))`;
}
