import { sql } from 'kysely';
import { AppError, invalidField, notFound, versionConflict } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import { checkOrganization } from '../../people/organization/organization-ref';
import {
  type CreateDocumentBase,
  type DocumentBase,
  documentBaseResource,
  type GrantRow,
  type GrantSubject,
  type SetGrants,
  type UpdateDocumentBase,
} from './document-base.resource';
import { basesOf } from './library-scope';

const texts = {
  'zh-CN': {
    codeTaken: '该编码已被其他文档库使用',
    nameTaken: '已有同名文档库',
    noOrg: '组织不存在',
    noSubject: '授权对象不存在',
  },
  'en-US': {
    codeTaken: 'is used by another library',
    nameTaken: 'another library has this name',
    noOrg: 'is not an existing organisation',
    noSubject: 'is not an existing subject of this type',
  },
};

/** Where a grant's subject lives, and the column that names it. */
const SUBJECTS: Record<GrantSubject, { table: string; name: string }> = {
  role: { table: 'role', name: 'name' },
  org: { table: 'organization', name: 'name' },
  trainee_type: { table: 'trainee_type', name: 'name' },
  admin_user: { table: 'admin_user', name: 'display_name' },
};

/**
 * Document libraries' rules (docs/domain.md §5.1): code and name unique in the tenant, an owner organisation of the
 * tenant; a library holding documents is not deleted; its grants are written as a whole.
 */
export function createDocumentBaseService(deps: ResourceDeps) {
  const { store: plain, repository } = documentBaseResource;

  async function check(tx: Tx, input: Partial<CreateDocumentBase>, self: string | undefined, lang: Lang) {
    const t = texts[lang];
    for (const key of ['code', 'name'] as const) {
      const value = input[key];
      if (value === undefined) continue;
      const other = await repository.findBy(tx, key, value);
      if (other && other.id !== self) throw invalidField(key, key === 'code' ? t.codeTaken : t.nameTaken);
    }
    if (input.ownerOrgId) await checkOrganization(tx, 'ownerOrgId', input.ownerOrgId, t.noOrg);
  }

  /** Libraries outside the viewer's data scope are not found (an id outside it answers 404). */
  const find = async (tx: Tx, id: string, viewer?: string) => repository.find(tx, id, await basesOf(tx, viewer));

  const store: ResourceStore<DocumentBase, CreateDocumentBase, UpdateDocumentBase> = {
    ...plain,
    createMany: undefined,
    list: async (tx, query) => repository.list(tx, query, await basesOf(tx, query.viewer)),
    find,
    async create(tx, input, ctx) {
      await check(tx, input, undefined, ctx.lang);
      const made = await plain.create(tx, input, ctx);
      return (await repository.find(tx, made.id)) as DocumentBase;
    },
    async update(tx, current, input, ctx) {
      await check(tx, input, current.id, ctx.lang);
      const updated = await plain.update(tx, current, input, ctx);
      return updated && ((await repository.find(tx, current.id)) as DocumentBase);
    },
    async remove(tx, rows, ctx) {
      for (const row of rows)
        if (row.documentCount > 0)
          throw new AppError('documentBase.inUse', { name: row.name, count: row.documentCount });
      return plain.remove(tx, rows, ctx);
    },
  };

  const resource = createResourceService(documentBaseResource, store, deps);

  async function grantsOf(tx: Tx, id: string): Promise<GrantRow[]> {
    const names = sql.join(
      (Object.entries(SUBJECTS) as [GrantSubject, { table: string; name: string }][]).map(
        ([type, s]) =>
          sql`WHEN ${type} THEN (SELECT s.${sql.raw(s.name)}::text FROM ${sql.table(s.table)} s WHERE s.id = g.subject_id)`,
      ),
      sql` `,
    );
    const { rows } = await sql<GrantRow>`SELECT g.subject_type AS "subjectType", g.subject_id::text AS "subjectId",
        CASE g.subject_type ${names} END AS "subjectName", g.permission
      FROM document_base_grant g WHERE g.base_id = ${id}
      ORDER BY g.subject_type, g.subject_id, g.permission`.execute(tx);
    return rows;
  }

  return {
    resource,

    grants: (tenantId: string, id: string, viewer: string) =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        if (!(await find(tx, id, viewer))) throw notFound();
        return grantsOf(tx, id);
      }),

    /** Replaces every grant of the library; each subject must exist in the tenant (refused naming its place). */
    setGrants(ctx: WriteContext, id: string, { grants, version }: SetGrants) {
      let after: GrantRow[] = [];
      return resource
        .act(
          ctx,
          id,
          'grant',
          async (tx, row) => {
            if (row.version !== version) throw versionConflict();
            for (const [i, grant] of grants.entries()) {
              const subject = SUBJECTS[grant.subjectType];
              const { rows } =
                await sql`SELECT 1 FROM ${sql.table(subject.table)} WHERE id = ${grant.subjectId}`.execute(tx);
              if (rows.length === 0) throw invalidField(`grants.${i}.subjectId`, texts[ctx.lang].noSubject);
            }
            await tx.deleteFrom('document_base_grant').where('base_id', '=', id).execute();
            const unique = new Map(grants.map((g) => [`${g.subjectType}:${g.subjectId}:${g.permission}`, g]));
            if (unique.size > 0)
              await tx
                .insertInto('document_base_grant')
                .values(
                  [...unique.values()].map((g) => ({
                    tenant_id: ctx.tenantId,
                    base_id: id,
                    subject_type: g.subjectType,
                    subject_id: g.subjectId,
                    permission: g.permission,
                  })),
                )
                .execute();
            await repository.update(tx, id, {}, ctx);
            after = await grantsOf(tx, id);
            return (await repository.find(tx, id)) as DocumentBase;
          },
          () => `${grants.length} grants`,
        )
        .then((base) => ({ base, grants: after }));
    },
  };
}

export type DocumentBaseService = ReturnType<typeof createDocumentBaseService>;
