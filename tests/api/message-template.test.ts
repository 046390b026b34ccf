import { beforeAll, describe, expect, it } from 'vitest';
import { engines, type Json, twoTenants } from './helpers';

const templates = '/api/message/template';

/** The seeded business item `paper.published` declares `paperName` (example 内科出科考核) and `startAt`. */
const paperNotice = {
  name: '试卷发布通知',
  channel: 'in_app',
  businessItemCode: 'paper.published',
  titleTemplate: '{paperName} 已发布',
  contentTemplate: '请于 {startAt} 参加 {paperName}，考场 {room}',
};

describe.each(engines())('message templates on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;
  let platform: string;

  beforeAll(async () => {
    platform = (await s.api.tokens('platform', 'admin', 'admin123')).access;
  });

  it('parses the variables on save and reports those the business item does not declare', async () => {
    const made = await create(templates, { code: 'paper.notice', ...paperNotice });
    expect(made).toMatchObject({
      params: ['paperName', 'startAt', 'room'],
      unknownParams: ['room'],
      businessItemName: '试卷发布',
      scope: 'tenant',
      status: 'enabled',
      version: 0,
    });
    const listed = await call('GET', `${templates}?keyword=paper.notice`);
    expect(listed.body.data).toEqual([expect.objectContaining({ id: made.id, unknownParams: ['room'] })]);

    const fixed = await call('PUT', `${templates}/${made.id}`, {
      contentTemplate: '请于 {startAt} 参加 {paperName}',
      version: made.version,
    });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body).toMatchObject({ params: ['paperName', 'startAt'], unknownParams: [], version: 1 });

    // without a business item nothing is declared, so nothing is reported
    const free = await create(templates, { ...paperNotice, code: 'free', businessItemCode: null });
    expect(free).toMatchObject({ params: ['paperName', 'startAt', 'room'], unknownParams: [] });

    // a stale edit is refused and changes nothing
    const stale = await call('PUT', `${templates}/${made.id}`, { name: '旧', version: made.version });
    expect(stale.status).toBe(409);
    expect((await call('GET', `${templates}/${made.id}`)).body.name).toBe(paperNotice.name);
  });

  it('refuses placeholders that are not variable names and unknown business items, naming the field', async () => {
    const bad = await call('POST', templates, { ...paperNotice, code: 'bad', contentTemplate: '您好 {user name}' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([{ field: 'contentTemplate', message: expect.stringContaining('{user name}') }]);
    const empty = await call('POST', templates, { ...paperNotice, code: 'bad', titleTemplate: '标题 {}' });
    expect(empty.body.fields[0].field).toBe('titleTemplate');
    const noItem = await call('POST', templates, { ...paperNotice, code: 'bad', businessItemCode: 'no.such' });
    expect(noItem.status).toBe(400);
    expect(noItem.body.fields[0].field).toBe('businessItemCode');
  });

  it('requires the title for in-app and e-mail, the provider template id for WeChat and SMS', async () => {
    const noTitle = await call('POST', templates, { ...paperNotice, code: 'x1', titleTemplate: null });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.fields[0].field).toBe('titleTemplate');
    const email = await call('POST', templates, { ...paperNotice, code: 'x2', channel: 'email', titleTemplate: ' ' });
    expect(email.body.fields[0].field).toBe('titleTemplate');
    const sms = await call('POST', templates, { ...paperNotice, code: 'x3', channel: 'sms', titleTemplate: null });
    expect(sms.status).toBe(400);
    expect(sms.body.fields[0].field).toBe('externalTemplateId');
    const wechat = await call('POST', templates, { ...paperNotice, code: 'x4', channel: 'wechat_mp' });
    expect(wechat.body.fields[0].field).toBe('externalTemplateId');

    const made = await create(templates, {
      ...paperNotice,
      code: 'sms.notice',
      channel: 'sms',
      titleTemplate: null,
      externalTemplateId: 'SMS_1234',
    });
    expect(made.params).toEqual(['startAt', 'paperName', 'room']);
    // an update is checked against the template as it would be
    const cleared = await call('PUT', `${templates}/${made.id}`, { externalTemplateId: null, version: made.version });
    expect(cleared.body.fields[0].field).toBe('externalTemplateId');
    const toEmail = await call('PUT', `${templates}/${made.id}`, { channel: 'email', version: made.version });
    expect(toEmail.body.fields[0].field).toBe('titleTemplate');
    const account = await create('/api/message/wechat-account', {
      name: '住培公众号',
      appId: 'wx0123456789abcdef',
      appSecret: '0123456789abcdef0123',
    });
    const wechatMade = await create(templates, {
      ...paperNotice,
      code: 'wx.notice',
      channel: 'wechat_mp',
      externalTemplateId: 'tpl-abc',
      wechatAccountId: account.id,
      dataMapping: { first: '{paperName} 已发布', keyword1: '{startAt}' },
      jumpUrl: 'https://example.org/paper',
    });
    expect(wechatMade).toMatchObject({ wechatAccountId: account.id, dataMapping: { keyword1: '{startAt}' } });
  });

  it('shares platform templates with every tenant, read-only to them; a tenant’s own stay its own', async () => {
    const shared = await s.api.call('POST', templates, {
      token: platform,
      body: { ...paperNotice, code: 'platform.notice' },
    });
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);
    expect(shared.body.scope).toBe('platform');
    const id = shared.body.id;

    for (const token of [s.demo, s.other]) {
      const seen = await call('GET', `${templates}/${id}`, undefined, token);
      expect(seen.status).toBe(200);
      expect(seen.body.scope).toBe('platform');
      const refused = await call('PUT', `${templates}/${id}`, { name: '改', version: 0 }, token);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('config.platformOnly');
      expect((await call('DELETE', `${templates}/${id}`, undefined, token)).status).toBe(403);
    }
    // a tenant may have its own template of the same code (it overrides the platform's), but not twice
    const own = await create(templates, { ...paperNotice, code: 'platform.notice', name: '本院通知' });
    expect(own.scope).toBe('tenant');
    const twice = await call('POST', templates, { ...paperNotice, code: 'platform.notice' });
    expect(twice.status).toBe(400);
    expect(twice.body.fields[0].field).toBe('code');

    // another tenant neither sees nor reaches it
    expect((await call('GET', `${templates}/${own.id}`, undefined, s.other)).status).toBe(404);
    const theirs = await call('GET', `${templates}?keyword=platform.notice`, undefined, s.other);
    expect(theirs.body.data.map((t: Json) => t.id)).toEqual([id]);
    expect((await call('DELETE', `${templates}/${own.id}`, undefined, s.other)).status).toBe(404);
    // and a viewer of the tenant holds no template permission
    expect((await call('GET', templates, undefined, s.viewer)).status).toBe(403);

    const updated = await s.api.call('PUT', `${templates}/${id}`, {
      token: platform,
      body: { status: 'disabled', version: 0 },
    });
    expect(updated.body).toMatchObject({ status: 'disabled', scope: 'platform', version: 1 });
  });

  it('keeps platform templates out of a tenant’s writes in the database itself', async () => {
    const shared = await s.api.call('POST', templates, {
      token: platform,
      body: { ...paperNotice, code: 'rls.notice' },
    });
    expect(shared.status).toBe(201);
    const idOf = async (code: string) =>
      (await s.api.db.selectFrom('tenant').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
    const demoId = await idOf('demo');
    // the platform's templates are the platform tenant's rows (migration 0070)
    const platformId = await idOf('platform');
    const changed = await s.api.tenancy.inTenant(demoId, (tx) =>
      tx
        .updateTable('message_template')
        .set({ name: 'hijacked' })
        .where('tenant_id', '=', platformId)
        .executeTakeFirst(),
    );
    expect(Number(changed.numUpdatedRows)).toBe(0);
    await expect(
      s.api.tenancy.inTenant(demoId, (tx) =>
        tx
          .insertInto('message_template')
          .values({
            tenant_id: platformId,
            code: 'forged',
            name: 'x',
            channel: 'sms',
            content_template: 'x',
            external_template_id: 'x',
          })
          .execute(),
      ),
    ).rejects.toThrow();
    // a query without any WHERE clause sees the platform's and its own, never another tenant's
    const theirs = await call('POST', templates, { ...paperNotice, code: 'theirs' }, s.other);
    expect(theirs.status).toBe(201);
    const seen = await s.api.tenancy.inTenant(demoId, (tx) =>
      tx.selectFrom('message_template').select('tenant_id').distinct().execute(),
    );
    expect(seen.map((r) => (r.tenant_id === platformId ? 'platform' : String(r.tenant_id))).sort()).toEqual(
      [String(demoId), 'platform'].sort(),
    );
  });

  it('previews with sample values, filling the others from the business item’s examples', async () => {
    const made = await create(templates, { ...paperNotice, code: 'preview.me' });
    const preview = await call('POST', `${templates}/${made.id}/preview`, { params: { startAt: '12月1日 9:00' } });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toEqual({
      title: '内科出科考核 已发布',
      content: '请于 12月1日 9:00 参加 内科出科考核，考场 {room}',
      params: ['paperName', 'startAt', 'room'],
      missing: ['paperName', 'room'],
      unknownParams: ['room'],
    });
    const all = await call('POST', `${templates}/${made.id}/preview`, {
      params: { paperName: '外科', startAt: '明天', room: 'A101' },
    });
    expect(all.body).toMatchObject({ content: '请于 明天 参加 外科，考场 A101', missing: [] });

    const draft = await call('POST', `${templates}/preview`, {
      businessItemCode: 'paper.published',
      contentTemplate: '{paperName} 共 {count} 题',
      params: { count: 50 },
    });
    expect(draft.body).toMatchObject({
      title: null,
      content: '内科出科考核 共 50 题',
      missing: ['paperName'],
      unknownParams: ['count'],
    });
    const badDraft = await call('POST', `${templates}/preview`, { contentTemplate: '{a b}' });
    expect(badDraft.body.fields[0].field).toBe('contentTemplate');
    expect((await call('POST', `${templates}/999999/preview`, {})).status).toBe(404);
  });

  it('is not deleted while a business item names it as its default', async () => {
    const made = await create(templates, { ...paperNotice, code: 'course.notice' });
    const item = await s.api.call('POST', '/api/dictionary/busiitem', {
      token: platform,
      body: {
        code: 'course.opened',
        name: '课程开课',
        module: 'teaching',
        notifiable: true,
        variables: [{ name: 'courseName', label: '课程名称', example: '心电图判读' }],
        defaultTemplateCode: 'course.notice',
      },
    });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    const refused = await call('DELETE', `${templates}/${made.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('messageTemplate.inUse');
    expect((await call('GET', `${templates}/${made.id}`)).status).toBe(200);

    // once the platform has a template of that code, the tenant's own may go: the default falls back to it
    const shared = await s.api.call('POST', templates, {
      token: platform,
      body: { ...paperNotice, code: 'course.notice' },
    });
    expect(shared.status).toBe(201);
    expect((await call('DELETE', `${templates}/${made.id}`)).status).toBe(204);
    expect((await call('GET', `${templates}/${made.id}`)).status).toBe(404);
    const platformDelete = () => s.api.call('DELETE', `${templates}/${shared.body.id}`, { token: platform });
    expect((await platformDelete()).status).toBe(409);

    const unbound = await s.api.call('PUT', `/api/dictionary/busiitem/${item.body.id}`, {
      token: platform,
      body: { defaultTemplateCode: null, version: item.body.version },
    });
    expect(unbound.status).toBe(200);
    expect((await platformDelete()).status).toBe(204);
  });
});
