import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionName } from '../../server/src/modules/dashboard/workspace/workspace.repository';
import { engines, secondTenant, startApi, type TestApi } from './helpers';

describe('the name of a recent action', () => {
  it("is its permission's under its menu, or else its entity's and verb's, in the language asked", () => {
    expect(actionName('system:role:create', '角色管理', '新增', 'zh-CN')).toBe('角色管理 · 新增');
    // the clock completes an activity: no permission names it
    expect(actionName('teaching:activity:complete', null, null, 'zh-CN')).toBe('教学活动 · 结束');
    expect(actionName('teaching:activity:complete', null, null, 'en-US')).toBe('Teaching activity · Completed');
    expect(actionName('teaching:activity:nothing-known', null, null, 'zh-CN')).toBeNull();
  });
});

type Card = { key: string; count: number; path: string };
const countOf = (cards: Card[], key: string) => cards.find((c) => c.key === key)?.count;

describe.each(engines())('the workspace on $name', (engine) => {
  let api: TestApi;
  let admin: string;
  let viewer: string;

  beforeAll(async () => {
    api = await startApi(engine);
    await api.addTenant(secondTenant);
    admin = (await api.tokens('demo', 'admin', 'admin123')).access;
    viewer = (await api.tokens('demo', 'viewer', 'viewer123')).access;
  });
  afterAll(() => api?.close());

  const workspace = async (token: string) => {
    const answer = await api.call('GET', '/api/dashboard/workspace', { token });
    expect(answer.status).toBe(200);
    return answer.body as { cards: Card[]; activity: { action: string; resourceType: string; summary: string }[] };
  };

  it('counts what an administrator may list in their own tenant, with the screen to open', async () => {
    const { cards } = await workspace(admin);
    // the training cards first (no demo content here: nothing to count), then the security cards
    expect(cards.map((c) => c.key)).toEqual([
      'traineesInTraining',
      'questionsAwaitingReview',
      'activitiesToday',
      'courseCompletion',
      'expiringQualifications',
      'accounts',
      'lockedAccounts',
      'roles',
      'signIns',
      'signInFailures',
    ]);
    expect(cards.find((c) => c.key === 'accounts')).toEqual({ key: 'accounts', count: 2, path: '/system/admin' });
    expect(countOf(cards, 'roles')).toBe(2);
    expect(countOf(cards, 'lockedAccounts')).toBe(0);
    expect(countOf(cards, 'signIns')).toBe(2);

    const other = await workspace((await api.tokens('demo2', 'admin', 'admin123')).access);
    expect(countOf(other.cards, 'accounts')).toBe(2);
    expect(countOf(other.cards, 'signIns')).toBe(1);
  });

  it('follows failed sign-ins and locked accounts', async () => {
    const before = countOf((await workspace(admin)).cards, 'signInFailures')!;
    for (let i = 0; i < 5; i++) expect((await api.signIn('demo', 'viewer', 'wrong-password')).status).not.toBe(200);
    const { cards } = await workspace(admin);
    expect(countOf(cards, 'signInFailures')).toBe(before + 5);
    expect(countOf(cards, 'lockedAccounts')).toBe(1);
  });

  it('shows a user without list permissions no counts, and only their own activity', async () => {
    const created = await api.call('POST', '/api/system/role', { token: admin, body: { code: 'ward', name: '病区' } });
    expect(created.status).toBe(201);
    const mine = await workspace(admin);
    expect(mine.activity[0]).toMatchObject({
      action: 'system:role:create',
      actionName: '角色管理 · 新增',
      actionNameEn: 'Roles · Create',
      resourceType: 'role',
    });
    expect(countOf(mine.cards, 'roles')).toBe(3);

    const theirs = await workspace(viewer);
    expect(theirs).toEqual({ cards: [], imports: [], activity: [] });
  });

  it('names an update by the record, without the API names of the fields it changed', async () => {
    const role = (await api.call('POST', '/api/system/role', { token: admin, body: { code: 'icu', name: '重症' } }))
      .body;
    const updated = await api.call('PUT', `/api/system/role/${role.id}`, {
      token: admin,
      body: { name: '病区二', remark: '夜班', version: role.version },
    });
    expect(updated.status).toBe(200);
    const [latest] = (await workspace(admin)).activity;
    expect(latest).toMatchObject({ action: 'system:role:update', summary: 'icu' });
    // the audit log keeps them, for its own screen
    const log = await api.call('GET', `/api/system/audit-log?resourceType=role&resourceId=${role.id}`, {
      token: admin,
    });
    expect(log.body.data[0].summary).toMatch(/^icu · (name, remark|remark, name)$/);
  });

  it('needs a session', async () => {
    expect((await api.call('GET', '/api/dashboard/workspace')).status).toBe(401);
  });
});
