import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInDemoAdmin } from '../bench/demo-sign-in';
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
/** A 1×1 PNG: the scan of the certificate. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
});
afterAll(() => browser?.close());

/**
 * Presses `trigger` until the dialog's field `field` shows, waiting for each press to open it before pressing again
 * (a second press while a dialog fades in can land on its mask and close it): a press that lands while the screen is
 * still settling (a navigation's tab and first page, a profile reloading) can open nothing.
 */
async function openUntil(trigger: Locator, field: string) {
  const shows = (timeout: number) =>
    page
      .getByTestId(field)
      .waitFor({ timeout })
      .then(
        () => true,
        () => false,
      );
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!(await page.getByTestId(field).isVisible())) await trigger.click();
    // CI once saw the form show and then close again before its first field was used: it must still be there a
    // moment later
    if ((await shows(10_000)) && (await page.waitForTimeout(1_000).then(() => shows(1_000)))) return;
  }
  throw new Error(`${field} did not show after three presses`);
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
    // the scan of the certificate, uploaded as it is chosen (one is needed to submit)
    await page
      .getByTestId('attachments-field')
      .locator('input[type=file]')
      .setInputFiles({ name: '证书扫描.png', mimeType: 'image/png', buffer: PNG });
    await page.locator('.ant-upload-list-item-done', { hasText: '证书扫描.png' }).waitFor();
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
    // the review is started through the API (the dialog is the same one the activation uses below)
    const auth = { authorization: `Bearer ${await signInDemoAdmin(baseURL)}`, 'content-type': 'application/json' };
    const found = await (await fetch(`${baseURL}/api/people/expert?keyword=${expertNo}`, { headers: auth })).json();
    const [row] = found.data;
    const reviewed = await fetch(`${baseURL}/api/people/expert/${row.id}/status`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ to: 'in_review', reason: '专家评审', version: row.version }),
    });
    expect(reviewed.status).toBe(200);
    await page.goto(`${baseURL}/#/expert/users`);
    const list = page.getByTestId('people-expert');
    await list.locator('tr', { hasText: expertNo }).getByTestId('row-profile').click();
    const profile = page.getByTestId('expert-profile');
    await profile.getByTestId('qualifications-of').getByText(certNo).waitFor();
    await settles(profile.getByTestId('resource-profile').first(), '审核中');
    await openUntil(profile.getByTestId('expert-change-status'), 'expert-status-to');
    await choose(page, 'expert-status-to', '在聘');
    await page.getByTestId('expert-status-reason').fill('专家评审');
    await page.getByTestId('expert-status-submit').click();
    await settles(profile.getByTestId('resource-profile').first(), '在聘');
    expect(problems).toEqual([]);
  });
});
