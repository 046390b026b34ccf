import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelError, type Outgoing } from '../../server/src/modules/message/channel/channel';
import { wechatChannel } from '../../server/src/modules/message/wechat/wechat-channel';
import {
  createTokenCache,
  createWechatClient,
  WechatApiError,
  WechatUnreachableError,
} from '../../server/src/modules/message/wechat/wechat-client';
import { type StubFollower, startWechatStub, type WechatStub } from '../support/wechat-stub';
import { engines, type Json, TEST_ID_NUMBER_KEY, twoTenants } from './helpers';

const accounts = '/api/message/wechat-account';
const followers = '/api/message/follower';
const APP = 'wx00000000000000a1';
const SECRET = 'stubSecret0123456789abcdef';

const follower = (n: number, extra: Partial<StubFollower> = {}): StubFollower => ({
  openid: `o-${n}`,
  nickname: `关注者${n}`,
  city: '北京',
  subscribe_time: 1_700_000_000 + n,
  ...extra,
});

describe('the WeChat client against a stand-in server', () => {
  let stub: WechatStub;
  beforeAll(async () => {
    stub = await startWechatStub();
    stub.addApp(APP, SECRET, [follower(1)], [{ id: 100, name: '学员', count: 0 }]);
  });
  afterAll(() => stub?.close());

  it('keeps an access token per app id until shortly before it expires, and fetches another on 40001', async () => {
    let now = 1_000_000;
    const tokens = createTokenCache();
    const client = createWechatClient(
      { appId: APP, appSecret: SECRET },
      { baseUrl: stub.url, timeoutMs: 2000, tokens, now: () => now },
    );
    const before = stub.callsOf('token').length;
    await client.tags();
    await client.tags();
    expect(stub.callsOf('token').length - before).toBe(1);
    // another client of the same app shares the token
    const again = createWechatClient(
      { appId: APP, appSecret: SECRET },
      { baseUrl: stub.url, timeoutMs: 2000, tokens, now: () => now },
    );
    await again.tags();
    expect(stub.callsOf('token').length - before).toBe(1);
    // the same app id without its secret (another tenant naming it) gets no token of the cache
    const impostor = createWechatClient(
      { appId: APP, appSecret: 'notTheSecret0123456' },
      { baseUrl: stub.url, timeoutMs: 2000, tokens, now: () => now },
    );
    await expect(impostor.tags()).rejects.toMatchObject({ errcode: 40125 });

    // WeChat forgot it: refused once with 40001, fetched again, the call answered
    stub.expireTokens();
    expect(await client.tags()).toEqual([{ id: 100, name: '学员', count: 0 }]);
    expect(stub.callsOf('token').length - before).toBe(3);

    // five minutes before expiry a new one is fetched
    now += 7200_000 - 5 * 60_000 + 1;
    await client.tags();
    expect(stub.callsOf('token').length - before).toBe(4);
  });

  it('turns errcodes into typed errors and failures of the server into unreachable ones', async () => {
    const client = createWechatClient(
      { appId: APP, appSecret: SECRET },
      { baseUrl: stub.url, timeoutMs: 2000, tokens: createTokenCache() },
    );
    stub.script('tags/get', { json: { errcode: 45009, errmsg: 'reach max api daily quota limit' } });
    await expect(client.tags()).rejects.toMatchObject({ errcode: 45009 });
    stub.script('tags/get', { status: 503 });
    await expect(client.tags()).rejects.toBeInstanceOf(WechatUnreachableError);
    const wrong = createWechatClient(
      { appId: APP, appSecret: 'wrongSecret0123456' },
      { baseUrl: stub.url, timeoutMs: 2000, tokens: createTokenCache() },
    );
    await expect(wrong.tags()).rejects.toBeInstanceOf(WechatApiError);
    const nowhere = createWechatClient(
      { appId: APP, appSecret: SECRET },
      { baseUrl: 'http://127.0.0.1:9', timeoutMs: 500, tokens: createTokenCache() },
    );
    await expect(nowhere.tags()).rejects.toBeInstanceOf(WechatUnreachableError);
  });
});

describe.each(engines())('WeChat accounts and followers on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;
  let stub: WechatStub;
  let account: Json;

  const sync = async (mode: 'full' | 'incremental', id = account.id) => {
    const res = await call('POST', `${accounts}/${id}/sync`, { mode });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const list = async (query = '') => (await call('GET', `${followers}?pageSize=100${query}`)).body;
  const byOpenid = async (openid: string) =>
    (await list(`&keyword=${openid}`)).data.find((f: Json) => f.openid === openid);

  beforeAll(async () => {
    stub = await startWechatStub({ pageSize: 2 });
    stub.addApp(
      APP,
      SECRET,
      [1, 2, 3, 4, 5].map((n) => follower(n)),
      [
        { id: 100, name: '学员', count: 0 },
        { id: 101, name: '带教老师', count: 0 },
      ],
    );
    const platform = (await s.api.tokens('platform', 'admin', 'admin123')).access;
    const set = await s.api.call('PUT', '/api/system/settings/message.wechat.apiBaseUrl', {
      token: platform,
      body: { value: stub.url },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    account = await create(accounts, { name: '住培公众号', appId: APP, appSecret: SECRET, accountType: 'service' });
  });
  afterAll(() => stub?.close());

  it('keeps the app secret and AES key sealed: never answered, only whether they are set', async () => {
    expect(account).toMatchObject({ appId: APP, secretSet: true, aesKeySet: false, followerCount: 0 });
    const aesKey = 'A'.repeat(43);
    const updated = await call('PUT', `${accounts}/${account.id}`, { aesKey, version: account.version });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ secretSet: true, aesKeySet: true });
    account = updated.body;
    const answers = [
      JSON.stringify(updated.body),
      JSON.stringify((await call('GET', `${accounts}/${account.id}`)).body),
      JSON.stringify((await call('GET', accounts)).body),
    ];
    for (const text of answers) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(aesKey);
      expect(text).not.toMatch(/appSecret|aesKeyEnc|app_secret/);
    }
    const stored = await s.api.db
      .selectFrom('wechat_account')
      .select(['app_secret_enc', 'aes_key_enc'])
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(Buffer.from(stored.app_secret_enc as Uint8Array).toString('latin1')).not.toContain(SECRET);
    // an app id once per tenant; another tenant may have its own
    const twice = await call('POST', accounts, { name: '重复', appId: APP, appSecret: SECRET });
    expect(twice.status).toBe(400);
    expect(twice.body.fields[0].field).toBe('appId');
    const theirs = await call('POST', accounts, { name: '二院号', appId: APP, appSecret: SECRET }, s.other);
    expect(theirs.status).toBe(201);
    // a stale version changes nothing
    const stale = await call('PUT', `${accounts}/${account.id}`, { name: '旧', version: account.version - 1 });
    expect(stale.status).toBe(409);
  });

  it('syncs every follower page by page, then marks those WeChat no longer lists unsubscribed', async () => {
    const first = await sync('full');
    expect(first).toEqual({ mode: 'full', total: 5, added: 5, updated: 0, unsubscribed: 0 });
    expect(stub.callsOf('user/get').length).toBe(3);
    const rows = await list(`&wechatAccountId=${account.id}`);
    expect(rows.total).toBe(5);
    expect(rows.data[0]).toMatchObject({ accountName: '住培公众号', subscribeStatus: 'subscribed', city: '北京' });

    const app = stub.app(APP);
    if (!app) throw new Error('no app');
    app.followers.splice(0, 2);
    app.followers.push(follower(6));
    app.followers[0] = { ...follower(3), nickname: '改名了' };
    const second = await sync('full');
    expect(second).toEqual({ mode: 'full', total: 4, added: 1, updated: 3, unsubscribed: 2 });
    expect(await byOpenid('o-3')).toMatchObject({ nickname: '改名了' });
    const gone = await list('&subscribeStatus=unsubscribed');
    expect(gone.data.map((f: Json) => f.openid).sort()).toEqual(['o-1', 'o-2']);
    expect(gone.data[0].unsubscribeTime).toEqual(expect.any(String));
    const synced = await call('GET', `${accounts}/${account.id}`);
    expect(synced.body).toMatchObject({ followerCount: 6, lastSyncedAt: expect.any(String) });
    expect(synced.body.tags.map((t: Json) => t.name)).toEqual(['学员', '带教老师']);
    // the account's sync is in its audit trail
    const audit = await s.api.db
      .selectFrom('audit_log')
      .select('summary')
      .where('action', '=', 'message:follower:sync')
      .execute();
    expect(audit.map((a) => a.summary).join()).toContain('full: +1 ~3 -2 of 4');
  });

  it('reads the profiles of new followers only in an incremental sync', async () => {
    const app = stub.app(APP);
    if (!app) throw new Error('no app');
    app.followers.push(follower(7), follower(1, { nickname: '回来了' }));
    app.followers[0] = { ...follower(3), nickname: '又改名' };
    const before = stub.callsOf('user/info/batchget').length;
    const report = await sync('incremental');
    expect(report).toEqual({ mode: 'incremental', total: 6, added: 1, updated: 1, unsubscribed: 0 });
    const read = stub.callsOf('user/info/batchget').slice(before);
    expect(read.flatMap((c) => (c.body as Json).user_list.map((u: Json) => u.openid)).sort()).toEqual(['o-1', 'o-7']);
    expect(await byOpenid('o-1')).toMatchObject({ subscribeStatus: 'subscribed', nickname: '回来了' });
    // a known follower's profile is left as it was
    expect(await byOpenid('o-3')).toMatchObject({ nickname: '改名了' });
  });

  it('binds a follower to a trainee of the tenant, and refuses another tenant’s or a missing one', async () => {
    const trainee = async (token: string, suffix: string) => {
      const made = async (path: string, body: Json) => {
        const res = await call('POST', path, body, token);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body;
      };
      const base = await made('/api/people/organization', {
        code: `WB${suffix}`,
        name: `基地${suffix}`,
        orgType: 'training_base',
      });
      const type = await made('/api/people/trainee-type', {
        code: `wt${suffix}`,
        name: `类型${suffix}`,
        category: 'residency',
      });
      return made('/api/people/trainee', {
        name: `学员${suffix}`,
        traineeTypeId: type.id,
        trainingBaseId: base.id,
        traineeNo: `WX${suffix}`,
      });
    };
    const mine = await trainee(s.demo, '1');
    const theirs = await trainee(s.other, '2');
    const row = await byOpenid('o-3');

    const foreign = await call('POST', `${followers}/${row.id}/bind`, {
      personType: 'trainee',
      personId: theirs.id,
      version: row.version,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.fields[0].field).toBe('personId');
    const missing = await call('POST', `${followers}/${row.id}/bind`, {
      personType: 'staff',
      personId: mine.id,
      version: row.version,
    });
    expect(missing.status).toBe(400);

    const bound = await call('POST', `${followers}/${row.id}/bind`, {
      personType: 'trainee',
      personId: mine.id,
      version: row.version,
    });
    expect(bound.status, JSON.stringify(bound.body)).toBe(200);
    expect(bound.body).toMatchObject({
      boundPersonType: 'trainee',
      boundPersonId: mine.id,
      boundPersonName: '学员1',
      boundAt: expect.any(String),
    });
    const stale = await call('POST', `${followers}/${row.id}/unbind`, { version: row.version });
    expect(stale.status).toBe(409);
    expect((await list('&bound=true')).data.map((f: Json) => f.openid)).toEqual(['o-3']);
    expect((await list('&bound=false')).total).toBe(6);

    // a WeChat template message to the trainee goes to the follower bound to them, its fields mapped to the keywords
    const template = await create('/api/message/template', {
      code: 'wx-course',
      name: '课程提醒',
      channel: 'wechat_mp',
      wechatAccountId: account.id,
      externalTemplateId: 'TPL-COURSE',
      contentTemplate: '{name}：{course} 明天开始',
      dataMapping: { thing1: 'course', thing2: 'name' },
    });
    const sent = await call('POST', '/api/message/batch', {
      name: '课程提醒',
      templateId: template.id,
      audience: { traineeIds: [mine.id] },
      params: { course: '心肺复苏' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    let batch = sent.body;
    for (let i = 0; i < 100 && batch.status !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      batch = (await call('GET', `/api/message/batch/${sent.body.id}`)).body;
    }
    expect(batch).toMatchObject({ status: 'completed', sentCount: 1, failedCount: 0 });
    expect(stub.templates.at(-1)?.message).toMatchObject({
      touser: 'o-3',
      template_id: 'TPL-COURSE',
      data: { thing1: { value: '心肺复苏' }, thing2: { value: '学员1' } },
    });

    const unbound = await call('POST', `${followers}/${row.id}/unbind`, { version: bound.body.version });
    expect(unbound.body).toMatchObject({ boundPersonType: null, boundPersonId: null, boundPersonName: null });
    // another tenant's follower is not found
    const elsewhere = await call('POST', `${followers}/${row.id}/unbind`, { version: unbound.body.version }, s.other);
    expect(elsewhere.status).toBe(404);
  });

  it('tags followers and sets a remark on WeChat first, then here', async () => {
    const rows = (await list(`&subscribeStatus=subscribed&wechatAccountId=${account.id}`)).data as Json[];
    const ids = rows.map((r) => r.id);
    const tagged = await call('POST', `${followers}/tag`, { accountId: account.id, ids, tagId: 101, mode: 'add' });
    expect(tagged.status, JSON.stringify(tagged.body)).toBe(200);
    expect(tagged.body).toEqual({ updated: ids.length });
    const pushed = stub.callsOf('tags/members/batchtagging').at(-1)?.body as Json;
    expect(pushed).toEqual({ openid_list: expect.arrayContaining(rows.map((r) => r.openid)), tagid: 101 });
    expect(stub.app(APP)?.followers.every((f) => f.tagid_list?.includes(101))).toBe(true);
    const withTag = await list('&tagId=101');
    expect(withTag.total).toBe(ids.length);
    expect(withTag.data[0].tagIds).toEqual(['101']);

    // a tag WeChat does not know: refused by WeChat, nothing changed here
    const unknown = await call('POST', `${followers}/tag`, { accountId: account.id, ids, tagId: 999, mode: 'add' });
    expect(unknown.status).toBe(502);
    expect(unknown.body.code).toBe('wechat.refused');
    expect((await list('&tagId=999')).total).toBe(0);

    const untagged = await call('POST', `${followers}/tag`, {
      accountId: account.id,
      ids: ids.slice(0, 1),
      tagId: 101,
      mode: 'remove',
    });
    expect(untagged.body).toEqual({ updated: 1 });
    expect((await list('&tagId=101')).total).toBe(ids.length - 1);

    const row = await byOpenid('o-4');
    const remarked = await call('POST', `${followers}/${row.id}/remark`, { remark: '心内科', version: row.version });
    expect(remarked.status, JSON.stringify(remarked.body)).toBe(200);
    expect(remarked.body.remark).toBe('心内科');
    expect(stub.app(APP)?.followers.find((f) => f.openid === 'o-4')?.remark).toBe('心内科');
    expect((await list('&keyword=心内')).data.map((f: Json) => f.openid)).toEqual(['o-4']);
  });

  it('sends a template message through the channel adapter: accepted, refused for good, or to be tried again', async () => {
    const channel = wechatChannel({
      tenancy: s.api.tenancy,
      settings: s.api.server.services.settings,
      config: { idNumberKey: TEST_ID_NUMBER_KEY },
    });
    expect(channel.channel).toBe('wechat_mp');
    const tenantId = String(
      (await s.api.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id,
    );
    const outgoing = (extra: Partial<Outgoing> = {}): Outgoing => ({
      tenantId,
      address: 'o-4',
      title: '排班通知',
      content: '您明天值班',
      params: { name: '王医生', date: '2026-11-27' },
      externalTemplateId: 'tpl-1',
      extra: { wechatAccountId: account.id, dataMapping: { thing1: 'name', time2: 'date' }, url: 'https://x.example' },
      ...extra,
    });
    const sent = await channel.send(outgoing());
    expect(sent.providerId).toEqual(expect.any(String));
    expect(stub.templates.at(-1)?.message).toEqual({
      touser: 'o-4',
      template_id: 'tpl-1',
      url: 'https://x.example',
      data: { thing1: { value: '王医生' }, time2: { value: '2026-11-27' } },
    });

    const refused = await channel.send(outgoing({ address: 'o-unknown' })).catch((e) => e);
    expect(refused).toBeInstanceOf(ChannelError);
    expect(refused).toMatchObject({ code: 'wechat.43004', retryable: false });

    stub.script('message/template/send', { status: 500 });
    const failed = await channel.send(outgoing()).catch((e) => e);
    expect(failed).toMatchObject({ code: 'wechat.unreachable', retryable: true });
    stub.script('message/template/send', { json: { errcode: -1, errmsg: 'system error' } });
    expect(await channel.send(outgoing()).catch((e) => e)).toMatchObject({ code: 'wechat.-1', retryable: true });

    const noAccount = await channel.send(outgoing({ extra: {} })).catch((e) => e);
    expect(noAccount).toMatchObject({ code: 'wechat.noAccount', retryable: false });
    const otherTenants = await channel.send(outgoing({ extra: { wechatAccountId: '999999' } })).catch((e) => e);
    expect(otherTenants).toMatchObject({ retryable: false });
  });

  it('answers a clear error quickly when WeChat cannot be reached, and 404 for another tenant’s account', async () => {
    const platform = (await s.api.tokens('platform', 'admin', 'admin123')).access;
    await s.api.call('PUT', '/api/system/settings/message.wechat.apiBaseUrl', {
      token: platform,
      body: { value: 'http://127.0.0.1:9' },
    });
    const started = Date.now();
    const res = await call('POST', `${accounts}/${account.id}/sync`, { mode: 'full' });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('wechat.unreachable');
    expect(Date.now() - started).toBeLessThan(5000);
    const theirs = await call('POST', `${accounts}/${account.id}/sync`, { mode: 'full' }, s.other);
    expect(theirs.status).toBe(404);
    const tags = await call('GET', `${accounts}/${account.id}/tags`, undefined, s.other);
    expect(tags.status).toBe(404);
    const viewer = await call('POST', `${accounts}/${account.id}/sync`, { mode: 'full' }, s.viewer);
    expect(viewer.status).toBe(403);
    await s.api.call('PUT', '/api/system/settings/message.wechat.apiBaseUrl', {
      token: platform,
      body: { value: stub.url },
    });
  });
});
