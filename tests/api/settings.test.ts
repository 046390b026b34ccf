import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest } from '../../server/src/db/migrator';
import { engines, secondTenant, startApi, type TestApi } from './helpers';

const en = { 'accept-language': 'en-US' };

interface SettingView {
  key: string;
  value: unknown;
  hasValue: boolean;
  overridden: boolean;
  editable: boolean;
  version: number;
}

describe.each(engines())('settings on $name', (engine) => {
  let api: TestApi;
  let demo: string;
  let platform: string;
  let demo2: string;
  let viewer: string;

  beforeAll(async () => {
    api = await startApi(engine);
    await api.addTenant(secondTenant);
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
    demo2 = (await api.tokens('demo2', 'admin', 'admin123')).access;
    viewer = (await api.tokens('demo', 'viewer', 'viewer123')).access;
  });
  afterAll(() => api?.close());

  const setting = async (token: string, key: string): Promise<SettingView> => {
    const category = key.split('.')[0];
    const res = await api.call('GET', `/api/system/settings?category=${category}`, { token });
    expect(res.status).toBe(200);
    return res.body.data.find((s: SettingView) => s.key === key);
  };

  it('lists typed settings by category with their metadata and the caller’s rights', async () => {
    const res = await api.call('GET', '/api/system/settings?category=security', { token: demo });
    expect(res.body).toMatchObject({ success: true, total: 7 });
    expect(res.body.data[0]).toMatchObject({
      key: 'security.password.minLength',
      valueType: 'number',
      value: 8,
      defaultValue: 8,
      min: 6,
      max: 64,
      tenantOverridable: true,
      overridden: false,
      editable: true,
      version: 0,
    });
    const all = await api.call('GET', '/api/system/settings', { token: demo });
    expect(new Set(all.body.data.map((s: { category: string }) => s.category))).toEqual(
      new Set(['security', 'login', 'upload', 'message', 'branding', 'privacy']),
    );
    const captchaType = all.body.data.find((s: SettingView) => s.key === 'login.captchaType');
    expect(captchaType.options.map((o: { value: string }) => o.value)).toEqual(['image', 'slider']);
    expect(await setting(demo, 'login.captchaSecret')).toMatchObject({ value: null, hasValue: false, editable: false });
    expect((await api.call('GET', '/api/system/settings?category=nope', { token: demo })).status).toBe(400);
  });

  it('refuses a user without the code', async () => {
    expect((await api.call('GET', '/api/system/settings', { token: viewer })).status).toBe(403);
    const put = await api.call('PUT', '/api/system/settings/branding.name', { token: viewer, body: { value: 'x' } });
    expect(put.status).toBe(403);
  });

  it('validates the value against its type, naming `value`', async () => {
    const cases: [string, unknown, string][] = [
      ['security.password.minLength', 'ten', 'must be a number'],
      ['security.password.minLength', 3, 'must be at least 6'],
      ['security.password.minLength', 65, 'must be at most 64'],
      ['security.password.requireLetterAndDigit', 'yes', 'must be true or false'],
      ['login.captchaType', 'audio', 'must be one of image / slider'],
      ['branding.name', 42, 'must be text'],
      ['upload.allowedExtensions', null, 'is required'],
    ];
    for (const [key, value, message] of cases) {
      const res = await api.call('PUT', `/api/system/settings/${key}`, { token: demo, body: { value }, headers: en });
      expect(res.status, key).toBe(400);
      expect(res.body.fields, key).toEqual([{ field: 'value', message }]);
    }
    expect(
      (await api.call('PUT', '/api/system/settings/no.such.key', { token: demo, body: { value: 1 } })).status,
    ).toBe(404);
    expect(
      (await api.call('PUT', '/api/system/settings/branding.name', { token: demo, body: { value: 'x', extra: 1 } }))
        .status,
    ).toBe(400);
  });

  it('writes a tenant override with optimistic locking, invisible to another tenant, and resets it', async () => {
    const put = await api.call('PUT', '/api/system/settings/upload.maxSizeMb', {
      token: demo,
      body: { value: 20, version: 0 },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ value: 20, defaultValue: 50, overridden: true, version: 1 });
    const stale = await api.call('PUT', '/api/system/settings/upload.maxSizeMb', {
      token: demo,
      body: { value: 30, version: 0 },
    });
    expect(stale.status).toBe(409);
    expect(await setting(demo, 'upload.maxSizeMb')).toMatchObject({ value: 20, version: 1 });
    expect(await setting(demo2, 'upload.maxSizeMb')).toMatchObject({ value: 50, overridden: false });
    expect(await setting(platform, 'upload.maxSizeMb')).toMatchObject({ value: 50 });

    const reset = await api.call('DELETE', '/api/system/settings/upload.maxSizeMb/override', { token: demo });
    expect(reset.body).toMatchObject({ value: 50, overridden: false, version: 0 });
    const audit = await api.call(
      'GET',
      `/api/system/audit-log?resourceType=system_setting&resourceId=${reset.body.id}`,
      {
        token: demo,
      },
    );
    expect(audit.body.data.map((a: { action: string; after: unknown }) => [a.action, a.after])).toEqual([
      ['system:settings:update', { key: 'upload.maxSizeMb', scope: 'platform', value: 50 }],
      ['system:settings:update', { key: 'upload.maxSizeMb', scope: 'tenant', value: 20 }],
    ]);
    const other = await api.call(
      'GET',
      `/api/system/audit-log?resourceType=system_setting&resourceId=${reset.body.id}`,
      {
        token: demo2,
      },
    );
    expect(other.body.data).toEqual([]);
  });

  it('keeps platform-only keys and platform rows to platform operators', async () => {
    const tenant = await api.call('PUT', '/api/system/settings/login.captchaSecret', {
      token: demo,
      body: { value: 'abc' },
    });
    expect(tenant).toMatchObject({ status: 403, body: { code: 'setting.notOverridable' } });
    const plat = await api.call('PUT', '/api/system/settings/security.lockout.durationMinutes', {
      token: platform,
      body: { value: 20, version: 0 },
    });
    expect(plat.body).toMatchObject({ value: 20, defaultValue: 20, overridden: false, version: 1 });
    expect(await setting(demo2, 'security.lockout.durationMinutes')).toMatchObject({ value: 20 });
  });

  it('never returns a secret and masks it in the audit trail', async () => {
    const put = await api.call('PUT', '/api/system/settings/login.captchaSecret', {
      token: platform,
      body: { value: 's3cr3t-value' },
    });
    expect(put.body).toMatchObject({ value: '******', hasValue: true });
    expect(await setting(platform, 'login.captchaSecret')).toMatchObject({ value: '******', hasValue: true });
    const same = await api.call('PUT', '/api/system/settings/login.captchaSecret', {
      token: platform,
      body: { value: '******' },
    });
    expect(same.body).toMatchObject({ value: '******', version: put.body.version });
    const rows = await api.db
      .selectFrom('audit_log')
      .select(['before', 'after', 'action'])
      .where('resource_type', '=', 'system_setting')
      .where('resource_id', '=', put.body.id)
      .execute();
    expect(rows).toEqual([
      {
        action: 'platform:setting:update',
        before: { key: 'login.captchaSecret', scope: 'platform', value: null },
        after: { key: 'login.captchaSecret', scope: 'platform', value: '******' },
      },
    ]);
    expect(JSON.stringify(await api.call('GET', '/api/system/settings/public'))).not.toContain('s3cr3t');
    expect((await api.call('GET', '/api/system/settings/public')).body).not.toHaveProperty('login.captchaSecret');
  });

  describe('take effect without a restart', () => {
    it('security.lockout.maxAttempts changes the next sign-in', async () => {
      const put = await api.call('PUT', '/api/system/settings/security.lockout.maxAttempts', {
        token: demo,
        body: { value: 2 },
      });
      expect(put.status).toBe(200);
      expect((await api.signIn('demo', 'viewer', 'wrong')).status).toBe(400);
      const second = await api.signIn('demo', 'viewer', 'wrong');
      expect(second).toMatchObject({ status: 423, body: { code: 'auth.accountLocked' } });
      // demo2 keeps the platform default of 5
      expect((await api.signIn('demo2', 'nurse', 'wrong')).status).toBe(400);
      expect((await api.signIn('demo2', 'nurse', 'wrong')).status).toBe(400);
      expect((await api.signIn('demo2', 'nurse', 'nurse123')).status).toBe(200);
    });

    it('security.password.minLength changes the next password change', async () => {
      const change = (newPassword: string) =>
        api.call('POST', '/api/auth/password', {
          token: demo2,
          body: { currentPassword: 'admin123', newPassword },
          headers: en,
        });
      await api.call('PUT', '/api/system/settings/security.password.minLength', { token: demo2, body: { value: 12 } });
      const refused = await change('Jade-Moth-7');
      expect(refused).toMatchObject({ status: 400, body: { code: 'auth.passwordPolicy' } });
      expect(refused.body.message).toContain('12');
      await api.call('PUT', '/api/system/settings/security.password.minLength', { token: demo2, body: { value: 10 } });
      expect((await change('Jade-Moth-7')).status).toBe(204);
    });

    it('branding.name changes GET /api/system/settings/public', async () => {
      await api.call('PUT', '/api/system/settings/branding.name', { token: platform, body: { value: '新平台名称' } });
      expect((await api.call('GET', '/api/system/settings/public')).body['branding.name']).toBe('新平台名称');
      expect((await api.call('GET', '/api/system/settings/public?tenant=demo')).body['branding.name']).toBe(
        '新平台名称',
      );
      await api.call('PUT', '/api/system/settings/branding.name', { token: demo, body: { value: '示范医院' } });
      expect((await api.call('GET', '/api/system/settings/public?tenant=demo')).body['branding.name']).toBe('示范医院');
      expect((await api.call('GET', '/api/system/settings/public?tenant=demo2')).body['branding.name']).toBe(
        '新平台名称',
      );
    });
  });
  // last: it takes the schema back to before migration 0054 and forward again
  it('takes WebP among the default upload types; migration 0054 adds it where the list is still the old default exactly', async () => {
    const key = 'upload.allowedExtensions';
    const put = (token: string, value: string[]) =>
      api.call('PUT', `/api/system/settings/${key}`, { token, body: { value } });
    const webp = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#888888' } })
      .webp()
      .toBuffer();
    /** The status of an upload of a WebP, and the refusal's code. */
    const upload = async (token: string) => {
      const res = await api.fetch('POST', '/api/file/file/upload?name=scan.webp&purpose=attachment', {
        token,
        body: webp,
        headers: { 'content-type': 'application/octet-stream' },
      });
      const body = (await res.json()) as { code?: string };
      return [res.status, res.status === 201 ? undefined : body.code];
    };
    const refused = [415, 'file.typeNotAllowed'];
    const old = ['jpg', 'jpeg', 'png', 'gif', 'pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx'];
    const tail = ['mp4', 'mp3', 'm4a', 'wav', 'zip'];
    const before = [...old, ...tail];
    const now = [...old.slice(0, 4), 'webp', ...old.slice(4), ...tail];
    expect(await setting(demo, key)).toMatchObject({ value: now, defaultValue: now, overridden: false });
    expect(await upload(demo)).toEqual([201, undefined]);

    // a tenant's own choice, without WebP
    const own = ['png', 'jpg', 'pdf'];
    expect((await put(demo2, own)).status).toBe(200);
    const reverted: string[] = [];
    while (!reverted.includes('reverted 0054_upload_webp')) reverted.push(...(await migrateDown(api.db)));
    // reverted: the default is the old list again; a tenant's own list (the old default itself) is saved, as the
    // release of that level saved it (its settings screen reads columns of later migrations: read in the database)
    const stored = (tenant: string | null) =>
      api.db
        .selectFrom('system_setting as s')
        .leftJoin('tenant as t', 't.id', 's.tenant_id')
        .select('s.value')
        .where('s.key', '=', key)
        .where((eb) => (tenant ? eb('t.code', '=', tenant) : eb('s.tenant_id', 'is', null)))
        .executeTakeFirst();
    expect(await stored(null)).toEqual({ value: before });
    expect(await upload(demo)).toEqual(refused);
    await api.db
      .insertInto('system_setting')
      .values({
        tenant_id: await api.db
          .selectFrom('tenant')
          .select('id')
          .where('code', '=', 'demo')
          .executeTakeFirstOrThrow()
          .then((t) => t.id),
        key,
        category: 'upload',
        name: '允许上传的文件类型',
        value: JSON.stringify(before),
        value_type: 'json',
        version: 1,
      })
      .execute();
    expect(await stored('demo')).toEqual({ value: before });

    await migrateToLatest(api.db);
    expect(await setting(platform, key)).toMatchObject({ value: now });
    expect(await setting(demo, key)).toMatchObject({ value: now, overridden: true });
    expect(await setting(demo2, key)).toMatchObject({ value: own, defaultValue: now, overridden: true });
    expect(await upload(demo)).toEqual([201, undefined]);
    expect(await upload(demo2)).toEqual(refused);
  });
});
