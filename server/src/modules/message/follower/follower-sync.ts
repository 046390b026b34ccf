import { sql } from 'kysely';
import type { WriteContext } from '../../../core/resource/resource';
import type { Tenancy, Tx } from '../../../core/tenancy';
import type { WechatUser } from '../wechat/wechat-client';
import { callWechat, type WechatConnections } from '../wechat/wechat-connection';
import type { SubscribeStatus } from './follower.resource';

/** WeChat reads profiles 100 at a time. */
const INFO_BATCH = 100;
/** Rows written per statement by a sync. */
const WRITE_BATCH = 500;
/** At most this many pages of 10,000 openids are read by one sync (a million followers). */
const MAX_PAGES = 100;

export const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

const seconds = (value: number | undefined) => (value ? new Date(value * 1000) : null);

/** A follower's columns as WeChat's profile gives them. */
const profileOf = (user: WechatUser) => ({
  unionid: user.unionid ?? null,
  nickname: user.nickname || null,
  avatar_url: user.headimgurl || null,
  subscribe_time: seconds(user.subscribe_time),
  language: user.language || null,
  country: user.country || null,
  province: user.province || null,
  city: user.city || null,
  remark: user.remark || null,
  tag_ids: (user.tagid_list ?? []).map(String),
});

export interface SyncCounts {
  total: number;
  added: number;
  updated: number;
  unsubscribed: number;
}

/**
 * Reads the account's followers from WeChat (outside any transaction) and writes them in `tx`. Both modes read
 * every openid WeChat lists (10,000 a call) and mark the known followers it no longer lists unsubscribed; `full`
 * reads every listed follower's profile again, `incremental` only those of followers not known yet or come back.
 */
export async function readFollowers(
  deps: { tenancy: Tenancy; wechat: WechatConnections },
  tenantId: string,
  accountId: string,
  mode: 'full' | 'incremental',
): Promise<(tx: Tx, ctx: WriteContext) => Promise<SyncCounts>> {
  const { client } = await deps.wechat.open(tenantId, accountId);
  const listed: string[] = [];
  await callWechat(async () => {
    let next = '';
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const answer = await client.followerPage(next);
      const openids = answer.data?.openid ?? [];
      listed.push(...openids);
      if (openids.length === 0 || !answer.next_openid || listed.length >= answer.total) return;
      next = answer.next_openid;
    }
  });
  const known = new Map(
    (
      await deps.tenancy.inTenant(tenantId, (tx) =>
        tx
          .selectFrom('follower')
          .select(['openid', 'subscribe_status'])
          .where('wechat_account_id', '=', accountId)
          .execute(),
      )
    ).map((r) => [r.openid, r.subscribe_status as SubscribeStatus]),
  );
  const wanted = new Set(mode === 'full' ? listed : listed.filter((openid) => known.get(openid) !== 'subscribed'));
  const users: WechatUser[] = [];
  await callWechat(async () => {
    for (const batch of chunks([...wanted], INFO_BATCH)) users.push(...(await client.users(batch)));
  });
  const following = users.filter((u) => u.subscribe === 1);
  // still following: those whose profile says so, and (incremental) the known ones not read again
  const listedNow = new Set(following.map((u) => u.openid));
  for (const openid of listed) if (!wanted.has(openid)) listedNow.add(openid);
  const gone = [...known].filter(([openid, status]) => status === 'subscribed' && !listedNow.has(openid));

  return async (tx, ctx) => {
    for (const batch of chunks(following, WRITE_BATCH)) {
      await tx
        .insertInto('follower')
        .values(
          batch.map((u) => ({
            tenant_id: ctx.tenantId,
            wechat_account_id: accountId,
            openid: u.openid,
            subscribe_status: 'subscribed' as const,
            created_by: ctx.actorId,
            ...profileOf(u),
          })),
        )
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'wechat_account_id', 'openid']).doUpdateSet((eb) => ({
            unionid: eb.ref('excluded.unionid'),
            nickname: eb.ref('excluded.nickname'),
            avatar_url: eb.ref('excluded.avatar_url'),
            subscribe_time: eb.ref('excluded.subscribe_time'),
            language: eb.ref('excluded.language'),
            country: eb.ref('excluded.country'),
            province: eb.ref('excluded.province'),
            city: eb.ref('excluded.city'),
            remark: eb.ref('excluded.remark'),
            tag_ids: eb.ref('excluded.tag_ids'),
            subscribe_status: 'subscribed',
            unsubscribe_time: null,
            updated_at: ctx.now,
            updated_by: ctx.actorId,
            version: sql<number>`follower.version + 1`,
          })),
        )
        .execute();
    }
    for (const batch of chunks(gone, WRITE_BATCH))
      await tx
        .updateTable('follower')
        .set({
          subscribe_status: 'unsubscribed',
          unsubscribe_time: ctx.now,
          updated_at: ctx.now,
          updated_by: ctx.actorId,
          version: sql<number>`version + 1`,
        })
        .where('wechat_account_id', '=', accountId)
        .where(
          'openid',
          'in',
          batch.map(([openid]) => openid),
        )
        .execute();
    const added = following.filter((u) => !known.has(u.openid)).length;
    return { total: listed.length, added, updated: following.length - added, unsubscribed: gone.length };
  };
}
