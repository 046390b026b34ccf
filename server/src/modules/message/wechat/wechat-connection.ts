import type { Config } from '../../../config';
import { AppError, notFound } from '../../../core/errors';
import { createSecretBox } from '../../../core/secret-box';
import type { Tenancy, Tx } from '../../../core/tenancy';
import type { SettingsService } from '../../system/settings/settings.service';
import {
  createWechatClient,
  type TokenCache,
  WechatApiError,
  type WechatClient,
  WechatUnreachableError,
} from './wechat-client';

export const WECHAT_API_BASE = 'https://api.weixin.qq.com';

export interface WechatConnectionDeps {
  tenancy: Tenancy;
  settings: Pick<SettingsService, 'strings' | 'numbers'>;
  config: Pick<Config, 'idNumberKey'>;
  /** By default the process's (tokens live as long as WeChat says, whoever asks). */
  tokens?: TokenCache;
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
 * settings (`message.wechat.apiBaseUrl`, `message.wechat.timeoutMs`), an access token per app id.
 */
export function createWechatConnections(deps: WechatConnectionDeps) {
  if (!deps.config.idNumberKey) throw new Error('the master key is resolved before the services');
  const secrets = createSecretBox(deps.config.idNumberKey, 'wechat secret');

  async function options(tx: Tx) {
    const { 'message.wechat.apiBaseUrl': baseUrl } = await deps.settings.strings(tx, {
      'message.wechat.apiBaseUrl': WECHAT_API_BASE,
    });
    const { 'message.wechat.timeoutMs': timeoutMs } = await deps.settings.numbers(tx, {
      'message.wechat.timeoutMs': 5000,
    });
    if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) throw new AppError('wechat.unreachable', { reason: 'no API address' });
    return { baseUrl, timeoutMs, tokens: deps.tokens };
  }

  return {
    secrets,

    /** The enabled account `id` of the tenant with its client (404 when the tenant has no such account). */
    open: (tenantId: string, id: string): Promise<OpenAccount> =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        const row = await tx
          .selectFrom('wechat_account')
          .select(['id', 'name', 'app_id', 'app_secret_enc', 'status'])
          .where('id', '=', id)
          .executeTakeFirst();
        if (!row) throw notFound();
        if (row.status !== 'enabled' || !row.app_secret_enc)
          throw new AppError('wechat.accountDisabled', { name: row.name });
        const credentials = { appId: row.app_id, appSecret: secrets.open(row.app_secret_enc) };
        return {
          id: String(row.id),
          name: row.name,
          appId: row.app_id,
          client: createWechatClient(credentials, await options(tx)),
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
