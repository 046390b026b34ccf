import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './browser';

/**
 * axe-core's WCAG 2.1 A and AA rules on every screen of spec.md §2 (and the sign-in screen and the workspace), in the
 * light and the dark theme: no serious or critical violation of any rule, and none at all of a few moderate ones (HELD).
 * Each list has a row (one record of each kind is made
 * first) and a `{id}` route opens the first record of its list. Each screen is one page load per theme, in one browser.
 */

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/**
 * Rules held to no violation whatever their impact (meta-viewport, a zoom the page forbids, axe-core counts as
 * moderate); every other rule is held to no serious or critical violation.
 */
const HELD = new Set(['html-has-lang', 'meta-viewport', 'aria-required-children', 'aria-hidden-focus']);

type Who = 'demo' | 'platform';
/** A route to visit: its path (`{id}` taken from `list`, an API list path) and who signs in to see it. */
interface Screen {
  path: string;
  list?: string;
  who?: Who;
}

// spec.md §2, in its order
const SCREENS: Screen[] = [
  { path: '/doc/base' },
  { path: '/doc/tag' },
  { path: '/doc/list' },
  { path: '/message/list' },
  { path: '/message/template' },
  { path: '/message/followers' },
  { path: '/expert/users' },
  { path: '/expert/qualifications' },
  { path: '/report/list' },
  { path: '/file/list' },
  { path: '/oss/list' },
  { path: '/post/list' },
  { path: '/post/{id}/profile', list: '/community/post' },
  { path: '/post/board/list' },
  { path: '/teach/course/list' },
  { path: '/teach/course/{id}/profile', list: '/teaching/course' },
  { path: '/teach/course/item/list' },
  { path: '/teach/course/item/{id}/profile', list: '/teaching/course-item' },
  { path: '/teach/teaching/list' },
  { path: '/teach/teaching/{id}/profile', list: '/teaching/activity' },
  { path: '/question/list' },
  { path: '/question/add' },
  { path: '/question/edit/{id}', list: '/assess/question' },
  { path: '/question/{id}/profile', list: '/assess/question' },
  { path: '/exam-paper/list' },
  { path: '/exam-paper/add' },
  { path: '/exam-paper/edit/{id}', list: '/assess/paper' },
  { path: '/exam-paper/{id}/profile', list: '/assess/paper' },
  { path: '/trainee/list' },
  { path: '/trainee/type' },
  { path: '/trainee/{id}/profile', list: '/people/trainee' },
  { path: '/user/staff' },
  { path: '/user/staff/{id}/profile', list: '/people/staff' },
  { path: '/user/organization' },
  { path: '/user/organization/{id}/profile', list: '/people/organization' },
  { path: '/doctor/{id}/profile', list: '/people/doctor' },
  { path: '/dictionary/busiitem' },
  { path: '/dictionary/industry', who: 'platform' },
  { path: '/dictionary/errcode', who: 'platform' },
  { path: '/dictionary/syscode' },
  { path: '/system/admin' },
  { path: '/system/admin/{id}/profile', list: '/system/admin' },
  { path: '/system/district', who: 'platform' },
  { path: '/system/tenant', who: 'platform' },
  { path: '/system/role' },
  { path: '/system/settings' },
  { path: '/system/permission', who: 'platform' },
  { path: '/system/client', who: 'platform' },
  { path: '/system/client/{id}/profile', list: '/system/client', who: 'platform' },
  { path: '/user/trainee-type' },
  { path: '/user/trainee-type/{id}/detail', list: '/people/trainee-type' },
  { path: '/user/doctor-type' },
  { path: '/user/doctor-type/{id}/detail', list: '/people/doctor-type' },
  { path: '/user/trainee-type-field' },
  { path: '/user/trainee-type-field/{id}/detail', list: '/people/trainee-field' },
  { path: '/units/list' },
  { path: '/units/{id}/profile', list: '/people/unit' },
  { path: '/dashboard/workspace' },
  { path: '/account/center' },
];

const ACCOUNTS: Record<Who, [string, string, string]> = {
  demo: ['demo', 'admin', 'admin123'],
  platform: ['platform', 'admin', 'admin123'],
};

const server = { url: inject('baseURL') };
let browser: Browser;

/** The API as `who`, answering the body; throws on a failure. */
function apiAs(who: Who) {
  const [tenant, username, password] = ACCOUNTS[who];
  let token: Promise<string> | undefined;
  return async (method: string, path: string, body?: unknown) => {
    token ??= fetch(`${server.url}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', client_id: 'console', tenant, username, password }),
    })
      .then((res) => res.json())
      .then((answer) => answer.access_token as string);
    const res = await fetch(`${server.url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${await token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = res.status === 204 ? undefined : await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  };
}

/** One record of each kind a `{id}` route opens, made through the API (the journeys' server has no demo content). */
async function addRecords() {
  const api = apiAs('demo');
  const tag = Date.now().toString(36).slice(-5);
  const org = (body: Record<string, unknown>) => api('POST', '/people/organization', body);
  const hospital = await org({ code: `AH${tag}`, name: `演示医院${tag}`, orgType: 'hospital' });
  const department = await org({
    code: `AD${tag}`,
    name: `心内科${tag}`,
    orgType: 'department',
    parentId: hospital.id,
  });
  const base = await org({ code: `AB${tag}`, name: `住培基地${tag}`, orgType: 'training_base', parentId: hospital.id });
  const doctorType = await api('POST', '/people/doctor-type', { code: `ad${tag}`, name: `带教医师${tag}` });
  const doctor = await api('POST', '/people/doctor', {
    name: '王建国',
    gender: 'male',
    doctorTypeId: doctorType.id,
    orgId: department.id,
  });
  const traineeType = await api('POST', '/people/trainee-type', {
    code: `at${tag}`,
    name: `住院医师${tag}`,
    category: 'residency',
  });
  await api('POST', '/people/trainee-field', {
    traineeTypeId: traineeType.id,
    key: `school${tag}`,
    label: '毕业院校',
    fieldType: 'text',
  });
  await api('POST', '/people/trainee', {
    name: '赵一鸣',
    traineeTypeId: traineeType.id,
    trainingBaseId: base.id,
    traineeNo: `A${tag}`,
  });
  await api('POST', '/people/staff', { name: '王五', staffNo: `s${tag}`, orgId: department.id, isTeacher: false });
  await api('POST', '/people/unit', { name: `市医院${tag}` });
  const board = await api('POST', '/community/board', { code: `a11y${tag}`, name: `病例讨论${tag}` });
  await api('POST', '/community/post', { boardId: board.id, title: '一例胸痛', contentHtml: '<p>讨论</p>' });
  const category = await api('POST', '/assess/category', { code: `a11y-${tag}`, name: `内科-${tag}` });
  const question = await api('POST', '/assess/question', {
    questionType: 'single_choice',
    medicalFormat: 'A1',
    stem: '急性心肌梗死后血清中最早升高的心肌损伤标志物是',
    options: ['肌钙蛋白 I', '肌红蛋白', '肌酸激酶同工酶', '天冬氨酸转氨酶', '乳酸脱氢酶'].map((text, i) => ({
      key: 'ABCDE'[i],
      text,
    })),
    answer: ['B'],
    difficulty: 2,
    categoryId: category.id,
  });
  await api('POST', '/assess/paper', {
    code: `A-${tag}`,
    title: '内科出科考核',
    purpose: 'department_exit',
    passScore: 1,
    durationMinutes: 60,
    sections: [{ title: 'A1 型题', slots: [{ questionId: question.id, score: 2 }] }],
  });
  const courseCategory = await api('POST', '/teaching/course-category', { code: `ac${tag}`, name: `公共课程${tag}` });
  const course = await api('POST', '/teaching/course', {
    code: `AC-${tag}`,
    title: '住院医师岗前培训',
    categoryId: courseCategory.id,
    purpose: 'pre_job',
    creditHours: 8,
    audienceTraineeTypeIds: [traineeType.id],
  });
  await api('POST', '/teaching/course-item', { courseId: course.id, itemType: 'chapter', title: '第一章 核心制度' });
  const start = Date.now() + 2 * 86_400_000;
  await api('POST', '/teaching/activity', {
    title: '急性心力衰竭病例讨论',
    activityType: 'case_discussion',
    orgId: department.id,
    hostDoctorId: doctor.id,
    startAt: new Date(start).toISOString(),
    endAt: new Date(start + 7_200_000).toISOString(),
    location: '示教室',
    audienceTraineeTypeIds: [traineeType.id],
  });
}

/** The routes to visit, `{id}` replaced by the first record of its list. */
async function resolveRoutes(): Promise<{ path: string; who: Who }[]> {
  const apis = { demo: apiAs('demo'), platform: apiAs('platform') };
  return Promise.all(
    SCREENS.map(async ({ path, list, who = 'demo' }) => {
      if (!list) return { path, who };
      const first = (await apis[who]('GET', `${list}?pageSize=1`)).data[0];
      if (!first) throw new Error(`no record in ${list} for ${path}`);
      return { path: path.replace('{id}', String(first.id)), who };
    }),
  );
}

/**
 * Waits for the screen at `path` to have drawn: its title, the header's actions, no spinner, skeleton or busy button
 * left, and antd's motions (a tab's ink bar, a table's fade-in, a colour's transition) ended.
 */
async function settle(page: Page, path: string) {
  const pane = `[data-testid="tab-pane"][data-path="${path}"]:not([hidden])`;
  await page.locator(`${pane} [data-testid="page-title"]`).waitFor({ timeout: 15_000 });
  await page.getByTestId('header-actions').waitFor({ timeout: 15_000 });
  await page
    .waitForFunction(
      (selector) =>
        !document.querySelector(`${selector} :is(.ant-spin-spinning, .ant-skeleton-active, .ant-btn-loading)`),
      pane,
      { timeout: 15_000 },
    )
    .catch(() => undefined);
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((motion) => motion.playState !== 'running' || motion.effect?.getTiming().iterations === Infinity),
      undefined,
      { timeout: 5_000, polling: 100 },
    )
    .catch(() => undefined);
}

interface Found {
  rule: string;
  impact: string;
  nodes: number;
  /** the first nodes' selectors, to find them */
  where?: string[];
}

/** axe-core's serious and critical violations of the page as it is, and any of a rule held (HELD). */
async function audit(page: Page): Promise<Found[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeSource });
  const violations = await page.evaluate(
    (tags) =>
      (
        window as unknown as {
          axe: {
            run(
              context: Document,
              options: object,
            ): Promise<{
              violations: {
                id: string;
                impact: string;
                nodes: { target: string[]; html: string; any: { data?: unknown }[] }[];
              }[];
            }>;
          };
        }
      ).axe
        .run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
        .then((result) =>
          result.violations.map((v) => ({
            rule: v.id,
            impact: v.impact,
            nodes: v.nodes.length,
            where: v.nodes
              .slice(0, 3)
              .map(
                (node) =>
                  `${node.target.join(' ')} ${node.html.slice(0, 120)} ${JSON.stringify(node.any[0]?.data ?? '').slice(0, 120)}`,
              ),
          })),
        ),
    TAGS,
  );
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || HELD.has(v.rule));
}

async function signIn(page: Page, who: Who) {
  const [tenant, username, password] = ACCOUNTS[who];
  await page.goto(`${server.url}/#/login`);
  await page.getByTestId('login-page').waitFor();
  await page.getByTestId('login-tenant').fill(tenant);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('tabs-outlet').waitFor();
}

/**
 * Every route as `who`, each opened once (the first with a load of the page, the others as a click on the menu would)
 * and its tab closed after: route → what axe found there.
 */
async function walk(page: Page, routes: { path: string }[], theme: string): Promise<Map<string, Found[]>> {
  const found = new Map<string, Found[]>();
  for (const [i, { path }] of routes.entries()) {
    if (i === 0) {
      await page.goto(`${server.url}/#${path}`);
      await page.reload();
    } else await page.evaluate((hash) => window.location.assign(`#${hash}`), path);
    try {
      // a screen that did not show (a busy machine) is loaded once more
      await settle(page, path).catch(async () => {
        await page.reload();
        await settle(page, path);
      });
      let seen = await audit(page);
      // what a late motion or request left half-drawn (a fading button, a tab's colour on its way) is looked at again
      if (seen.length) {
        await settle(page, path);
        seen = await audit(page);
      }
      found.set(path, seen);
    } catch (error) {
      found.set(path, [{ rule: `screen did not render: ${String(error).slice(0, 80)}`, impact: 'critical', nodes: 0 }]);
    }
    console.log(`axe [${theme}] ${path}: ${JSON.stringify(found.get(path))}`);
    // the tab goes (back to the workspace's): the bar never holds more than two tabs
    await page
      .locator('.ant-tabs-tab-active .ant-tabs-tab-remove')
      .click({ timeout: 5_000 })
      .catch(() => undefined);
  }
  return found;
}

function summary(found: Map<string, Found[]>): string[] {
  return [...found]
    .filter(([, list]) => list.length)
    .map(
      ([path, list]) =>
        `${path}: ${list.map((v) => `${v.rule} (${v.impact}, ${v.nodes}: ${v.where?.join(' | ') ?? ''})`).join(', ')}`,
    );
}

beforeAll(async () => {
  await addRecords();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('accessibility (axe-core, WCAG 2.1 A and AA)', () => {
  it('finds no serious or critical violation on any screen, in the light and the dark theme', async () => {
    const only = new RegExp(process.env.A11Y_ONLY ?? '');
    const routes = (await resolveRoutes()).filter((route) => only.test(route.path));
    const problems: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      for (const who of ['demo', 'platform'] as const) {
        // the console's CSP allows no inline script: axe-core's own tag is let in
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
        const page = await context.newPage();
        await page.goto(`${server.url}/#/login`);
        await page.getByTestId('login-page').waitFor();
        if (who === 'demo' && theme === 'light') {
          const login = new Map([['/login', await audit(page)]]);
          problems.push(...summary(login).map((line) => `[${theme}] ${line}`));
        }
        await signIn(page, who);
        await page.getByTestId('theme-switch').waitFor();
        if ((await page.getByTestId('theme-switch').getAttribute('data-theme')) !== theme) {
          await page.getByTestId('theme-switch').click();
          await expect.poll(() => page.getByTestId('theme-switch').getAttribute('data-theme')).toBe(theme);
        }
        const found = await walk(
          page,
          routes.filter((route) => route.who === who),
          theme,
        );
        problems.push(...summary(found).map((line) => `[${theme}] ${line}`));
        await context.close();
      }
    }
    expect(problems).toEqual([]);
  }, 900_000);
});
