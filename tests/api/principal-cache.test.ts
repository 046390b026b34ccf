import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrincipalCache } from '../../server/src/core/principal-cache';
import { PRINCIPAL_SOURCES } from '../../server/src/modules/auth/auth.repository';
import { type Answer, engines, secondTenant, startApi, statementsOf, type TestApi, testClock } from './helpers';

const reading = (statements: string[], table: string) => statements.filter((s) => new RegExp(`"${table}"`).test(s));

describe.each(engines())('authenticated requests reuse the resolved principal on $name', (engine) => {
  let api: TestApi;
  const clock = testClock();
  let demoAdmin: string;
  let platform: string;
  let listPermission: string;
  let serial = 0;

  const LIST = '/api/system/admin?current=1&pageSize=5';
  const list = (token: string) => api.call('GET', LIST, { token });

  /** A new user of tenant demo whose only way to list admins is a new custom role; signed in, principal cached. */
  async function lister() {
    const tag = `c${++serial}`;
    const role = await api.call('POST', '/api/system/role', {
      token: demoAdmin,
      body: { code: `role_${tag}`, name: `Role ${tag}` },
    });
    expect(role.status).toBe(201);
    const granted = await api.call('PUT', `/api/system/role/${role.body.id}/permissions`, {
      token: demoAdmin,
      body: { permissionIds: [listPermission] },
    });
    expect(granted.status).toBe(200);
    const user = await api.call('POST', '/api/system/admin', {
      token: demoAdmin,
      body: {
        userName: `user_${tag}`,
        displayName: `User ${tag}`,
        password: 'Quiet-Otter-42',
        roleIds: [role.body.id],
        mustChangePassword: false,
      },
    });
    expect(user.status).toBe(201);
    const { access, refresh } = await api.tokens('demo', `user_${tag}`, 'Quiet-Otter-42');
    expect((await list(access)).status).toBe(200);
    expect((await list(access)).status).toBe(200);
    return {
      roleId: role.body.id as string,
      roleVersion: role.body.version as number,
      userId: user.body.id as string,
      user,
      access,
      refresh,
    };
  }

  /** A tenant of its own (on its own package when given), provisioned by the platform; its admin signed in. */
  async function ownTenant(code: string, packageId?: string) {
    const standard = (
      await api.db.selectFrom('tenant_package').select('id').where('name', '=', '标准套餐').executeTakeFirstOrThrow()
    ).id;
    const created = await api.call('POST', '/api/system/tenant', {
      token: platform,
      body: {
        code,
        name: `${code} hospital`,
        packageId: packageId ?? standard,
        maxAccounts: 5,
        adminUserName: 'boss',
        adminPassword: 'Amber-Falcon-81',
        adminDisplayName: 'Boss',
      },
    });
    expect(created.status).toBe(201);
    const { access } = await api.tokens(code, 'boss', 'Amber-Falcon-81');
    const firstUse = { currentPassword: 'Amber-Falcon-81', newPassword: 'Quiet-Heron-Lantern-2026' };
    expect((await api.call('POST', '/api/auth/password', { token: access, body: firstUse })).status).toBe(204);
    expect((await list(access)).status).toBe(200);
    return { tenant: created.body, access };
  }

  beforeAll(async () => {
    api = await startApi(engine, { config: { now: clock.now } });
    await api.addTenant(secondTenant);
    demoAdmin = (await api.tokens('demo', 'admin', 'admin123')).access;
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
    listPermission = (
      await api.db
        .selectFrom('permission')
        .select('id')
        .where('code', '=', 'system:admin:list')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => api?.close());

  describe('revocation is refused on the very next request', () => {
    it('after signing out', async () => {
      const { access } = await lister();
      expect((await api.call('POST', '/api/auth/logout', { token: access })).status).toBe(204);
      expect((await list(access)).status).toBe(401);
    });

    it('after an administrator forces the user out', async () => {
      const { access, userId } = await lister();
      expect((await api.call('POST', `/api/system/admin/${userId}/force-logout`, { token: demoAdmin })).status).toBe(
        200,
      );
      expect((await list(access)).status).toBe(401);
    });

    it('after the user changes the password in another session (that session goes on)', async () => {
      const { access, user } = await lister();
      const other = await api.tokens('demo', user.body.userName, 'Quiet-Otter-42');
      const changed = await api.call('POST', '/api/auth/password', {
        token: other.access,
        body: { currentPassword: 'Quiet-Otter-42', newPassword: 'Brisk-Heron-Lantern-77' },
      });
      expect(changed.status).toBe(204);
      expect((await list(access)).status).toBe(401);
      expect((await list(other.access)).status).toBe(200);
    });

    it('after an administrator resets the password', async () => {
      const { access, userId } = await lister();
      expect((await api.call('POST', `/api/system/admin/${userId}/reset-password`, { token: demoAdmin })).status).toBe(
        200,
      );
      expect((await list(access)).status).toBe(401);
    });

    it('after a refresh token is presented twice (the session ends)', async () => {
      const { refresh } = await lister();
      const grant = { grant_type: 'refresh_token', refresh_token: refresh, client_id: 'console' };
      const renewed = await api.call('POST', '/api/auth/token', { body: grant });
      expect(renewed.status).toBe(200);
      expect((await list(renewed.body.access_token)).status).toBe(200);
      // past the reuse grace period (security.refreshToken.reuseGraceSeconds, 10 s): reuse now ends the session
      clock.advance(11_000);
      expect((await api.call('POST', '/api/auth/token', { body: grant })).status).toBe(400);
      expect((await list(renewed.body.access_token)).status).toBe(401);
    });
  });

  describe('a changed user is refused on the very next request', () => {
    it('disabled by an administrator', async () => {
      const { access, userId } = await lister();
      expect((await api.call('POST', `/api/system/admin/${userId}/disable`, { token: demoAdmin })).status).toBe(200);
      expect((await list(access)).status).toBe(401);
    });

    it('deleted by an administrator', async () => {
      const { access, userId } = await lister();
      expect((await api.call('DELETE', `/api/system/admin/${userId}`, { token: demoAdmin })).status).toBe(204);
      expect((await list(access)).status).toBe(401);
    });

    it('locked by a statement outside any request (a script on the same database handle)', async () => {
      const { access, userId } = await lister();
      await api.db.updateTable('admin_user').set({ status: 'locked' }).where('id', '=', userId).execute();
      expect((await list(access)).status).toBe(401);
    });

    it('whose roles an administrator replaces', async () => {
      const { access, userId } = await lister();
      expect(
        (await api.call('PUT', `/api/system/admin/${userId}/roles`, { token: demoAdmin, body: { roleIds: [] } }))
          .status,
      ).toBe(200);
      expect((await list(access)).status).toBe(403);
    });
  });

  describe('a changed role or permission is refused on the very next request', () => {
    it('role disabled', async () => {
      const { access, roleId, roleVersion } = await lister();
      const res = await api.call('PUT', `/api/system/role/${roleId}`, {
        token: demoAdmin,
        body: { name: `disabled ${roleId}`, status: 'disabled', version: roleVersion + 1 },
      });
      expect(res.status).toBe(200);
      expect((await list(access)).status).toBe(403);
    });

    it('role deleted', async () => {
      const { access, roleId } = await lister();
      expect((await api.call('DELETE', `/api/system/role/${roleId}`, { token: demoAdmin })).status).toBe(204);
      expect((await list(access)).status).toBe(403);
    });

    it('permission taken from the role', async () => {
      const { access, roleId } = await lister();
      expect(
        (
          await api.call('PUT', `/api/system/role/${roleId}/permissions`, {
            token: demoAdmin,
            body: { permissionIds: [] },
          })
        ).status,
      ).toBe(200);
      expect((await list(access)).status).toBe(403);
    });

    it('user removed from the role’s members', async () => {
      const { access, roleId, userId } = await lister();
      expect(
        (await api.call('DELETE', `/api/system/role/${roleId}/members/${userId}`, { token: demoAdmin })).status,
      ).toBe(204);
      expect((await list(access)).status).toBe(403);
    });

    it('and granted at once too: a permission added to the role', async () => {
      const { access, roleId } = await lister();
      expect((await api.call('GET', '/api/system/role?current=1&pageSize=5', { token: access })).status).toBe(403);
      const roleList = (
        await api.db
          .selectFrom('permission')
          .select('id')
          .where('code', '=', 'system:role:list')
          .executeTakeFirstOrThrow()
      ).id;
      const res = await api.call('PUT', `/api/system/role/${roleId}/permissions`, {
        token: demoAdmin,
        body: { permissionIds: [listPermission, roleList] },
      });
      expect(res.status).toBe(200);
      expect((await api.call('GET', '/api/system/role?current=1&pageSize=5', { token: access })).status).toBe(200);
    });

    it('permission disabled platform-wide', async () => {
      const { access } = await lister();
      await api.db.updateTable('permission').set({ status: 'disabled' }).where('id', '=', listPermission).execute();
      try {
        expect((await list(access)).status).toBe(403);
      } finally {
        await api.db.updateTable('permission').set({ status: 'enabled' }).where('id', '=', listPermission).execute();
      }
      expect((await list(access)).status).toBe(200);
    });
  });

  describe('a changed tenant is refused on the very next request', () => {
    it('disabled by the platform', async () => {
      const { tenant, access } = await ownTenant('cache-off');
      expect((await api.call('POST', `/api/system/tenant/${tenant.id}/disable`, { token: platform })).status).toBe(200);
      expect((await list(access)).status).toBe(401);
    });

    it('expired, though nothing was written', async () => {
      const { tenant, access } = await ownTenant('cache-lapse');
      const renewed = await api.call('POST', `/api/system/tenant/${tenant.id}/renew`, {
        token: platform,
        body: { expiresAt: new Date(clock.now().getTime() + 60_000).toISOString() },
      });
      expect(renewed.status).toBe(200);
      expect((await list(access)).status).toBe(200);
      clock.advance(60_000);
      expect((await list(access)).status).toBe(401);
    });

    it('whose package loses a permission', async () => {
      const created = await api.call('POST', '/api/system/tenant-package', {
        token: platform,
        body: { name: 'cache package', permissionIds: [listPermission] },
      });
      expect(created.status).toBe(201);
      const { access } = await ownTenant('cache-pkg', created.body.id);
      const res = await api.call('PUT', `/api/system/tenant-package/${created.body.id}`, {
        token: platform,
        body: { name: 'cache package', permissionIds: [], version: created.body.version },
      });
      expect(res.status).toBe(200);
      expect((await list(access)).status).toBe(403);
    });
  });

  describe('a principal never leaks', () => {
    it('between tenants and users asking in turn', async () => {
      const nurse = (await api.tokens('demo2', 'nurse', 'nurse123')).access;
      const admin2 = (await api.tokens('demo2', 'admin', 'admin123')).access;
      for (let round = 0; round < 3; round++) {
        const [me1, me2, me3] = [
          await api.call('GET', '/api/auth/me', { token: demoAdmin }),
          await api.call('GET', '/api/auth/me', { token: admin2 }),
          await api.call('GET', '/api/auth/me', { token: nurse }),
        ];
        expect([me1.body.tenant.code, me1.body.userName]).toEqual(['demo', 'admin']);
        expect([me2.body.tenant.code, me2.body.userName]).toEqual(['demo2', 'admin']);
        expect([me3.body.tenant.code, me3.body.userName]).toEqual(['demo2', 'nurse']);
        expect(me3.body.permissions).not.toContain('system:admin:list');
        expect((await list(nurse)).status).toBe(403);
        const names = (await list(admin2)).body.data.map((u: { userName: string }) => u.userName).sort();
        expect(names).toEqual(['admin', 'nurse']);
      }
    });

    it('to a token that differs from a cached one, or to a second session of the same user', async () => {
      const { access, user } = await lister();
      const forged = `${access.slice(0, -1)}${access.endsWith('A') ? 'B' : 'A'}`;
      expect((await list(forged)).status).toBe(401);
      const second = await api.tokens('demo', user.body.userName, 'Quiet-Otter-42');
      expect((await list(second.access)).status).toBe(200);
      expect((await api.call('POST', '/api/auth/logout', { token: access })).status).toBe(204);
      expect((await list(access)).status).toBe(401);
      expect((await list(second.access)).status).toBe(200);
    });
  });

  describe('cost of an authenticated list', () => {
    it('resolves a new token in one transaction, reading each table once', async () => {
      const { access } = await api.tokens('demo', 'admin', 'admin123');
      const statements = await statementsOf(() =>
        api.call('GET', '/api/system/role?current=1&pageSize=5', { token: access }),
      );
      expect(statements.filter((s) => /^begin/i.test(s))).toHaveLength(2);
      expect(reading(statements, 'auth_token')).toHaveLength(2);
      expect(reading(statements, 'tenant')).toHaveLength(1);
      expect(reading(statements, 'role_permission')).toHaveLength(1);
      expect(statements).toHaveLength(9);
    });

    it('then answers in three round trips: the transaction opened with its scope, page and total together, commit', async () => {
      const { access } = await api.tokens('demo', 'admin', 'admin123');
      expect((await api.call('GET', '/api/system/role?current=1&pageSize=5', { token: access })).status).toBe(200);
      let answer: Answer | undefined;
      const statements = await statementsOf(async () => {
        answer = await api.call('GET', '/api/system/role?current=1&pageSize=1', { token: access });
      });
      expect(answer?.status).toBe(200);
      expect(answer?.body.data).toHaveLength(1);
      expect(answer?.body.total).toBeGreaterThan(1);
      expect(statements).toHaveLength(3);
      expect(statements[0]).toMatch(
        /^BEGIN; SELECT set_config\('role', 'medu_app', true\), set_config\('app\.tenant_id', '\d+', true\)$/,
      );
      expect(statements.slice(1).map((s) => s.split(/\s/)[0]?.toLowerCase())).toEqual(['select', 'commit']);
      expect(statements.filter((s) => /auth_token|"tenant"|permission/.test(s))).toEqual([]);
    });

    it('counts separately only a page past the end', async () => {
      const { access } = await api.tokens('demo', 'admin', 'admin123');
      const first = await api.call('GET', '/api/system/role?current=1&pageSize=1', { token: access });
      const beyond = await api.call('GET', '/api/system/role?current=999&pageSize=1', { token: access });
      expect(beyond.status).toBe(200);
      expect(beyond.body).toMatchObject({ data: [], total: first.body.total, success: true });
      const none = await api.call('GET', '/api/system/role?current=1&pageSize=5&keyword=no-such-role', {
        token: access,
      });
      expect(none.body).toMatchObject({ data: [], total: 0 });
    });
  });

  // Last: it moves the clock past every token issued so far.
  it('refuses an access token that expires, though nothing was written', async () => {
    const { access } = await lister();
    clock.advance(1800 * 1000);
    expect((await list(access)).status).toBe(401);
  });
});

describe('the principal cache itself', () => {
  const clock = testClock();
  const principal = {
    tenantId: '2',
    userId: '7',
    sessionId: '9',
    clientId: 'console',
    permissions: new Set<string>(),
    mustChangePassword: false,
  };

  it('does not keep a principal that was read while a write that may change it was under way', async () => {
    const cache = createPrincipalCache({ sources: PRINCIPAL_SOURCES, ttlMs: 60_000, now: clock.now });
    let loads = 0;
    const load = async () => {
      loads++;
      if (loads === 1) cache.invalidate();
      return { principal, validUntil: new Date(clock.now().getTime() + 3_600_000) };
    };
    await cache.resolve('hash', load);
    await cache.resolve('hash', load);
    await cache.resolve('hash', load);
    expect(loads).toBe(2);
  });

  it('reads again after the time to live, which bounds what another instance may have changed', async () => {
    const cache = createPrincipalCache({ sources: PRINCIPAL_SOURCES, ttlMs: 5_000, now: clock.now });
    let loads = 0;
    const load = async () => {
      loads++;
      return { principal, validUntil: new Date(clock.now().getTime() + 3_600_000) };
    };
    await cache.resolve('hash', load);
    clock.advance(4_999);
    await cache.resolve('hash', load);
    expect(loads).toBe(1);
    clock.advance(1);
    await cache.resolve('hash', load);
    expect(loads).toBe(2);
  });
});
