import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWechatStub, type WechatStub } from '../support/wechat-stub';
import { engines, type Json, twoTenants } from './helpers';

const APP = 'wx00000000000000b2';
const SECRET = 'stubSecret0123456789abcdef';

/**
 * The WeChat connections of one more instance of the server: the module loaded afresh, with nothing of the others'
 * memory (as in another process), on the same database.
 */
async function anotherInstance() {
  vi.resetModules();
  return (await import('../../server/src/modules/message/wechat/wechat-connection')).createWechatConnections;
}

describe.each(engines())('one WeChat access token for every instance on $name', (engine) => {
  const s = twoTenants(engine);
  let stub: WechatStub;
  let account: Json;
  let tenantId: string;

  beforeAll(async () => {
    stub = await startWechatStub();
    stub.addApp(APP, SECRET, [], [{ id: 100, name: '学员', count: 0 }]);
    const platform = (await s.api.tokens('platform', 'admin', 'admin123')).access;
    const set = await s.api.call('PUT', '/api/system/settings/message.wechat.apiBaseUrl', {
      token: platform,
      body: { value: stub.url },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    account = await s.create('/api/message/wechat-account', { name: '公众号', appId: APP, appSecret: SECRET });
    const demo = await s.api.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
    tenantId = String(demo.id);
  });
  afterAll(() => stub?.close());

  it('is fetched once by two instances asking at the same time, and refreshed by one for all', async () => {
    const { services } = s.api.server;
    const deps = { tenancy: services.tenancy, settings: services.settings, config: services.config };
    const a = (await anotherInstance())(deps);
    const b = (await anotherInstance())(deps);
    const fetched = () => stub.callsOf('token').length;

    const [first, second] = await Promise.all([a.open(tenantId, account.id), b.open(tenantId, account.id)]);
    const [tokenA, tokenB] = await Promise.all([first.client.token(), second.client.token()]);
    expect(fetched()).toBe(1);
    expect(tokenB).toBe(tokenA);

    // a third instance, later, uses the kept token; so does a call through the API
    const c = (await anotherInstance())(deps);
    expect(await (await c.open(tenantId, account.id)).client.token()).toBe(tokenA);
    const tags = await s.call('GET', `/api/message/wechat-account/${account.id}/tags`);
    expect(tags.status, JSON.stringify(tags.body)).toBe(200);
    expect(fetched()).toBe(1);

    // WeChat no longer takes it: the instance it refuses fetches the next, which the others then use
    stub.expireTokens();
    expect(await (await a.open(tenantId, account.id)).client.tags()).toHaveLength(1);
    expect(fetched()).toBe(2);
    const next = await (await b.open(tenantId, account.id)).client.token();
    expect(next).not.toBe(tokenA);
    expect(await (await c.open(tenantId, account.id)).client.tags()).toHaveLength(1);
    expect(fetched()).toBe(2);

    // the kept token is sealed, never stored as it is
    const row = await s.api.db
      .selectFrom('wechat_account')
      .select('access_token_enc')
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(Buffer.from(row.access_token_enc ?? []).toString('latin1')).not.toContain(next);
  });
});
