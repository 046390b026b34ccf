import { createHash } from 'node:crypto';

/**
 * The WeChat official-account API (https://developers.weixin.qq.com/doc/offiaccount), as far as the platform uses it:
 * access tokens, followers, tags, remarks and template messages. Every answer that carries a non-zero `errcode` becomes
 * a `WechatApiError`; a network failure, a timeout, a 5xx or an answer that is not JSON becomes a
 * `WechatUnreachableError`.
 */

/** errcodes the platform acts on. */
export const WECHAT_ERRCODE = {
  /** System busy: try again later. */
  busy: -1,
  invalidCredential: 40001,
  invalidToken: 40014,
  tokenExpired: 42001,
  /** Daily call quota reached. */
  rateLimited: 45009,
  /** The user does not follow the account (any more). */
  notFollowing: 43004,
} as const;

const TOKEN_ERRCODES: ReadonlySet<number> = new Set([
  WECHAT_ERRCODE.invalidCredential,
  WECHAT_ERRCODE.invalidToken,
  WECHAT_ERRCODE.tokenExpired,
]);

/** WeChat refused a call: its `errcode` and `errmsg`. */
export class WechatApiError extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
  ) {
    super(`WeChat error ${errcode}: ${errmsg}`);
    this.name = 'WechatApiError';
  }
}

/** WeChat could not be reached or answered no usable answer (timeout, 5xx, not JSON). */
export class WechatUnreachableError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'WechatUnreachableError';
  }
}

export interface WechatCredentials {
  appId: string;
  appSecret: string;
}

/** A follower's profile as `user/info/batchget` answers it (`subscribe` 0: no longer following, only openid). */
export interface WechatUser {
  subscribe: number;
  openid: string;
  unionid?: string;
  nickname?: string;
  headimgurl?: string;
  language?: string;
  country?: string;
  province?: string;
  city?: string;
  subscribe_time?: number;
  remark?: string;
  tagid_list?: number[];
}

export interface WechatTag {
  id: number;
  name: string;
  count: number;
}

export interface TemplateMessage {
  openid: string;
  templateId: string;
  data: Record<string, { value: string }>;
  url?: string;
  miniprogram?: { appid: string; pagepath?: string };
}

/** An access token as WeChat gives it: the value, and how many seconds it lasts. */
export interface FetchedToken {
  token: string;
  expiresIn: number;
}

/**
 * Where a client keeps its account's access token (WeChat limits how often one is made, and a new one retires the one
 * before): `get` answers the kept token of `key` while it is fresh and is not the one WeChat just `refused`, else the
 * one `fetch` makes. The server keeps them in the database, on the account's row (wechat-connection.ts), so that
 * every instance uses the same one.
 */
export interface TokenStore {
  get(request: { key: string; now: number; fetch: () => Promise<FetchedToken>; refused?: string }): Promise<string>;
}

/** A token is fetched again this long before WeChat says it expires. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

/** Tokens in this process's memory, each fetched once by whoever asks first (a client without a store of its own). */
export function createTokenCache(): TokenStore {
  const kept = new Map<string, { value: Promise<string>; token?: string; refreshAt: number }>();
  return {
    get({ key, now, fetch, refused }) {
      const cached = kept.get(key);
      if (cached && cached.refreshAt > now && (refused === undefined || cached.token !== refused)) return cached.value;
      const entry: { value: Promise<string>; token?: string; refreshAt: number } = {
        value: fetch().then((answer) => {
          entry.token = answer.token;
          entry.refreshAt = now + Math.max(answer.expiresIn * 1000 - REFRESH_MARGIN_MS, 0);
          return answer.token;
        }),
        refreshAt: Number.POSITIVE_INFINITY,
      };
      // a failed fetch is not kept: the next call tries again
      entry.value.catch(() => {
        if (kept.get(key) === entry) kept.delete(key);
      });
      kept.set(key, entry);
      return entry.value;
    },
  };
}
const processTokens = createTokenCache();

export interface WechatClientOptions {
  /** e.g. `https://api.weixin.qq.com` (setting `message.wechat.apiBaseUrl`). */
  baseUrl: string;
  timeoutMs: number;
  tokens?: TokenStore;
  now?: () => number;
}

type Query = Record<string, string>;

export function createWechatClient(credentials: WechatCredentials, options: WechatClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const tokens = options.tokens ?? processTokens;
  const now = options.now ?? Date.now;
  // the secret is part of the key: a tenant that names another's app id without its secret never gets its token
  const cacheKey = `${base} ${credentials.appId} ${createHash('sha256').update(credentials.appSecret).digest('base64url')}`;

  async function call<T>(path: string, query: Query, body?: unknown): Promise<T> {
    const url = `${base}/cgi-bin/${path}?${new URLSearchParams(query)}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? undefined : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      const reason = err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : 'not reachable';
      throw new WechatUnreachableError(`${path}: ${reason}`);
    }
    if (!res.ok) throw new WechatUnreachableError(`${path}: HTTP ${res.status}`, res.status);
    let answer: { errcode?: number; errmsg?: string };
    try {
      answer = (await res.json()) as typeof answer;
    } catch {
      throw new WechatUnreachableError(`${path}: the answer is not JSON`, res.status);
    }
    if (typeof answer !== 'object' || answer === null)
      throw new WechatUnreachableError(`${path}: the answer is not an object`);
    if (answer.errcode) throw new WechatApiError(answer.errcode, answer.errmsg ?? '');
    return answer as T;
  }

  const fetchToken = async (): Promise<FetchedToken> => {
    const answer = await call<{ access_token: string; expires_in: number }>('token', {
      grant_type: 'client_credential',
      appid: credentials.appId,
      secret: credentials.appSecret,
    });
    return { token: answer.access_token, expiresIn: answer.expires_in };
  };

  /** The account's token; `refused`: the one WeChat just refused, replaced unless another call already did. */
  const token = (refused?: string): Promise<string> =>
    tokens.get({ key: cacheKey, now: now(), fetch: fetchToken, refused });

  /** A call with the account's access token; a token WeChat no longer takes is fetched again, once. */
  async function authed<T>(path: string, query: Query = {}, body?: unknown): Promise<T> {
    const used = await token();
    try {
      return await call<T>(path, { access_token: used, ...query }, body);
    } catch (err) {
      if (!(err instanceof WechatApiError) || !TOKEN_ERRCODES.has(err.errcode)) throw err;
      return call<T>(path, { access_token: await token(used), ...query }, body);
    }
  }

  return {
    token: () => token(),

    /** One page of the account's followers' openids (up to 10,000), after `nextOpenid`. */
    followerPage: (nextOpenid = '') =>
      authed<{ total: number; count: number; data?: { openid: string[] }; next_openid?: string }>('user/get', {
        next_openid: nextOpenid,
      }),

    /** The profiles of up to 100 followers. */
    async users(openids: readonly string[]): Promise<WechatUser[]> {
      if (openids.length === 0) return [];
      const answer = await authed<{ user_info_list?: WechatUser[] }>(
        'user/info/batchget',
        {},
        {
          user_list: openids.map((openid) => ({ openid, lang: 'zh_CN' })),
        },
      );
      return answer.user_info_list ?? [];
    },

    async tags(): Promise<WechatTag[]> {
      return (await authed<{ tags?: WechatTag[] }>('tags/get')).tags ?? [];
    },

    /** Tags (or untags) up to 50 followers. */
    async tagFollowers(tagId: number, openids: readonly string[], untag = false): Promise<void> {
      await authed(
        untag ? 'tags/members/batchuntagging' : 'tags/members/batchtagging',
        {},
        {
          openid_list: openids,
          tagid: tagId,
        },
      );
    },

    async setRemark(openid: string, remark: string): Promise<void> {
      await authed('user/info/updateremark', {}, { openid, remark });
    },

    /** Sends a template message; answers WeChat's message id. */
    async sendTemplate(message: TemplateMessage): Promise<string | undefined> {
      const answer = await authed<{ msgid?: number | string }>(
        'message/template/send',
        {},
        {
          touser: message.openid,
          template_id: message.templateId,
          data: message.data,
          ...(message.url && { url: message.url }),
          ...(message.miniprogram && { miniprogram: message.miniprogram }),
        },
      );
      return answer.msgid === undefined ? undefined : String(answer.msgid);
    },
  };
}

export type WechatClient = ReturnType<typeof createWechatClient>;
