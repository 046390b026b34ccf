import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';
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

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
  const page = await context.newPage();
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() === 'error' && /Content Security Policy|Refused to/i.test(msg.text())) problems.push(msg.text());
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { context, page };
}

/** The persisted root model: redux-persist writes dva's combined state, the root model as one JSON string. */
async function persisted(page: Page): Promise<Record<string, unknown>> {
  const raw = await page.evaluate(() => localStorage.getItem('persist:root'));
  if (!raw) return {};
  return JSON.parse((JSON.parse(raw) as { root: string }).root) as Record<string, unknown>;
}

async function signIn(page: Page, username = 'admin', password = 'admin123') {
  await page.goto(`${baseURL}/#/login`);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('workspace').waitFor();
}

const tab = (page: Page, path: string) => page.locator(`[data-testid="tab"][data-path="${path}"]`);
const tabPaths = (page: Page) =>
  page.getByTestId('tab').evaluateAll((els) => els.map((el) => el.getAttribute('data-path')));

describe('the console in Chromium', () => {
  it('signs in, opens three screens as tabs that keep their state, and finds them after a reload', async () => {
    const { context, page } = await newPage();
    await signIn(page);
    expect(page.url()).toContain('#/dashboard/workspace');
    const state = await persisted(page);
    expect(state.token).toMatchObject({ type: 'bearer' });
    expect((state.token as { accessToken: string }).accessToken).toBeTruthy();
    expect(state.userInfo).toMatchObject({ userName: 'admin' });
    expect(state.tenantId).toBeTruthy();
    expect(state.clientType).toBe('console');
    expect((state.sysCodes as unknown[]).length).toBeGreaterThan(0);
    expect((state.errCodes as unknown[]).length).toBeGreaterThan(0);

    await page.goto(`${baseURL}/#/account/center`);
    await page.getByTestId('account-center').waitFor();
    await page.goto(`${baseURL}/#/no/such/screen`);
    await page.getByTestId('exception-404').waitFor();
    expect(await tabPaths(page)).toEqual(['/dashboard/workspace', '/account/center']);

    await tab(page, '/account/center').click();
    await page.getByTestId('account-display-name').fill('Typed before switching');
    await tab(page, '/dashboard/workspace').click();
    await expect.poll(() => page.url()).toContain('#/dashboard/workspace');
    await tab(page, '/account/center').click();
    expect(await page.getByTestId('account-display-name').inputValue()).toBe('Typed before switching');

    await page.reload();
    await page.getByTestId('account-center').waitFor();
    expect(await tabPaths(page)).toEqual(['/dashboard/workspace', '/account/center']);
    expect((await persisted(page)).lastActiveTabPath).toBe('/account/center');
    await context.close();
  });

  it('keeps the sidebar collapsed and the dark theme over a reload', async () => {
    const { context, page } = await newPage();
    await signIn(page);
    await page.getByTestId('layout-collapse').click();
    await expect.poll(async () => (await persisted(page)).collapsed).toBe(true);
    await page.getByTestId('theme-switch').click();
    await expect.poll(async () => (await persisted(page)).theme).toBe('dark');

    await page.reload();
    await page.getByTestId('workspace').waitFor();
    expect(await page.getByTestId('layout-collapse').getAttribute('data-collapsed')).toBe('true');
    expect(await page.locator('.ant-layout-sider-collapsed').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('theme-switch').getAttribute('data-theme')).toBe('dark');
    const background = await page.evaluate(
      () => getComputedStyle(document.querySelector('.ant-layout')!).backgroundColor,
    );
    const [r = 255, g = 255, b = 255] = background.match(/\d+/g)?.map(Number) ?? [];
    expect(r + g + b).toBeLessThan(3 * 80);
    await context.close();
  });

  it('returns to /login when the session has expired', async () => {
    const { context, page } = await newPage();
    await signIn(page);
    const { accessToken } = (await persisted(page)).token as { accessToken: string };
    const res = await fetch(`${baseURL}/api/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(res.status).toBe(204);
    await page.reload();
    await page.waitForURL(/#\/login/, { timeout: 15_000 });
    await expect.poll(async () => (await persisted(page)).token).toEqual({});
    await context.close();
  });

  it('signs out from the user menu, revoking the session', async () => {
    const { context, page } = await newPage();
    await signIn(page);
    const { accessToken } = (await persisted(page)).token as { accessToken: string };
    await page.getByTestId('user-menu').hover();
    await page.getByTestId('logout').click();
    await page.waitForURL(/#\/login/);
    const me = await fetch(`${baseURL}/api/auth/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(me.status).toBe(401);
    await context.close();
  });

  it('ran with no content-security-policy violation or page error', () => {
    expect(problems).toEqual([]);
  });
});
