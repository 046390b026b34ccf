import { sql } from 'kysely';
import { invalidField, versionConflict } from '../../../core/errors';
import type { ListQuery } from '../../../core/resource/list-query';
import type { WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps, versionedAct } from '../../../core/resource/resource.service';
import type { Narrow } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import { callWechat, type WechatConnections } from '../wechat/wechat-connection';
import { type BindFollower, type FollowerRemark, followerResource, type TagFollowers } from './follower.resource';
import { chunks } from './follower-sync';

const texts = {
  'zh-CN': { noPerson: '不是本机构现有的人员', otherAccount: '包含不属于该公众号的关注者' },
  'en-US': { noPerson: 'is not an existing record of the tenant', otherAccount: 'names followers of another account' },
};

/** WeChat tags 50 followers at a time. */
const TAG_BATCH = 50;

/** The filters the table does not apply by a column: bound or not, carries a tag. */
const narrowOf =
  (query: ListQuery): Narrow =>
  (qb) => {
    let q = qb;
    for (const { name, value } of query.filters) {
      if (value.kind !== 'eq') continue;
      if (name === 'bound') q = q.where('bound_person_id', value.value === 'true' ? 'is not' : 'is', null);
      if (name === 'tagId') q = q.where(sql<boolean>`follower.tag_ids @> ARRAY[${value.value}]::bigint[]`);
    }
    return q;
  };

/**
 * Followers (docs/domain.md §6.3): read from WeChat by a sync of their account, bound to a trainee, staff member or
 * doctor of the tenant, tagged and given a remark on WeChat first, then here.
 */
export function createFollowerService(deps: ResourceDeps & { wechat: WechatConnections }) {
  const { store: plain, repository } = followerResource;
  const store: typeof plain = {
    ...plain,
    list: (tx, query) => repository.list(tx, query, narrowOf(query)),
  };
  const resource = createResourceService(followerResource, store, deps);
  const act = versionedAct(resource, repository, (tx, id) => repository.find(tx, id));

  async function checkPerson(tx: Tx, { personType, personId }: BindFollower, ctx: WriteContext) {
    const found = await tx.selectFrom(personType).select('id').where('id', '=', personId).executeTakeFirst();
    if (!found) throw invalidField('personId', texts[ctx.lang].noPerson);
  }

  /** The followers `ids` of the account (all of them, else 400), their openids. */
  async function followersOf(tx: Tx, accountId: string, ids: readonly string[], ctx: WriteContext) {
    const wanted = [...new Set(ids)];
    const rows = await tx
      .selectFrom('follower')
      .select(['id', 'openid', 'wechat_account_id'])
      .where('id', 'in', wanted)
      .execute();
    if (rows.length !== wanted.length || rows.some((r) => String(r.wechat_account_id) !== accountId))
      throw invalidField('ids', texts[ctx.lang].otherAccount);
    return rows;
  }

  return {
    resource,

    bind: (ctx: WriteContext, id: string, input: BindFollower) =>
      act(ctx, id, 'bind', input.version, async (tx) => {
        await checkPerson(tx, input, ctx);
        return { boundPersonType: input.personType, boundPersonId: input.personId, boundAt: ctx.now };
      }),

    unbind: (ctx: WriteContext, id: string, version: number) =>
      act(ctx, id, 'bind', version, async () => ({ boundPersonType: null, boundPersonId: null, boundAt: null })),

    /** The remark is set on WeChat first: a follower WeChat refuses keeps its own. */
    async remark(ctx: WriteContext, id: string, { remark, version }: FollowerRemark) {
      const row = await resource.get(ctx.tenantId, id);
      if (row.version !== version) throw versionConflict();
      const { client } = await deps.wechat.open(ctx.tenantId, row.wechatAccountId);
      await callWechat(() => client.setRemark(row.openid, remark));
      return act(ctx, id, 'update', version, async () => ({ remark: remark || null }));
    },

    /** Tags (or untags) followers of one account on WeChat, 50 at a time, then here; all of them, or none here. */
    async tag(ctx: WriteContext, { accountId, ids, tagId, mode }: TagFollowers) {
      const { client } = await deps.wechat.open(ctx.tenantId, accountId);
      const rows = await deps.tenancy.inTenant(ctx.tenantId, (tx) => followersOf(tx, accountId, ids, ctx));
      await callWechat(async () => {
        for (const batch of chunks(rows, TAG_BATCH))
          await client.tagFollowers(
            tagId,
            batch.map((r) => r.openid),
            mode === 'remove',
          );
      });
      return deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
        const tag = String(tagId);
        const change =
          mode === 'add'
            ? sql<
                string[]
              >`CASE WHEN ${tag}::bigint = ANY(tag_ids) THEN tag_ids ELSE array_append(tag_ids, ${tag}::bigint) END`
            : sql<string[]>`array_remove(tag_ids, ${tag}::bigint)`;
        await tx
          .updateTable('follower')
          .set({
            tag_ids: change,
            updated_at: ctx.now,
            updated_by: ctx.actorId,
            version: sql<number>`version + 1`,
          })
          .where(
            'id',
            'in',
            rows.map((r) => String(r.id)),
          )
          .execute();
        await deps.audit.recordMany(tx, ctx, rows, (r) => ({
          action: 'message:follower:update',
          resourceType: followerResource.type,
          resourceId: String(r.id),
          summary: `${r.openid} · ${mode === 'add' ? '+' : '-'}tag ${tag}`,
        }));
        return { updated: rows.length };
      });
    },
  };
}

export type FollowerService = ReturnType<typeof createFollowerService>;
