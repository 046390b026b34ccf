import { OpenAPIHono, z } from '@hono/zod-openapi';
import { type RawBuilder, sql } from 'kysely';
import type { AppEnv } from '../../../core/context';
import type { ErrorKey } from '../../../core/error-codes';
import { AppError, invalidField, versionConflict } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import { answers } from '../../../core/openapi';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { ID_PATTERN, Id } from '../../../core/resource/id-param';
import { statusFilter } from '../../../core/resource/list-query';
import type { ResourceStore } from '../../../core/resource/resource';
import { resourceModule } from '../../../core/resource/resource.module';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import { columnsOf } from '../../../core/resource/table.repository';
import { defineRoute } from '../../../core/route';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import type { Tx } from '../../../core/tenancy';
import type { ManifestCode, ManifestPrefix } from '../../../db/seed/permissions';
import type { Audited, CommonStatus, DB, Defaulted, Id as IdColumn, Nullable, Ref } from '../../../db/types';

/** A tree of the tenant (the bank's categories and knowledge points, course categories): the same columns in each. */
export interface TaxonomyTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  parent_id: Nullable<Ref>;
  path: string;
  depth: number;
  code: string;
  name: string;
  sort: Defaulted<number>;
  status: Defaulted<CommonStatus>;
  remark: Nullable<string>;
}
declare module '../../../db/types' {
  interface DB {
    question_category: TaxonomyTable;
    knowledge_point: TaxonomyTable;
  }
}
/** How many matching nodes a search of a tree leads to (their levels are answered whole). */
const SEARCHED = 50;

/** The tables that hold a tree of these columns. */
export type TaxonomyName = { [T in keyof DB]: DB[T] extends TaxonomyTable ? T : never }[keyof DB];

const code = field.code().openapi({ example: 'internal' });

const texts = {
  'zh-CN': {
    noParent: '上级不存在',
    intoItself: '不能移到自身或其下级之下',
    codeTaken: '该编码已被使用',
    nameTaken: '同一上级下已有同名项',
  },
  'en-US': {
    noParent: 'is not an existing node of this tree',
    intoItself: 'cannot move a node under itself or one of its descendants',
    codeTaken: 'is already used',
    nameTaken: 'another node under the same parent has this name',
  },
};

/**
 * The ids of every node in the subtrees of `ids`, read first: a filter or a rule then names them as values, which the
 * planner weighs against the question indexes (a sub-select's array it cannot). Found level by level from the parents
 * (a join of every node's path with every named one's prefix took 2.7 ms for a tree of 110 nodes, growing with its
 * square; this, 0.5 ms).
 */
export async function subtreeIds(tx: Tx, table: TaxonomyName, ids: readonly string[]): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`WITH RECURSIVE subtree(id) AS (
      SELECT id FROM ${sql.table(table)} WHERE id = ANY(${ids.map(String)}::bigint[])
      UNION SELECT child.id FROM ${sql.table(table)} child JOIN subtree ON child.parent_id = subtree.id
    ) SELECT id FROM subtree`.execute(tx);
  return rows.map((r) => String(r.id));
}

/**
 * A tree of the tenant (docs/domain.md §9.1, §8.1): codes unique in the tenant, names among siblings; a change of parent
 * moves the subtree (not under itself), re-pathing it in one statement; a node with children, or that records use, is
 * not deleted. `usage` counts the records that use a node (shown as its `key`, refused with its `inUse` error);
 * `permissions` are the codes of its list and tree (`read`), export, and writes (`manage`).
 */
export function defineTaxonomy<const Path extends string, const Usage extends string>(spec: {
  table: TaxonomyName;
  path: Path;
  component: string;
  permissions: { prefix: ManifestPrefix; read: ManifestCode; export: ManifestCode; manage: ManifestCode };
  usage: {
    key: Usage;
    count: (id: RawBuilder<unknown>) => RawBuilder<number>;
    inUse: ErrorKey;
  };
}) {
  const { table, permissions, usage } = spec;
  const shape = {
    parentId: z.string().nullable(),
    path: z.string().openapi({ description: 'Ids from the root: /1/7/42/' }),
    depth: z.number().int(),
    code: z.string(),
    name: z.string(),
    sort: z.number().int(),
    status: field.status,
    remark: z.string().nullable(),
  };
  /** How many records use it (computed). */
  const counted = { [usage.key]: z.number().int().optional() } as { [K in Usage]: z.ZodOptional<z.ZodNumber> };
  const Row = recordRow({ ...shape, ...counted }).openapi(spec.component);
  /** The columns (every field but the count); the rules see the rows as these and read the count by its key. */
  const Columns = recordRow(shape);
  const Stored = Row as unknown as typeof Columns;
  type Row = z.infer<typeof Stored>;
  const usedBy = (row: Row) => (row as Record<string, unknown>)[usage.key] as number | undefined;
  const Node = Stored.extend({ hasChildren: z.boolean() }).openapi(`${spec.component}Node`);

  const fields = {
    parentId: ref(spec.table)
      .nullable()
      .optional()
      .openapi({ description: 'Absent or null: a root; a change moves the subtree' }),
    code,
    name: field.requiredText(100),
    sort: field.sortOrder().optional(),
    status: field.status.optional(),
    remark: field.remark,
  };
  const Create = requestBody(`Create${spec.component}`, fields);
  type Create = z.infer<typeof Create>;
  const Update = updateBody(`Update${spec.component}`, {
    ...fields,
    code: code.optional(),
    name: fields.name.optional(),
  });
  type Update = z.infer<typeof Update>;

  const resource = defineResource({
    path: spec.path,
    type: table,
    permission: permissions.prefix,
    actions: {
      list: permissions.read,
      export: permissions.export,
      create: permissions.manage,
      update: permissions.manage,
      delete: permissions.manage,
    },
    schemas: { row: Stored, create: Create, update: Update },
    table: {
      name: table,
      columns: columnsOf(Columns),
      tenantOwned: true,
      tree: { key: 'id', parent: 'parent_id' },
      computed: { [usage.key]: usage.count(sql.ref(`${table}.id`)) },
    },
    list: {
      sort: ['code', 'name', 'sort', 'depth', 'updatedAt'],
      defaultSort: 'depth,sort,code',
      filters: {
        keyword: { kind: 'keyword', columns: ['code', 'name'] },
        parentId: { kind: 'eq', column: 'parent_id', pattern: ID_PATTERN },
        status: statusFilter,
      },
    },
    importKey: 'code',
    labels: 'assess.taxonomy',
    label: (row) => `${row.code} ${row.name}`,
    columns: [
      { key: 'code' },
      { key: 'name' },
      { key: 'path' },
      { key: 'sort' },
      { key: 'status' },
      { key: usage.key, only: 'export' },
    ],
  });
  const { repository, store: plain } = resource;

  async function checkUnique(tx: Tx, row: { code: string; name: string; parentId: string | null }, self?: string) {
    const taken = await tx
      .selectFrom(table)
      .select(['id', 'code'])
      .where((eb) =>
        eb.or([
          eb('code', '=', row.code),
          eb.and([
            eb('name', '=', row.name),
            row.parentId === null ? eb('parent_id', 'is', null) : eb('parent_id', '=', row.parentId),
          ]),
        ]),
      )
      .execute();
    return taken.find((other) => String(other.id) !== self);
  }

  const createService = (deps: ResourceDeps) => {
    async function placed(tx: Tx, parentId: string | null | undefined, lang: Lang) {
      if (!parentId) return undefined;
      const parent = await repository.find(tx, parentId);
      if (!parent) throw invalidField('parentId', texts[lang].noParent);
      return parent;
    }
    async function unique(
      tx: Tx,
      row: { code: string; name: string; parentId: string | null },
      lang: Lang,
      self?: string,
    ) {
      const other = await checkUnique(tx, row, self);
      if (other)
        throw invalidField(
          other.code === row.code ? 'code' : 'name',
          texts[lang][other.code === row.code ? 'codeTaken' : 'nameTaken'],
        );
    }

    const store: ResourceStore<Row, Create, Update> = {
      ...plain,
      async create(tx, input, ctx) {
        const parent = await placed(tx, input.parentId, ctx.lang);
        const parentId = parent?.id ?? null;
        await unique(tx, { code: input.code, name: input.name, parentId }, ctx.lang);
        const made = await repository.insert(
          tx,
          { ...input, parentId, path: parent?.path ?? '/', depth: parent ? parent.depth + 1 : 0 },
          ctx,
        );
        const path = `${parent?.path ?? '/'}${made.id}/`;
        await tx.updateTable(table).set({ path }).where('id', '=', made.id).execute();
        return (await repository.find(tx, made.id)) as Row;
      },
      async update(tx, current, input, ctx) {
        const { version, parentId: wanted, ...values } = input;
        const moving = wanted !== undefined && (wanted ?? null) !== current.parentId;
        const parent = moving ? await placed(tx, wanted, ctx.lang) : undefined;
        if (parent?.path.startsWith(current.path)) throw invalidField('parentId', texts[ctx.lang].intoItself);
        const parentId = moving ? (parent?.id ?? null) : current.parentId;
        await unique(
          tx,
          { code: values.code ?? current.code, name: values.name ?? current.name, parentId },
          ctx.lang,
          current.id,
        );
        if (!moving) return repository.update(tx, current.id, values, ctx, version);
        const path = `${parent?.path ?? '/'}${current.id}/`;
        const shift = (parent ? parent.depth + 1 : 0) - current.depth;
        const moved = await repository.update(
          tx,
          current.id,
          { ...values, parentId, path, depth: current.depth + shift },
          ctx,
          version,
        );
        if (!moved) throw versionConflict();
        await sql`UPDATE ${sql.table(table)}
          SET path = ${path} || substr(path, ${current.path.length + 1}), depth = depth + ${shift}
          WHERE path LIKE ${`${current.path}%`} AND id <> ${current.id}`.execute(tx);
        return (await repository.find(tx, current.id)) as Row;
      },
      async remove(tx, rows, ctx) {
        const ids = rows.map((r) => r.id);
        // a child deleted with its parent does not hold the parent back
        const child = await tx
          .selectFrom(table)
          .select('parent_id')
          .where('parent_id', 'in', ids)
          .where('id', 'not in', ids)
          .executeTakeFirst();
        const parent = child && rows.find((row) => row.id === String(child.parent_id));
        if (parent) throw new AppError('taxonomy.hasChildren', { name: parent.name });
        const used = rows.find((row) => (usedBy(row) ?? 0) > 0);
        if (used) throw new AppError(usage.inUse, { name: used.name, count: usedBy(used) ?? 0 });
        for (const row of [...rows].sort((a, b) => b.depth - a.depth)) await plain.remove(tx, [row], ctx);
      },
    };
    return {
      resource: createResourceService(resource, store, deps),
      /** One level of the tree, each node saying whether it has children. */
      tree: (tenantId: string, parentId?: string, status?: string) =>
        deps.tenancy.inTenant(tenantId, (tx) => repository.children(tx, parentId, status)),

      /**
       * The levels on the way to the nodes whose name or code holds `keyword` (the first SEARCHED of them, by depth):
       * the roots and the children of each of their ancestors, whole, as `tree` reads each level, so that a picker
       * that reads the tree a level at a time finds a deep node as if it had opened its way there.
       */
      search: (tenantId: string, keyword: string, status?: string) =>
        deps.tenancy.inTenant(tenantId, async (tx) => {
          const pattern = `%${keyword.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
          let q = tx
            .selectFrom(table)
            .select('path')
            .where((eb) => eb.or([eb('name', 'ilike', pattern), eb('code', 'ilike', pattern)]));
          if (status) q = q.where('status', '=', status as CommonStatus);
          const hits = await q.orderBy('depth').orderBy('sort').limit(SEARCHED).execute();
          if (hits.length === 0) return [];
          // the parents of the levels: every ancestor of a hit (its path without itself)
          const parents = new Set<string>();
          for (const { path } of hits) for (const id of path.split('/').filter(Boolean).slice(0, -1)) parents.add(id);
          const levels = [await repository.children(tx, undefined, status)];
          for (const parent of parents) levels.push(await repository.children(tx, parent, status));
          // a level under a node left out (not of `status`) is left out with it
          const kept = new Set<string>();
          return levels.flat().filter((node) => {
            const placed = node.parentId === null || kept.has(node.parentId);
            if (placed) kept.add(node.id);
            return placed;
          });
        }),
    };
  };

  const tree = defineRoute({
    method: 'get',
    path: `/${spec.path}/tree`,
    tags: [spec.path],
    summary:
      'One level of the tree (the roots, or the children of `parentId`), each with `hasChildren`; with `keyword`, the levels on the way to the nodes whose name or code holds it',
    permission: permissions.read,
    request: {
      query: z
        .object({
          parentId: Id.optional().openapi({ description: 'Absent: the roots' }),
          status: field.status.optional(),
          keyword: z.string().trim().min(1).max(50).optional().openapi({
            description: 'Instead of one level: the roots and the levels under each ancestor of the matches',
          }),
        })
        .strict(),
    },
    responses: answers('Nodes', z.array(Node), 400, 401, 403),
  });

  return {
    resource,
    Row,
    Create,
    Update,
    module: resourceModule(resource, {
      service: createService,
      omit: ['import', 'template'],
      routes: (service) =>
        new OpenAPIHono<AppEnv>().openapi(tree, async (c) => {
          const { parentId, status, keyword } = c.req.valid('query');
          const tenant = c.var.principal.tenantId;
          if (keyword) return c.json(await service.search(tenant, keyword, status), 200);
          return c.json(await service.tree(tenant, parentId, status), 200);
        }),
    }),
  };
}

/** The bank's trees: read with its questions, held back by the questions that use them. */
const bank = { prefix: 'assess:category', read: 'assess:question:list', export: 'assess:question:export' } as const;
const questionUsage = { key: 'questionCount', inUse: 'taxonomy.inUse' } as const;

/** The bank's category tree: a question sits in one category. */
export const categoryTaxonomy = defineTaxonomy({
  table: 'question_category',
  path: 'assess/category',
  component: 'QuestionCategory',
  permissions: { ...bank, manage: 'assess:category:manage' },
  usage: {
    ...questionUsage,
    // with its sub-categories' (a question sits in one category: none is counted twice)
    count: (id) =>
      sql<number>`(SELECT count(*)::int FROM question q JOIN question_category c ON c.id = q.category_id
      WHERE c.path LIKE (SELECT n.path FROM question_category n WHERE n.id = ${id}) || '%' AND q.parent_id IS NULL)`,
  },
});
export const questionCategories = categoryTaxonomy.module;
export type QuestionCategory = z.infer<typeof categoryTaxonomy.Row>;
export type CreateQuestionCategory = z.infer<typeof categoryTaxonomy.Create>;
export type UpdateQuestionCategory = z.infer<typeof categoryTaxonomy.Update>;

/** The syllabus's knowledge points: a question names any of them. */
export const knowledgeTaxonomy = defineTaxonomy({
  table: 'knowledge_point',
  path: 'assess/knowledge-point',
  component: 'KnowledgePoint',
  permissions: { ...bank, manage: 'assess:knowledge:manage' },
  usage: {
    ...questionUsage,
    count: (id) =>
      sql<number>`(SELECT count(*)::int FROM question q
      WHERE q.knowledge_point_ids @> ARRAY[${id}]::bigint[] AND q.parent_id IS NULL)`,
  },
});
export const knowledgePoints = knowledgeTaxonomy.module;
export type KnowledgePoint = z.infer<typeof knowledgeTaxonomy.Row>;
export type CreateKnowledgePoint = z.infer<typeof knowledgeTaxonomy.Create>;
export type UpdateKnowledgePoint = z.infer<typeof knowledgeTaxonomy.Update>;
