import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, readXlsx, startApi, type TestApi, testClock } from './helpers';

describe.each(engines())('OAuth clients and the token endpoint on $name', (engine) => {
  let api: TestApi;
  let platform: string;
  let tenantAdmin: string;
  const clock = testClock();

  const createClient = (body: Record<string, unknown>) =>
    api.call('POST', '/api/system/client', { token: platform, body });
  const password = (client: Record<string, string>, headers?: Record<string, string>) =>
    api.call('POST', '/api/auth/token', {
      body: { grant_type: 'password', tenant: 'demo', username: 'admin', password: 'admin123', ...client },
      headers,
    });
  const basic = (id: string, secret: string) => ({
    authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
  });
  const me = (token: string) => api.call('GET', '/api/auth/me', { token });

  beforeAll(async () => {
    api = await startApi(engine, { config: { now: clock.now } });
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
    tenantAdmin = (await api.tokens('demo', 'admin', 'admin123')).access;
  });
  afterAll(() => api?.close());

  it('creates a confidential client, returning its secret once and storing a hash', async () => {
    const res = await createClient({
      clientId: 'his',
      name: 'Hospital HIS',
      clientType: 'confidential',
      grantTypes: ['password', 'refresh_token'],
      accessTokenTtlSec: 120,
      refreshTokenTtlSec: 600,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      clientId: 'his',
      clientType: 'confidential',
      allowedTenantIds: null,
      status: 'enabled',
      version: 0,
    });
    const secret = res.body.clientSecret as string;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const stored = await api.db
      .selectFrom('oauth_client')
      .select('secret_hash')
      .where('client_id', '=', 'his')
      .executeTakeFirstOrThrow();
    expect(stored.secret_hash).toMatch(/^\$argon2/);
    expect(
      JSON.stringify((await api.call('GET', `/api/system/client/${res.body.id}`, { token: platform })).body),
    ).not.toContain(secret);
    const audit = await api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('resource_type', '=', 'oauth_client')
      .execute();
    expect(audit).toEqual([expect.objectContaining({ action: 'system:client:create' })]);
    expect(JSON.stringify(audit)).not.toContain(secret);

    expect((await password({ client_id: 'his' })).body.code).toBe('auth.invalidClient');
    expect((await password({ client_id: 'his', client_secret: 'wrong' })).body.code).toBe('auth.invalidClient');
    const ok = await password({ client_id: 'his', client_secret: secret });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ expires_in: 120, refresh_expires_in: 600 });
    const viaBasic = await password({}, basic('his', secret));
    expect(viaBasic.status).toBe(200);
    expect((await password({ client_id: 'console' }, basic('his', secret))).body.code).toBe('auth.invalidClient');

    // The client's TTL applies: the access token dies after 120 s, the refresh token after 600 s.
    clock.advance(121_000);
    expect((await me(ok.body.access_token)).status).toBe(401);
    const refreshed = await api.call('POST', '/api/auth/token', {
      body: { grant_type: 'refresh_token', refresh_token: ok.body.refresh_token },
      headers: basic('his', secret),
    });
    expect(refreshed.status).toBe(200);
    clock.advance(601_000);
    const late = await api.call('POST', '/api/auth/token', {
      body: {
        grant_type: 'refresh_token',
        refresh_token: refreshed.body.refresh_token,
        client_id: 'his',
        client_secret: secret,
      },
    });
    expect(late.body.code).toBe('auth.invalidGrant');
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
    tenantAdmin = (await api.tokens('demo', 'admin', 'admin123')).access;
  });

  it('grant types and tenants the client is not allowed are refused with auth.unauthorizedClient', async () => {
    const res = await createClient({
      clientId: 'refresh-only',
      name: 'Refresh only',
      clientType: 'public',
      grantTypes: ['refresh_token'],
    });
    expect(res.status).toBe(201);
    expect(res.body.clientSecret).toBeUndefined();
    const refused = await password({ client_id: 'refresh-only' });
    expect(refused).toMatchObject({ status: 400, body: { code: 'auth.unauthorizedClient' } });

    const platformId = (
      await api.db.selectFrom('tenant').select('id').where('code', '=', 'platform').executeTakeFirstOrThrow()
    ).id;
    const limited = await createClient({
      clientId: 'platform-app',
      name: 'Platform app',
      clientType: 'public',
      grantTypes: ['password'],
      allowedTenantIds: [platformId],
    });
    expect(limited.body.allowedTenantIds).toEqual([platformId]);
    expect((await password({ client_id: 'platform-app' })).body.code).toBe('auth.unauthorizedClient');
    const allowed = await api.call('POST', '/api/auth/token', {
      body: {
        grant_type: 'password',
        tenant: 'platform',
        username: 'admin',
        password: 'admin123',
        client_id: 'platform-app',
      },
    });
    expect(allowed.status).toBe(200);
    expect(
      (
        await createClient({
          clientId: 'x-app',
          name: 'x',
          clientType: 'public',
          grantTypes: ['password'],
          allowedTenantIds: ['99999'],
        })
      ).status,
    ).toBe(400);

    expect((await password({ client_id: 'nobody' })).body.code).toBe('auth.invalidClient');
    const console = await api.db
      .selectFrom('oauth_client')
      .selectAll()
      .where('client_id', '=', 'console')
      .executeTakeFirstOrThrow();
    expect(console).toMatchObject({
      client_type: 'public',
      grant_types: ['password', 'refresh_token'],
      secret_hash: null,
    });
  });

  it('validates grant types, redirect URIs and lifetimes', async () => {
    const noRedirect = await createClient({
      clientId: 'web',
      name: 'Web',
      clientType: 'confidential',
      grantTypes: ['authorization_code'],
    });
    expect(noRedirect).toMatchObject({
      status: 400,
      body: { fields: [expect.objectContaining({ field: 'redirectUris' })] },
    });
    const badUri = await createClient({
      clientId: 'web',
      name: 'Web',
      clientType: 'confidential',
      grantTypes: ['authorization_code'],
      redirectUris: ['not a url'],
    });
    expect(badUri.body.fields).toEqual([expect.objectContaining({ field: 'redirectUris.0' })]);
    const publicCc = await createClient({
      clientId: 'cc',
      name: 'CC',
      clientType: 'public',
      grantTypes: ['client_credentials'],
    });
    expect(publicCc.status).toBe(400);
    const unknownGrant = await createClient({
      clientId: 'imp',
      name: 'Imp',
      clientType: 'public',
      grantTypes: ['implicit'],
    });
    expect(unknownGrant.status).toBe(400);
    const ttl = await createClient({
      clientId: 'ttl',
      name: 'TTL',
      clientType: 'public',
      grantTypes: ['password'],
      accessTokenTtlSec: 5,
    });
    expect(ttl.body.fields).toEqual([expect.objectContaining({ field: 'accessTokenTtlSec' })]);
    const web = await createClient({
      clientId: 'web',
      name: 'Web',
      clientType: 'confidential',
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: ['https://lms.example.com/callback'],
      scopes: ['openid', 'profile'],
    });
    expect(web).toMatchObject({
      status: 201,
      body: { redirectUris: ['https://lms.example.com/callback'], scopes: ['openid', 'profile'] },
    });
  });

  it('rotate-secret returns a new secret once and the old one stops working', async () => {
    const res = await createClient({
      clientId: 'lms',
      name: 'LMS',
      clientType: 'confidential',
      grantTypes: ['password'],
    });
    const old = res.body.clientSecret as string;
    expect((await password({ client_id: 'lms', client_secret: old })).status).toBe(200);
    const rotated = await api.call('POST', `/api/system/client/${res.body.id}/rotate-secret`, { token: platform });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const fresh = rotated.body.clientSecret as string;
    expect(fresh).not.toBe(old);
    expect((await password({ client_id: 'lms', client_secret: old })).body.code).toBe('auth.invalidClient');
    expect((await password({ client_id: 'lms', client_secret: fresh })).status).toBe(200);
    const publicId = (
      await api.call('GET', '/api/system/client?clientType=public&keyword=console', { token: platform })
    ).body.data[0].id;
    expect(
      (await api.call('POST', `/api/system/client/${publicId}/rotate-secret`, { token: platform })).body.code,
    ).toBe('client.noSecret');
    const audit = await api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'system:client:rotate-secret')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(fresh);
  });

  it('revoke-tokens 401s every live token of the client at once, in every tenant, and nothing else', async () => {
    const res = await createClient({
      clientId: 'app',
      name: 'Mobile app',
      clientType: 'public',
      grantTypes: ['password', 'refresh_token'],
    });
    const first = await password({ client_id: 'app' });
    const second = await api.call('POST', '/api/auth/token', {
      body: { grant_type: 'password', tenant: 'platform', username: 'admin', password: 'admin123', client_id: 'app' },
    });
    expect((await me(first.body.access_token)).status).toBe(200);
    const revoked = await api.call('POST', `/api/system/client/${res.body.id}/revoke-tokens`, { token: platform });
    expect(revoked).toMatchObject({ status: 200, body: { revokedSessions: 2 } });
    expect((await me(first.body.access_token)).status).toBe(401);
    expect((await me(second.body.access_token)).status).toBe(401);
    const refresh = await api.call('POST', '/api/auth/token', {
      body: { grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: 'app' },
    });
    expect(refresh.status).toBe(400);
    expect((await me(tenantAdmin)).status).toBe(200);

    const again = await password({ client_id: 'app' });
    const row = (await api.call('GET', `/api/system/client/${res.body.id}`, { token: platform })).body;
    const disabled = await api.call('PUT', `/api/system/client/${row.id}`, {
      token: platform,
      body: { name: row.name, grantTypes: row.grantTypes, status: 'disabled', version: row.version },
    });
    expect(disabled.body.status).toBe('disabled');
    expect((await me(again.body.access_token)).status).toBe(401);
    expect((await password({ client_id: 'app' })).body.code).toBe('auth.invalidClient');
  });

  it('platform-only: a tenant administrator gets 403; stale updates change nothing; export holds the filtered rows', async () => {
    expect((await api.call('GET', '/api/system/client', { token: tenantAdmin })).status).toBe(403);
    expect(
      (
        await api.call('POST', '/api/system/client', {
          token: tenantAdmin,
          body: { clientId: 'z', name: 'z', clientType: 'public', grantTypes: ['password'] },
        })
      ).status,
    ).toBe(403);
    const row = (await api.call('GET', '/api/system/client?keyword=web', { token: platform })).body.data[0];
    const body = { name: 'Web LMS', grantTypes: row.grantTypes, redirectUris: row.redirectUris, version: row.version };
    expect((await api.call('PUT', `/api/system/client/${row.id}`, { token: platform, body })).body).toMatchObject({
      name: 'Web LMS',
      version: row.version + 1,
    });
    const stale = await api.call('PUT', `/api/system/client/${row.id}`, {
      token: platform,
      body: { ...body, name: 'Stale' },
    });
    expect(stale).toMatchObject({ status: 409, body: { code: 'common.versionConflict' } });
    expect((await api.call('GET', `/api/system/client/${row.id}`, { token: platform })).body.name).toBe('Web LMS');

    const file = await api.fetch('GET', '/api/system/client/export?clientType=confidential&sort=clientId', {
      token: platform,
      headers: { 'accept-language': 'en-US' },
    });
    const rows = await readXlsx(await file.arrayBuffer());
    expect(rows[0]?.[0]).toBe('Client id');
    expect(rows.slice(1).map((r) => r[0])).toEqual(['his', 'lms', 'web']);
    expect(JSON.stringify(rows)).not.toMatch(/argon2/);
  });
});
