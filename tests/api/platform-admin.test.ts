import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformAdmin } from '../../server/src/db/seed/platform-admin';
import { engines, startApi, type TestApi } from './helpers';

describe.each(engines())('the first platform administrator ($name)', (engine) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi(engine, { demo: false });
  });
  afterAll(() => api?.close());

  it('has no one to sign in as on a fresh database without demo data', async () => {
    expect((await api.signIn('demo', 'admin', 'admin123')).status).toBe(400);
    expect((await api.signIn('platform', 'admin', 'admin123')).status).toBe(400);
  });

  it('can sign in to tenant platform once created, holding platform-only permissions', async () => {
    await createPlatformAdmin(api.server.services, {
      username: 'root',
      password: 'Str0ng-enough',
      displayName: 'Operator',
    });
    const { access } = await api.tokens('platform', 'root', 'Str0ng-enough');
    const me = await api.call('GET', '/api/auth/me', { token: access });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ userName: 'root', displayName: 'Operator', tenant: { code: 'platform' } });
    expect(me.body.permissions).toEqual(expect.arrayContaining(['system:tenant:list', 'system:admin:list']));
  });

  it('refuses a weak password, a bad user name and a taken one, creating nothing', async () => {
    const count = async () =>
      (await api.db.selectFrom('admin_user').select(api.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n;
    const before = await count();
    await expect(
      createPlatformAdmin(api.server.services, { username: 'ops', password: 'short1', displayName: 'x' }),
    ).rejects.toThrow(/at least 8 characters/);
    await expect(
      createPlatformAdmin(api.server.services, { username: 'Bad Name', password: 'Str0ng-enough', displayName: 'x' }),
    ).rejects.toThrow(/user name/);
    await expect(
      createPlatformAdmin(api.server.services, { username: 'root', password: 'Str0ng-enough', displayName: 'x' }),
    ).rejects.toThrow(/already exists/);
    expect(await count()).toBe(before);
  });
});
