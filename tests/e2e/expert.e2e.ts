import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { choose } from './antd';
import { launchChromium, signInAsAdmin } from './browser';
import { keepFailures } from './failures';

const baseURL = inject('baseURL');
let browser: Browser;
let page: Page;
keepFailures('expert', () => page);
const problems: string[] = [];
/** Names of this run (the server is shared by the journeys of one run). */
const tag = Date.now().toString(36).slice(-4).toUpperCase();
const expertNo = `E${tag}`;
const certNo = `Q-${tag}`;

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
});
afterAll(() => browser?.close());

/**
 * Presses `trigger` until the dialog's field `field` shows: a click that lands while the screen is still settling (a
 * navigation's tab and first page, the previous dialog's closing mask, a profile reloading) can open nothing.
 */
async function openUntil(trigger: Locator, field: string) {
  await expect
    .poll(
      async () => {
        if (await page.getByTestId(field).isVisible()) return true;
        await trigger.click({ timeout: 5_000 }).catch(() => undefined);
        return page.getByTestId(field).isVisible();
      },
      { timeout: 30_000 },
    )
    .toBe(true);
}

/** The status a row or profile shows settles to `text` (each step is a request and a reload). */
const settles = (row: ReturnType<Page['locator']>, text: string) =>
  expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain(text);

describe('Experts and qualifications in Chromium', () => {
  it('signs in as the tenant administrator', async () => {
    await signInAsAdmin(page, baseURL);
  });

  it('adds an external expert', async () => {
    await page.goto(`${baseURL}/#/expert/users`);
    const list = page.getByTestId('people-expert');
    await openUntil(list.getByTestId('table-create'), 'form-name');
    await page.getByTestId('form-name').fill('钱教授');
    await page.getByTestId('form-expertNo').fill(expertNo);
    await page.getByTestId('form-specialties').click({ force: true });
    await page.keyboard.type('外科');
    await page.locator('.ant-select-item-option', { hasText: /^外科$/ }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('resource-form-submit').click();
    await settles(list.locator('tr', { hasText: expertNo }), '已申请');
  });

  it('files a qualification under them, submits it and approves it, keeping each step', async () => {
    await page.goto(`${baseURL}/#/expert/qualifications`);
    const list = page.getByTestId('people-qualification');
    await openUntil(list.getByTestId('table-create'), 'form-ownerType');
    await choose(page, 'form-ownerType', '专家');
    await page.getByTestId('qualification-owner').click();
    await page.keyboard.type('钱教授');
    await page.locator('.ant-select-item-option', { hasText: `钱教授 (${expertNo})` }).click();
    await choose(page, 'form-qualificationType', '执业证书');
    await page.getByTestId('form-certNo').fill(certNo);
    await page.getByTestId('resource-form-submit').click();
    const row = list.locator('tr', { hasText: certNo });
    await settles(row, '草稿');
    await row.getByTestId('qualification-submit').click();
    await settles(row, '待审核');
    await row.getByTestId('qualification-review').click();
    await page.getByTestId('qualification-review-submit').click();
    await settles(row, '已通过');
    await row.getByTestId('qualification-history-open').click();
    await expect.poll(() => page.getByTestId('qualification-history-item').count(), { timeout: 15_000 }).toBe(2);
    await page.keyboard.press('Escape');
  });

  it('activates the expert from their profile, which lists the approved qualification', async () => {
    await page.goto(`${baseURL}/#/expert/users`);
    const list = page.getByTestId('people-expert');
    await list.locator('tr', { hasText: expertNo }).getByTestId('row-profile').click();
    const profile = page.getByTestId('expert-profile');
    await profile.getByTestId('qualifications-of').getByText(certNo).waitFor();
    for (const status of ['审核中', '在聘']) {
      await openUntil(profile.getByTestId('expert-change-status'), 'expert-status-to');
      await choose(page, 'expert-status-to', status);
      await page.getByTestId('expert-status-reason').fill('专家评审');
      await page.getByTestId('expert-status-submit').click();
      await settles(profile.getByTestId('resource-profile').first(), status);
      await page.getByTestId('expert-status-submit').waitFor({ state: 'hidden' });
    }
    expect(problems).toEqual([]);
  });
});
