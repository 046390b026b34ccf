import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser';
import { type RunningServer, startServer } from './global-setup';

/**
 * Every list at a laptop's width (1366 and 1440 px): a row's status and its actions are on screen without scrolling
 * sideways, however many columns the list has. Runs on a server of its own with the demo content (questions,
 * trainees, activities, courses, papers), so the lists have rows whose texts are as long as a user's.
 */

/** A list route and the title of the column that says its rows' state (`null`: its rows have none). */
type ListRoute = [path: string, status: string | null];

/** The lists of the demo tenant's administrator. */
const DEMO_LISTS: ListRoute[] = [
  ['/question/list', '状态'],
  ['/trainee/list', '培训状态'],
  ['/teach/teaching/list', '状态'],
  ['/teach/course/list', '状态'],
  ['/teach/course/item/list', '状态'],
  ['/exam-paper/list', '状态'],
  ['/user/organization', '状态'],
  ['/user/staff', '状态'],
  ['/user/trainee-type', '状态'],
  ['/user/trainee-type-field', '状态'],
  ['/user/doctor-type', '状态'],
  ['/doctor', '状态'],
  ['/expert/users', '状态'],
  ['/expert/qualifications', '审核状态'],
  ['/units/list', '状态'],
  ['/file/list', '状态'],
  ['/oss/list', '状态'],
  ['/doc/base', '状态'],
  ['/doc/list', '状态'],
  ['/doc/tag', '状态'],
  ['/post/board/list', '状态'],
  ['/post/list', '状态'],
  ['/report/list', '状态'],
  ['/message/list', '状态'],
  ['/message/template', '状态'],
  ['/message/followers', '关注状态'],
  ['/system/admin', '状态'],
  ['/system/role', '状态'],
  ['/dictionary/syscode', '状态'],
  ['/dictionary/busiitem', '状态'],
];

/** The lists only the platform's operators see. */
const PLATFORM_LISTS: ListRoute[] = [
  ['/system/tenant', '状态'],
  ['/system/client', '状态'],
  ['/dictionary/errcode', '状态'],
  ['/system/district', '状态'],
  ['/dictionary/industry', '状态'],
];

interface Placement {
  /** What is out of the list's visible area, each as `column: text (left..right outside lo..hi)`. */
  hidden: string[];
  /** Whether the list shows the columns looked for. */
  found: { status: boolean; actions: boolean; actionButtons: number };
}

/**
 * Where the status column's header and cells and the actions column's header and buttons of the screen's list are,
 * against the part of the list the user sees (its scrolling box, within the window), before any scrolling.
 */
function placement(page: Page, status: string | null): Promise<Placement> {
  return page.evaluate(
    ({ status }) => {
      const visible = (el: Element) => (el as HTMLElement).offsetParent !== null;
      const table = [...document.querySelectorAll('.ant-table-wrapper')].find(visible);
      if (!table) return { hidden: ['no list shown'], found: { status: false, actions: false, actionButtons: 0 } };
      const box = (table.querySelector('.ant-table-content, .ant-table-body') ?? table).getBoundingClientRect();
      const lo = Math.max(box.left, 0);
      const hi = Math.min(box.right, window.innerWidth);
      const hidden: string[] = [];
      const check = (what: string, el: Element) => {
        const r = el.getBoundingClientRect();
        if (r.left < lo - 1 || r.right > hi + 1)
          hidden.push(
            `${what}: ${el.textContent?.trim()} (${Math.round(r.left)}..${Math.round(r.right)} outside ${Math.round(lo)}..${Math.round(hi)})`,
          );
      };
      const headers = [...table.querySelectorAll('thead tr:last-child > th')];
      const column = (title: string) => headers.findIndex((th) => th.textContent?.trim() === title);
      const rows = [...table.querySelectorAll('tbody tr.ant-table-row')].slice(0, 10);
      const cells = (index: number) =>
        rows.map((row) => row.children[index]).filter((cell): cell is Element => cell !== undefined);

      const statusAt = status === null ? -1 : column(status);
      if (statusAt >= 0) {
        check('status header', headers[statusAt] as Element);
        for (const cell of cells(statusAt)) check('status', cell);
      }
      const actionsAt = column('操作');
      let actionButtons = 0;
      if (actionsAt >= 0) {
        check('actions header', headers[actionsAt] as Element);
        for (const cell of cells(actionsAt))
          for (const button of cell.querySelectorAll('a, button, [role="button"]')) {
            actionButtons++;
            check('action', button);
          }
      }
      return { hidden, found: { status: statusAt >= 0, actions: actionsAt >= 0, actionButtons } };
    },
    { status },
  );
}

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ DEMO_CONTENT: 'true' }, 600_000), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signedIn(width: number, tenant: string, username: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/#/login`);
  await page.getByTestId('login-tenant').fill(tenant);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill('admin123');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('tabs-outlet').waitFor();
  return page;
}

/** Each list opened in turn (each in its tab; the others' are hidden): what of its status and actions is off screen. */
async function walk(page: Page, lists: ListRoute[]) {
  const found: Record<string, Placement['found']> = {};
  const hidden: Record<string, string[]> = {};
  for (const [path, status] of lists) {
    await page.goto(`${server.url}/#${path}`);
    try {
      await page.locator('.ant-table-wrapper:visible').first().waitFor({ timeout: 15_000 });
      // the first page's rows (or the list's empty state) have come, and the row actions after them
      await page
        .locator('.ant-table-wrapper:visible .ant-pagination, .ant-table-wrapper:visible .ant-table-placeholder')
        .first()
        .waitFor({ timeout: 15_000 });
      await page.waitForFunction(() => !document.querySelector('.ant-table-wrapper .ant-spin-spinning'));
    } catch {
      hidden[path] = ['no list shown'];
      continue;
    }
    const shown = await placement(page, status);
    found[path] = shown.found;
    if (shown.hidden.length) hidden[path] = shown.hidden;
  }
  return { found, hidden };
}

/** Thirty-odd lists each waited for on a machine the suite shares: minutes, not the default two. */
const WALK_MS = 600_000;

describe.each([1366, 1440])('lists at %i px', (width) => {
  it(
    "shows every list's status and actions without scrolling sideways (the demo tenant's administrator)",
    async () => {
      const page = await signedIn(width, 'demo', 'admin');
      const { found, hidden } = await walk(page, DEMO_LISTS);
      expect(hidden).toEqual({});
      for (const [path, status] of DEMO_LISTS) {
        expect(found[path]?.actions, `${path} has an actions column`).toBe(true);
        if (status) expect(found[path]?.status, `${path} has its status column`).toBe(true);
      }
      // the demo content fills the lists a training administrator starts from: their rows' actions were looked at
      for (const path of [
        '/question/list',
        '/trainee/list',
        '/teach/teaching/list',
        '/teach/course/list',
        '/exam-paper/list',
      ])
        expect(found[path]?.actionButtons, `${path} rows' actions`).toBeGreaterThan(0);
      await page.context().close();
    },
    WALK_MS,
  );

  it(
    "shows the platform's lists' status and actions without scrolling sideways",
    async () => {
      const page = await signedIn(width, 'platform', 'admin');
      const { found, hidden } = await walk(page, PLATFORM_LISTS);
      expect(hidden).toEqual({});
      for (const [path] of PLATFORM_LISTS) expect(found[path]?.status && found[path]?.actions, path).toBe(true);
      await page.context().close();
    },
    WALK_MS,
  );
});
