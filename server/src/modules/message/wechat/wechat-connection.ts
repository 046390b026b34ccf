import type { Config } from '../../../config';
import { AppError, notFound } from '../../../core/errors';
import { keyRingOf } from '../../../core/seal';
import { createSecretBox } from '../../../core/secret-box';
import type { Tenancy, Tx } from '../../../core/tenancy';
import type { SettingsService } from '../../system/settings/settings.service';
import {
  createWechatClient,
  REFRESH_MARGIN_MS,
  type TokenStore,
  WechatApiError,
  type WechatClient,
  WechatUnreachableError,
} from './wechat-client';
import { accountWithToken, type KeptToken, keepToken, lockedToken } from './wechat-token.repository';

export const WECHAT_API_BASE = 'https://api.weixin.qq.com';

export interface WechatConnectionDeps {
  tenancy: Tenancy;
  settings: Pick<SettingsService, 'strings' | 'numbers'>;
  config: Pick<Config, 'idNumberKey'> & Partial<Pick<Config, 'previousIdNumberKeys'>>;
}

/** A tenant's account, opened: what it is and its client. */
export interface OpenAccount {
  id: string;
  name: string;
  appId: string;
  client: WechatClient;
}

/**
 * How the platform reaches a tenant's official account: its sealed secret opened, the API base and timeout of the
 * settings (`message.wechat.apiBaseUrl`, `message.wechat.timeoutMs`), and the account's access token, kept sealed on
 * its row for every instance: WeChat retires a token when another is made, so a token kept per process would be
 * retired by each other instance's refresh. The next token is fetched under the row's lock, by one instance; the
 * others wait for it and use the one it kept.
 */
export function createWechatConnections(deps: WechatConnectionDeps) {
  const secrets = createSecretBox(keyRingOf(deps.config), 'wechat secret');

  async function options(tx: Tx) {
    const { 'message.wechat.apiBaseUrl': baseUrl } = await deps.settings.strings(tx, {
      'message.wechat.apiBaseUrl': WECHAT_API_BASE,
    });
    const { 'message.wechat.timeoutMs': timeoutMs } = await deps.settings.numbers(tx, {
      'message.wechat.timeoutMs': 5000,
    });
    if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) throw new AppError('wechat.unreachable', { reason: 'no API address' });
    return { baseUrl, timeoutMs };
  }

  /** The token of `kept` if it is fresh and was fetched for `key` (the API address, the app id and its secret). */
  const opened = (kept: KeptToken | undefined, key: string): string | undefined => {
    if (!kept?.sealed || !kept.fresh) return undefined;
    try {
      const value = JSON.parse(secrets.open(kept.sealed)) as { key?: string; token?: string };
      return value.key === key ? value.token : undefined;
    } catch {
      return undefined; // sealed under another master key: fetched again
    }
  };

  /**
   * The token store of one account: the token read with the account while it is fresh; else, in a transaction that
   * locks the row, the one kept meanwhile by another instance, or one fetched now and kept (the lock is held for one
   * call to WeChat, at most its timeout).
   */
  const rowTokens = (tenantId: string, accountId: string, read: KeptToken): TokenStore => ({
    async get({ key, fetch, refused }) {
      const known = opened(read, key);
      if (known && known !== refused) return known;
      return deps.tenancy.inTenant(tenantId, async (tx) => {
        const current = opened(await lockedToken(tx, accountId), key);
        if (current && current !== refused) return current;
        const fetched = await fetch();
        const seconds = Math.max(fetched.expiresIn - REFRESH_MARGIN_MS / 1000, 0);
        await keepToken(tx, accountId, secrets.seal(JSON.stringify({ key, token: fetched.token })), seconds);
        return fetched.token;
      });
    },
  });

  return {
    secrets,

    /** The enabled account `id` of the tenant with its client (404 when the tenant has no such account). */
    open: (tenantId: string, id: string): Promise<OpenAccount> =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        const row = await accountWithToken(tx, id);
        if (!row) throw notFound();
        if (row.status !== 'enabled' || !row.app_secret_enc)
          throw new AppError('wechat.accountDisabled', { name: row.name });
        const credentials = { appId: row.app_id, appSecret: secrets.open(row.app_secret_enc) };
        return {
          id: String(row.id),
          name: row.name,
          appId: row.app_id,
          client: createWechatClient(credentials, {
            ...(await options(tx)),
            tokens: rowTokens(tenantId, String(row.id), row),
          }),
        };
      }),
  };
}

export type WechatConnections = ReturnType<typeof createWechatConnections>;

/** What WeChat answered, as the API's error: unreachable or refused (both 502: the fault is not the caller's). */
export function wechatFailure(err: unknown): unknown {
  if (err instanceof WechatUnreachableError) return new AppError('wechat.unreachable', { reason: err.message });
  if (err instanceof WechatApiError)
    return new AppError('wechat.refused', { errcode: err.errcode, errmsg: err.errmsg });
  return err;
}

/** Runs calls to WeChat, their failures answered as the API's errors. */
export async function callWechat<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw wechatFailure(err);
  }
}
