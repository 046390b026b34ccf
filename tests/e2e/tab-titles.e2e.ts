import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminApi } from './api';
import { launchChromium, signInAsAdmin } from './browser';
import { keepFailures } from './failures';

const baseURL = inject('baseURL');
const api = adminApi(baseURL);
let browser: Browser;
let page: Page;
keepFailures('tab-titles', () => page);

/** In the page, from its next load on: every tab title that ever showed a message id (`xxx.yyy.entity`). */
const watchRawTitles = () => {
  const seen: string[] = [];
  (window as unknown as { rawTitles: string[] }).rawTitles = seen;
  const check = () => {
    for (const tab of document.querySelectorAll('[data-testid="tab"]')) {
      const text = tab.textContent ?? '';
      if (/\w+\.\w+\.entity/i.test(text) && !seen.includes(text)) seen.push(text);
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
};

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
});
afterAll(async () => {
  await browser?.close();
});

describe('tab titles after a reload', () => {
  it("names a restored record tab in words before its area's screen is visited", async () => {
    await signInAsAdmin(page, baseURL);
    const admins = await api('GET', '/system/admin?keyword=admin&pageSize=5');
    const admin = admins.data.find((row: { userName: string }) => row.userName === 'admin');
    await page.goto(`${baseURL}/#/system/admin/${admin.id}/profile`);
    const tab = page.locator(`[data-testid="tab"][data-path="/system/admin/${admin.id}/profile"]`);
    await expect.poll(() => tab.textContent()).toMatch(/ · /);
    const title = await tab.textContent();

    // another area's screen is the active one: after the reload, the profile's screen (and its area) is not loaded
    await page.goto(`${baseURL}/#/dashboard/workspace`);
    await page.getByTestId('workspace').waitFor();
    await page.addInitScript(watchRawTitles);
    await page.reload();
    await page.getByTestId('workspace').waitFor();
    await expect.poll(() => tab.textContent()).toBe(title);
    expect(await page.evaluate(() => (window as unknown as { rawTitles: string[] }).rawTitles)).toEqual([]);
  });
});
