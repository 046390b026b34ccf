import { invalidField, isUniqueViolation } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import { readFollowers } from '../follower/follower-sync';
import {
  type CreateWechatAccount,
  type SyncFollowers,
  type SyncReport,
  type UpdateWechatAccount,
  type WechatAccount,
  wechatAccountResource,
} from './wechat-account.resource';
import type { WechatTag } from './wechat-client';
import { callWechat, type WechatConnections } from './wechat-connection';

const texts = {
  'zh-CN': { appIdTaken: '已有使用该 AppID 的公众号' },
  'en-US': { appIdTaken: 'another official account has this app id' },
};

/**
 * A tenant's WeChat official accounts (docs/domain.md §6.3): an app id once per tenant, the app secret and AES key
 * sealed at rest and never answered (only whether they are set); a sync reads its followers from WeChat, and its tags.
 */
export function createWechatAccountService(deps: ResourceDeps & { wechat: WechatConnections }) {
  const { store: plain, repository } = wechatAccountResource;
  const { secrets } = deps.wechat;

  /** The input as stored: the secrets sealed into their write-only columns (null clears the AES key). */
  const sealed = <T extends Partial<CreateWechatAccount>>({ appSecret, aesKey, ...rest }: T) => ({
    ...rest,
    ...(appSecret !== undefined && { appSecretEnc: secrets.seal(appSecret) }),
    ...(aesKey !== undefined && { aesKeyEnc: aesKey === null ? null : secrets.seal(aesKey) }),
  });

  const unique = async <T>(lang: Lang, write: () => Promise<T>) => {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw invalidField('appId', texts[lang].appIdTaken);
      throw err;
    }
  };

  /** A row as written, with what is computed (secrets set, followers), which a write does not answer. */
  const reread = async (tx: Tx, row: WechatAccount) => (await repository.find(tx, row.id)) ?? row;

  const store: ResourceStore<WechatAccount, CreateWechatAccount, UpdateWechatAccount> = {
    ...plain,
    createMany: undefined,
    async create(tx, input, ctx) {
      return reread(tx, await unique(ctx.lang, () => plain.create(tx, sealed(input) as CreateWechatAccount, ctx)));
    },
    async update(tx, current, input, ctx) {
      const row = await unique(ctx.lang, () => plain.update(tx, current, sealed(input) as UpdateWechatAccount, ctx));
      return row && reread(tx, row);
    },
  };
  const resource = createResourceService(wechatAccountResource, store, deps);

  /** Keeps the tags WeChat answered, and when followers were read: no edit of the account, its version stays. */
  const remember = (tx: Tx, id: string, values: { tags: WechatTag[]; lastSyncedAt?: Date }) =>
    tx
      .updateTable('wechat_account')
      .set({
        tags: JSON.stringify(values.tags),
        ...(values.lastSyncedAt && { last_synced_at: values.lastSyncedAt }),
      })
      .where('id', '=', id)
      .execute();

  const readTags = async (tenantId: string, id: string) => {
    const { client } = await deps.wechat.open(tenantId, id);
    return callWechat(() => client.tags());
  };

  return {
    resource,

    /** The account's tags as WeChat has them now (kept on the account for the follower list). */
    async tags(tenantId: string, id: string): Promise<WechatTag[]> {
      const tags = await readTags(tenantId, id);
      await deps.tenancy.inTenant(tenantId, (tx) => remember(tx, id, { tags }));
      return tags;
    },

    /**
     * Reads the followers (and tags) from WeChat, then writes them in one transaction, audited as the account's sync.
     * Runs within the request: bounded by WeChat's paging (10,000 openids, 100 profiles a call) and the API timeout.
     */
    async sync(ctx: WriteContext, id: string, { mode }: SyncFollowers): Promise<SyncReport> {
      await resource.get(ctx.tenantId, id);
      const write = await readFollowers(deps, ctx.tenantId, id, mode);
      const tags = await readTags(ctx.tenantId, id);
      let report: SyncReport = { mode, total: 0, added: 0, updated: 0, unsubscribed: 0 };
      await resource.act(
        ctx,
        id,
        'sync',
        async (tx, row) => {
          report = { mode, ...(await write(tx, ctx)) };
          await remember(tx, id, { tags, lastSyncedAt: ctx.now });
          return (await repository.find(tx, id)) ?? row;
        },
        () => `${mode}: +${report.added} ~${report.updated} -${report.unsubscribed} of ${report.total}`,
      );
      return report;
    },
  };
}

export type WechatAccountService = ReturnType<typeof createWechatAccountService>;
