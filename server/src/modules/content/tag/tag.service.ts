import { sql } from 'kysely';
import { AppError, invalidField, versionConflict } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import {
  type CreateTag,
  type MergeTags,
  type Tag,
  type TagOption,
  type TagScope,
  tagResource,
  type UpdateTag,
} from './tag.resource';

const texts = {
  'zh-CN': {
    nameTaken: '同一范围内已有同名标签',
    noSource: '包含不存在的标签',
    self: '不能将标签合并到自身',
    otherScope: '只能合并同一范围的标签',
  },
  'en-US': {
    nameTaken: 'another tag of this scope has this name',
    noSource: 'names a tag that does not exist',
    self: 'must not name the tag merged into',
    otherScope: 'names a tag of another scope',
  },
};

/** Sets the usage count of `tagIds` to the links they have (after links were added, removed or rewritten). */
export async function recountTags(tx: Tx, tagIds: readonly string[]): Promise<void> {
  if (tagIds.length === 0) return;
  await tx
    .updateTable('tag')
    .set({
      usage_count: sql`(SELECT count(*)::int FROM document_tag dt WHERE dt.tag_id = tag.id)`,
    })
    .where('id', 'in', [...new Set(tagIds)])
    .execute();
}

/**
 * Tags' rules (docs/domain.md §5.3): a name unique within its scope; a tag in use is not deleted until it is detached
 * (after the user confirms); merging rewrites the links of the tags merged to the tag kept, keeps their names as its
 * aliases and deletes them; options for autocomplete by scope and name (or alias).
 */
export function createTagService(deps: ResourceDeps) {
  const { store: plain, repository } = tagResource;

  async function checkName(tx: Tx, input: { name?: string; scope?: TagScope }, current: Tag | undefined, lang: Lang) {
    const name = input.name ?? current?.name;
    const scope = input.scope ?? current?.scope ?? 'document';
    if (!name || (current && name === current.name && scope === current.scope)) return;
    const other = await tx
      .selectFrom('tag')
      .select('id')
      .where('scope', '=', scope)
      .where('name', '=', name)
      .executeTakeFirst();
    if (other && String(other.id) !== current?.id) throw invalidField('name', texts[lang].nameTaken);
  }

  const store: ResourceStore<Tag, CreateTag, UpdateTag> = {
    ...plain,
    async create(tx, input, ctx) {
      await checkName(tx, input, undefined, ctx.lang);
      return plain.create(tx, input, ctx);
    },
    async update(tx, current, input, ctx) {
      await checkName(tx, input, current, ctx.lang);
      return plain.update(tx, current, input, ctx);
    },
    async remove(tx, rows, ctx) {
      for (const row of rows) {
        const { count } = await tx
          .selectFrom('document_tag')
          .select(sql<number>`count(*)::int`.as('count'))
          .where('tag_id', '=', row.id)
          .executeTakeFirstOrThrow();
        if (count > 0) throw new AppError('tag.inUse', { name: row.name, count });
      }
      return plain.remove(tx, rows, ctx);
    },
  };

  const resource = createResourceService(tagResource, store, deps);

  const reread = async (tx: Tx, id: string, ctx: WriteContext) => {
    await repository.update(tx, id, {}, ctx);
    return (await repository.find(tx, id)) as Tag;
  };

  return {
    resource,

    /** The tags merged into the tag kept: their links rewritten (once per record), their names kept as its aliases. */
    merge(ctx: WriteContext, id: string, { sourceIds, version }: MergeTags) {
      let merged = '';
      return resource.act(
        ctx,
        id,
        'merge',
        async (tx, target) => {
          if (target.version !== version) throw versionConflict();
          const t = texts[ctx.lang];
          const ids = [...new Set(sourceIds)];
          if (ids.includes(id)) throw invalidField('sourceIds', t.self);
          const found = await repository.findAllBy(tx, 'id', ids);
          const sources = ids.flatMap((sourceId) => found.filter((s) => s.id === sourceId));
          if (sources.length !== ids.length) throw invalidField('sourceIds', t.noSource);
          if (sources.some((s) => s.scope !== target.scope)) throw invalidField('sourceIds', t.otherScope);
          await sql`INSERT INTO document_tag (tenant_id, document_id, tag_id)
            SELECT tenant_id, document_id, ${id}::bigint FROM document_tag WHERE tag_id = ANY(${ids}::bigint[])
            ON CONFLICT (tenant_id, document_id, tag_id) DO NOTHING`.execute(tx);
          await tx.deleteFrom('document_tag').where('tag_id', 'in', ids).execute();
          const aliases = [...new Set([...target.aliases, ...sources.flatMap((s) => [s.name, ...s.aliases])])].filter(
            (name) => name !== target.name,
          );
          await tx.updateTable('tag').set({ aliases }).where('id', '=', id).execute();
          await repository.remove(tx, ids, ctx);
          await recountTags(tx, [id]);
          merged = sources.map((s) => s.name).join(', ');
          return reread(tx, id, ctx);
        },
        () => `← ${merged}`,
      );
    },

    /** Takes the tag off every record that carries it (the user confirmed), so that it may be deleted. */
    detach(ctx: WriteContext, id: string, version: number) {
      let detached = 0;
      return resource.act(
        ctx,
        id,
        'delete',
        async (tx, row) => {
          if (row.version !== version) throw versionConflict();
          const removed = await tx.deleteFrom('document_tag').where('tag_id', '=', id).executeTakeFirst();
          detached = Number(removed.numDeletedRows);
          await recountTags(tx, [id]);
          return reread(tx, id, ctx);
        },
        () => `detached ${detached}`,
      );
    },

    /** Enabled tags of a scope (and `general` ones) whose name or alias contains `q`, by usage: autocomplete. */
    options: (tenantId: string, scope: TagScope | undefined, q: string | undefined) =>
      deps.tenancy.inTenant(tenantId, async (tx): Promise<TagOption[]> => {
        let query = tx
          .selectFrom('tag')
          .select(['id', 'name', 'color', 'group_name'])
          .where('status', '=', 'enabled')
          .orderBy('usage_count', 'desc')
          .orderBy('name')
          .limit(50);
        if (scope) query = query.where('scope', 'in', [scope, 'general']);
        if (q) {
          const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
          query = query.where((eb) =>
            eb.or([
              eb('name', 'ilike', pattern),
              eb.exists(sql`(SELECT 1 FROM unnest(tag.aliases) a WHERE a ILIKE ${pattern})`),
            ]),
          );
        }
        const rows = await query.execute();
        return rows.map((r) => ({ value: String(r.id), label: r.name, color: r.color, groupName: r.group_name }));
      }),
  };
}

export type TagService = ReturnType<typeof createTagService>;
