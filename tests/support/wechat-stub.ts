import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A follower as the stub keeps it: WeChat's profile fields (`subscribe` 1 while following). */
export interface StubFollower {
  openid: string;
  nickname?: string;
  headimgurl?: string;
  city?: string;
  province?: string;
  country?: string;
  language?: string;
  subscribe_time?: number;
  unionid?: string;
  remark?: string;
  tagid_list?: number[];
}

export interface StubCall {
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/** What the stub answers instead, once, to the next call of a path: a WeChat answer, or an HTTP status. */
export type Scripted = { json: Record<string, unknown> } | { status: number };

interface StubApp {
  secret: string;
  followers: StubFollower[];
  tags: { id: number; name: string; count: number }[];
}

/**
 * A stand-in for the WeChat official-account API (https://api.weixin.qq.com/cgi-bin/...) on a local port: access
 * tokens, follower list and profiles, tags, remarks and template messages, with answers scripted per path
 * (`script`) and every call recorded (`calls`). Tokens last `expiresIn` seconds; `expireTokens` makes WeChat forget
 * them (the next call answers 40001).
 */
export async function startWechatStub(options: { pageSize?: number; expiresIn?: number } = {}) {
  const apps = new Map<string, StubApp>();
  const tokens = new Map<string, string>();
  const scripted = new Map<string, Scripted[]>();
  const calls: StubCall[] = [];
  const templates: { appId: string; message: Record<string, unknown> }[] = [];
  let issued = 0;
  let msgid = 1000;

  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text ? JSON.parse(text) : undefined;
  };

  function answer(path: string, query: Record<string, string>, body: Record<string, unknown> | undefined) {
    if (path === 'token') {
      const app = apps.get(query.appid ?? '');
      if (!app || app.secret !== query.secret) return { errcode: 40125, errmsg: 'invalid appsecret' };
      issued += 1;
      const token = `token-${issued}`;
      tokens.set(token, query.appid ?? '');
      return { access_token: token, expires_in: options.expiresIn ?? 7200 };
    }
    const appId = tokens.get(query.access_token ?? '');
    const app = appId === undefined ? undefined : apps.get(appId);
    if (!app || appId === undefined) return { errcode: 40001, errmsg: 'invalid credential, access_token is invalid' };
    const find = (openid: unknown) => app.followers.find((f) => f.openid === openid);
    switch (path) {
      case 'user/get': {
        const size = options.pageSize ?? 10_000;
        const start = query.next_openid ? app.followers.findIndex((f) => f.openid === query.next_openid) + 1 : 0;
        const page = app.followers.slice(start, start + size).map((f) => f.openid);
        return {
          total: app.followers.length,
          count: page.length,
          ...(page.length > 0 && { data: { openid: page } }),
          next_openid: page[page.length - 1] ?? '',
        };
      }
      case 'user/info/batchget': {
        const list = (body?.user_list ?? []) as { openid: string }[];
        if (list.length > 100) return { errcode: 45035, errmsg: 'too many openids' };
        return {
          user_info_list: list.map(({ openid }) => {
            const f = find(openid);
            return f ? { subscribe: 1, tagid_list: [], ...f } : { subscribe: 0, openid };
          }),
        };
      }
      case 'tags/get':
        return { tags: app.tags };
      case 'tags/members/batchtagging':
      case 'tags/members/batchuntagging': {
        const openids = (body?.openid_list ?? []) as string[];
        const tagId = Number(body?.tagid);
        if (openids.length > 50) return { errcode: 40032, errmsg: 'invalid openid list size' };
        if (!app.tags.some((t) => t.id === tagId)) return { errcode: 45159, errmsg: 'invalid tag id' };
        for (const openid of openids) {
          const f = find(openid);
          if (!f) return { errcode: 40003, errmsg: 'invalid openid' };
          const others = (f.tagid_list ?? []).filter((t) => t !== tagId);
          f.tagid_list = path.endsWith('batchtagging') ? [...others, tagId] : others;
        }
        return { errcode: 0, errmsg: 'ok' };
      }
      case 'user/info/updateremark': {
        const f = find(body?.openid);
        if (!f) return { errcode: 40003, errmsg: 'invalid openid' };
        f.remark = String(body?.remark ?? '');
        return { errcode: 0, errmsg: 'ok' };
      }
      case 'message/template/send': {
        if (!find(body?.touser)) return { errcode: 43004, errmsg: 'require subscribe' };
        templates.push({ appId, message: body ?? {} });
        msgid += 1;
        return { errcode: 0, errmsg: 'ok', msgid };
      }
      default:
        return { errcode: 48001, errmsg: 'api unauthorized' };
    }
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const path = url.pathname.replace(/^\/cgi-bin\//, '');
    const query = Object.fromEntries(url.searchParams);
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    calls.push({ path, query, body });
    const next = scripted.get(path)?.shift();
    if (next && 'status' in next) {
      res.writeHead(next.status, { 'content-type': 'text/plain' }).end('upstream failure');
      return;
    }
    const json = next ? next.json : answer(path, query, body);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    /** The API base to configure (`message.wechat.apiBaseUrl`). */
    url: `http://127.0.0.1:${port}`,
    calls,
    /** Template messages WeChat accepted, in order. */
    templates,
    /** An official account WeChat knows, with its followers and tags (changed in place by the calls). */
    addApp(appId: string, secret: string, followers: StubFollower[] = [], tags: StubApp['tags'] = []) {
      apps.set(appId, { secret, followers, tags });
    },
    app: (appId: string) => apps.get(appId),
    /** The answers of the next calls of `path`, in order, before it answers as WeChat again. */
    script(path: string, ...answers: Scripted[]) {
      scripted.set(path, [...(scripted.get(path) ?? []), ...answers]);
    },
    /** WeChat forgets every token it gave (the next call with one answers 40001). */
    expireTokens: () => tokens.clear(),
    /** The calls of `path` since the stub started. */
    callsOf: (path: string) => calls.filter((c) => c.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type WechatStub = Awaited<ReturnType<typeof startWechatStub>>;
