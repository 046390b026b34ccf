import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './browser';

const baseURL = inject('baseURL');
let browser: Browser;
const problems: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function newPage(width = 1366): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 860 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { context, page };
}

async function fillSignIn(page: Page, tenant: string, username: string, password: string) {
  await page.getByTestId('login-tenant').fill(tenant);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

async function signIn(page: Page, tenant: string, username: string, password: string) {
  await page.goto(`${baseURL}/#/login`);
  await fillSignIn(page, tenant, username, password);
  await page.getByTestId('tabs-outlet').waitFor();
}

const tabPaths = (page: Page) =>
  page.getByTestId('tab').evaluateAll((els) => els.map((el) => el.getAttribute('data-path')));

describe('navigation in Chromium', () => {
  it('keeps a deep link through a first sign-in, with no "expired" message', async () => {
    const { context, page } = await newPage();
    await page.goto(`${baseURL}/#/dictionary/errcode`);
    await page.waitForURL(/#\/login\?redirect=%2Fdictionary%2Ferrcode$/);
    await page.getByTestId('login-page').waitFor();
    expect(await page.locator('.ant-message-notice').count()).toBe(0);

    await fillSignIn(page, 'platform', 'admin', 'admin123');
    await page.waitForURL(/#\/dictionary\/errcode$/);
    await page.getByTestId('resource-table').waitFor();
    expect(await tabPaths(page)).toEqual(['/dictionary/errcode']);

    await page.goto(`${baseURL}/#/login`);
    await page.waitForURL(/#\/dashboard\/workspace$/);
    await context.close();
  });

  it('leaves no tab for ten unknown routes, before or after a reload', async () => {
    const { context, page } = await newPage();
    await signIn(page, 'demo', 'admin', 'admin123');
    await page.getByTestId('workspace').waitFor();
    for (let i = 0; i < 10; i++) {
      await page.goto(`${baseURL}/#/no/such/screen/${i}`);
      await page.getByTestId('exception-404').waitFor();
    }
    expect(await tabPaths(page)).toEqual(['/dashboard/workspace']);
    await page.reload();
    await page.getByTestId('exception-404').waitFor();
    expect(await tabPaths(page)).toEqual(['/dashboard/workspace']);
    await page.goto(`${baseURL}/#/system/admin/999999/profile`);
    await page.getByTestId('record-not-found').waitFor();
    expect(await tabPaths(page)).toEqual(['/dashboard/workspace']);
    await context.close();
  });

  it('lets the viewer change their own password from the user menu', async () => {
    const { context, page } = await newPage();
    await signIn(page, 'demo', 'viewer', 'viewer123');
    await page.getByTestId('workspace').waitFor();
    expect(
      await page.getByTestId('workspace-shortcut').evaluateAll((els) => els.map((el) => el.getAttribute('data-path'))),
    ).toEqual(['/account/center']);
    await page.getByTestId('user-menu').hover();
    await page.getByTestId('user-menu-account').click();
    await page.getByTestId('account-center').waitFor();
    expect(await page.getByTestId('exception-403').count()).toBe(0);
    await page.locator('#currentPassword').fill('viewer123');
    await page.locator('#newPassword').fill('Quiet-Heron-Lantern-2026');
    await page.locator('#confirmPassword').fill('Quiet-Heron-Lantern-2026');
    await page
      .locator('form', { has: page.locator('#confirmPassword') })
      .locator('button.ant-btn-primary')
      .click();
    const signInWith = (password: string) =>
      fetch(`${baseURL}/api/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'password',
          client_id: 'console',
          tenant: 'demo',
          username: 'viewer',
          password,
        }),
      }).then((res) => res.status);
    await expect.poll(() => signInWith('Quiet-Heron-Lantern-2026'), { timeout: 15_000 }).toBe(200);

    await page.getByTestId('user-menu').hover();
    await page.getByTestId('logout').click();
    await page.waitForURL(/#\/login/);
    await fillSignIn(page, 'demo', 'viewer', 'Quiet-Heron-Lantern-2026');
    await page.getByTestId('workspace').waitFor();
    await context.close();
  });

  it('reaches every column of the error-code list at 1024 px, the sidebar folded', async () => {
    const { context, page } = await newPage(1024);
    await signIn(page, 'platform', 'admin', 'admin123');
    await page.goto(`${baseURL}/#/dictionary/errcode`);
    await page.locator('[data-testid="resource-table"] tr.ant-table-row').first().waitFor();
    expect(await page.locator('.ant-layout-sider-collapsed').count()).toBeGreaterThan(0);
    const unreachable = await page.evaluate(() => {
      const box = document.querySelector('[data-testid="resource-table"] .ant-table-content') as HTMLElement;
      const headers = [...box.querySelectorAll('thead th')] as HTMLElement[];
      const frame = box.getBoundingClientRect();
      // the first column stays at the left, the status and the actions at the right: a column scrolled into view
      // shows just right of the first
      const pinned = (th: HTMLElement) => /ant-table-cell-fix-(left|right)/.test(th.className);
      const leftWidth = headers
        .filter((th) => th.className.includes('ant-table-cell-fix-left'))
        .reduce((width, th) => width + th.offsetWidth, 0);
      return headers
        .filter((th) => {
          if (!pinned(th)) box.scrollLeft = Math.max(0, th.offsetLeft - leftWidth);
          const cell = th.getBoundingClientRect();
          const onTop = document.elementFromPoint(cell.left + Math.min(cell.width, 20) / 2, cell.top + cell.height / 2);
          return cell.width < 8 || cell.right > frame.right + 1 || !th.contains(onTop);
        })
        .map((th) => th.innerText);
    });
    expect(unreachable).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    await context.close();
  });

  it('tells a user whose roles were all removed that they have no screens, and signs them out', async () => {
    const api = async (method: string, path: string, token?: string, body?: unknown) => {
      const res = await fetch(`${baseURL}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.json();
    };
    const admin = (
      await api('POST', '/api/auth/token', undefined, {
        grant_type: 'password',
        client_id: 'console',
        tenant: 'demo',
        username: 'admin',
        password: 'admin123',
      })
    ).access_token as string;
    const created = await api('POST', '/api/system/admin', admin, {
      userName: 'noroles',
      displayName: '无角色',
      password: 'Quiet-Otter-42',
      roleIds: [],
      mustChangePassword: false,
    });
    expect(created.roleIds).toEqual([]);

    const { context, page } = await newPage();
    await page.goto(`${baseURL}/#/login`);
    await fillSignIn(page, 'demo', 'noroles', 'Quiet-Otter-42');
    await page.getByTestId('no-screens').waitFor();
    expect(await page.getByTestId('exception-403').count()).toBe(0);
    await page.getByTestId('no-screens-logout').click();
    await page.waitForURL(/#\/login$/);
    await page.getByTestId('login-page').waitFor();
    await context.close();
  });

  it('ran without a page error', () => {
    expect(problems).toEqual([]);
  });
});
