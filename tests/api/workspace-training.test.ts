import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_REVIEWER } from '../../server/src/db/seed/demo-content';
import { todayRange } from '../../server/src/modules/dashboard/workspace/workspace.service';
import { engines, importForm, type Json, secondTenant, startApi, type TestApi, testClock, xlsxFile } from './helpers';

type Point = { key: string | null; label: string | null; count: number; path: string | null };
type Card = {
  key: string;
  count: number;
  path: string;
  progress?: { done: number; of: number };
  series?: { key: string; points: Point[] }[];
};
type Workspace = { cards: Card[]; imports: Json[]; activity: Json[] };

/** The list request a console path makes: `/trainee/list?status=x` → the trainee list's API with the same filters. */
const API_OF: Record<string, string> = {
  '/trainee/list': '/api/people/trainee',
  '/question/list': '/api/assess/question',
  '/teach/teaching/list': '/api/teaching/activity',
  '/teach/course/list': '/api/teaching/course',
  '/expert/qualifications': '/api/people/qualification',
};

describe('the caller’s today', () => {
  it('begins at their midnight, as instants', () => {
    // 02:00 UTC is 10:00 in China: its day began at 16:00 UTC the day before
    expect(todayRange(new Date('2026-12-07T02:00:00Z'), 480)).toBe('2026-12-06T16:00:00.000Z,2026-12-07T16:00:00.000Z');
    expect(todayRange(new Date('2026-12-07T02:00:00Z'), 0)).toBe('2026-12-07T00:00:00.000Z,2026-12-08T00:00:00.000Z');
    expect(todayRange(new Date('2026-12-07T02:00:00Z'), -300)).toBe(
      '2026-12-06T05:00:00.000Z,2026-12-07T05:00:00.000Z',
    );
  });
});

describe.each(engines())('the training workspace on $name', (engine) => {
  let api: TestApi;
  let admin: string;
  // 14:00 in China: the demo's skills training began two hours ago, today
  const clock = testClock(Date.parse('2026-12-07T06:00:00Z'));

  beforeAll(async () => {
    api = await startApi(engine, { demoContent: true, config: { now: clock.now } });
    await api.addTenant(secondTenant);
    admin = (await api.tokens('demo', 'admin', 'admin123')).access;
    // the demo content is some 150 calls: on a machine shared with other suites they may take longer than a hook's time
  }, 300_000);
  afterAll(() => api?.close());

  const workspace = async (token: string, utcOffset = 480) => {
    const answer = await api.call('GET', `/api/dashboard/workspace?utcOffset=${utcOffset}`, { token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as Workspace;
  };
  /** What the card's screen lists: the API list with the filters of its path. */
  const listed = async (path: string, token: string) => {
    const [screen, query = ''] = path.split('?');
    const answer = await api.call('GET', `${API_OF[screen as string]}?pageSize=200&${query}`, { token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as { total: number; data: Json[] };
  };
  const card = (w: Workspace, key: string) => w.cards.find((c) => c.key === key) as Card;

  it("counts the seeded tenant's training exactly, each card the total of the list it links to", async () => {
    const mine = await workspace(admin);
    expect(mine.cards.slice(0, 5).map((c) => c.key)).toEqual([
      'traineesInTraining',
      'questionsAwaitingReview',
      'activitiesToday',
      'courseCompletion',
      'expiringQualifications',
    ]);
    expect(card(mine, 'traineesInTraining')).toMatchObject({ count: 16, path: '/trainee/list?status=in_training' });
    expect(card(mine, 'questionsAwaitingReview')).toMatchObject({
      count: 1,
      path: '/question/list?status=pending_review',
    });
    const today = card(mine, 'activitiesToday');
    expect(today.path).toBe(
      `/teach/teaching/list?startAt=${encodeURIComponent('2026-12-06T16:00:00.000Z,2026-12-07T16:00:00.000Z')}`,
    );
    // the skills training, its register taken by hand: all present but one excused
    expect(today.count).toBe(1);
    const [held] = (await listed(today.path, admin)).data;
    expect(held.title).toBe('心肺复苏技能培训');
    expect(today.progress).toEqual({ done: held.participantCount - 1, of: held.participantCount });
    expect(held.participantCount).toBeGreaterThan(1);
    const courses = card(mine, 'courseCompletion');
    expect(courses).toMatchObject({ count: 1, path: '/teach/course/list?status=published' });
    const [course] = (await listed(courses.path, admin)).data;
    expect(courses.progress).toEqual({ done: course.completedCount, of: course.enrolmentCount });
    expect(course.enrolmentCount).toBeGreaterThan(0);
    expect(card(mine, 'expiringQualifications')).toMatchObject({
      count: 0,
      path: '/expert/qualifications?expiring=true',
    });

    for (const shown of mine.cards.slice(0, 5))
      expect((await listed(shown.path, admin)).total, shown.key).toBe(shown.count);
  });

  it('breaks the trainees in training down by base and by cohort, each part a filtered list', async () => {
    const { series } = card(await workspace(admin), 'traineesInTraining');
    expect(series?.map((s) => s.key)).toEqual(['byBase', 'byCohort']);
    for (const { points } of series ?? []) {
      expect(points.reduce((sum, p) => sum + p.count, 0)).toBe(16);
      for (const point of points) {
        expect(point.path).toContain('status=in_training');
        expect((await listed(point.path as string, admin)).total, point.path as string).toBe(point.count);
      }
    }
    const bases = series?.[0]?.points.map((p) => p.label);
    expect(bases).toEqual(expect.arrayContaining(['内科专业基地', '外科专业基地']));
    expect(series?.[1]?.points.every((p) => /^\d{4}$/.test(String(p.label)))).toBe(true);
  });

  it("keeps to the caller's data scope: a base's coordinator counts that base's trainees only", async () => {
    const bases = (
      await api.call('GET', '/api/people/organization?orgType=specialty_base&keyword=内科', { token: admin })
    ).body.data as Json[];
    const internal = bases.find((b) => b.name === '内科专业基地');
    const role = (
      await api.call('POST', '/api/system/role', { token: admin, body: { code: 'im_base', name: '内科基地' } })
    ).body;
    const scoped = await api.call('PUT', `/api/system/role/${role.id}/data-scope`, {
      token: admin,
      body: { dataScope: 'org_custom', dataScopeOrgIds: [internal.id] },
    });
    expect(scoped.status, JSON.stringify(scoped.body)).toBe(200);
    const permissions = await api.db
      .selectFrom('permission')
      .select('id')
      .where('code', 'in', ['dashboard:workspace:view', 'trainee:trainee:list'])
      .execute();
    const granted = await api.call('PUT', `/api/system/role/${role.id}/permissions`, {
      token: admin,
      body: { permissionIds: permissions.map((p) => String(p.id)) },
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    const made = await api.call('POST', '/api/system/admin', {
      token: admin,
      body: {
        userName: 'im_lead',
        displayName: '内科基地秘书',
        password: 'Base-Heron-2026',
        roleIds: [role.id],
        mustChangePassword: false,
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const lead = (await api.tokens('demo', 'im_lead', 'Base-Heron-2026')).access;

    const theirs = await workspace(lead);
    // only the card of the list they hold: no questions, activities, courses, qualifications, accounts or imports
    expect(theirs.cards.map((c) => c.key)).toEqual(['traineesInTraining']);
    expect(theirs.imports).toEqual([]);
    const trainees = card(theirs, 'traineesInTraining');
    const all = card(await workspace(admin), 'traineesInTraining');
    const internalCount = all.series?.[0]?.points.find((p) => p.key === internal.id)?.count;
    expect(internalCount).toBeGreaterThan(0);
    expect(trainees.count).toBe(internalCount);
    expect(trainees.count).toBeLessThan(16);
    expect(trainees.count).toBe((await listed(trainees.path, lead)).total);
    expect(trainees.series?.[0]?.points.map((p) => p.key)).toEqual([internal.id]);
  });

  it('gives the reviewer the review queue only, and another tenant nothing of this one', async () => {
    const reviewer = (await api.tokens('demo', DEMO_REVIEWER.username, DEMO_REVIEWER.password)).access;
    expect((await workspace(reviewer)).cards.map((c) => [c.key, c.count])).toEqual([['questionsAwaitingReview', 1]]);

    const other = await workspace((await api.tokens('demo2', 'admin', 'admin123')).access);
    const counts = Object.fromEntries(other.cards.map((c) => [c.key, c.count]));
    expect(counts).toMatchObject({
      traineesInTraining: 0,
      questionsAwaitingReview: 0,
      activitiesToday: 0,
      courseCompletion: 0,
      expiringQualifications: 0,
    });
    expect(card(other, 'traineesInTraining').series).toEqual([
      { key: 'byBase', points: [] },
      { key: 'byCohort', points: [] },
    ]);
  });

  it("names the tenant's latest imports with the list of what they brought", async () => {
    const file = await xlsxFile([
      ['编码', '名称'],
      ['ws_import', '导入的角色'],
    ]);
    const job = await api.fetch('POST', '/api/system/role/import-jobs', { token: admin, form: importForm(file) });
    expect(job.status).toBe(202);
    const { imports } = await workspace(admin);
    expect(imports[0]).toMatchObject({
      resource: 'system/role',
      listPermission: 'system:role:list',
      fileName: 'import.xlsx',
    });
    expect((await workspace((await api.tokens('demo2', 'admin', 'admin123')).access)).imports).toEqual([]);
  });

  it('refuses an offset no zone has', async () => {
    expect((await api.call('GET', '/api/dashboard/workspace?utcOffset=9999', { token: admin })).status).toBe(400);
  });
});
