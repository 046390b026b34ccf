import { type RawBuilder, sql } from 'kysely';
import type { Narrow } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import { dataScopeOf } from '../../people/organization/data-scope';

/**
 * Libraries and their documents keep to the viewer's data scope by the library's owner organisation: a library owned
 * by no organisation is the whole tenant's; one owned by an organisation is seen by viewers whose scope reaches it (and,
 * with a `self` scope, by who made it). `owner` and `maker` are the columns (or expressions) of the row listed.
 */
export async function libraryScope(
  tx: Tx,
  viewer: string | undefined,
  owner: RawBuilder<unknown>,
  maker: RawBuilder<unknown>,
): Promise<Narrow> {
  if (!viewer) return (qb) => qb;
  const scope = await dataScopeOf(tx, viewer);
  if (scope.all) return (qb) => qb;
  const parts = [sql`${owner} IS NULL`, sql`${owner} = ANY(${scope.orgIds}::bigint[])`];
  if (scope.self) parts.push(sql`${maker} = ${scope.viewer}`);
  return (qb) => qb.where(sql<boolean>`(${sql.join(parts, sql` OR `)})`);
}

/** The scope of libraries (the rows of `document_base`). */
export const basesOf = (tx: Tx, viewer: string | undefined) =>
  libraryScope(tx, viewer, sql.ref('document_base.owner_org_id'), sql.ref('document_base.created_by'));

/** The scope of documents (the rows of `document`), by their library's owner. */
export const documentsOf = (tx: Tx, viewer: string | undefined) =>
  libraryScope(
    tx,
    viewer,
    sql`(SELECT b.owner_org_id FROM document_base b WHERE b.id = document.base_id)`,
    sql.ref('document.created_by'),
  );
