import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { roleSheet } from '../support/role-sheet';
import { launchChromium } from './browser';
import { keepFailures } from './failures';

const baseURL = inject('baseURL');
const ROWS = 8000;
let browser: Browser;
let page: Page;
keepFailures('import-job', () => page);
let token: string;

const liveRoleCodes = async () => {
  const res = await fetch(`${baseURL}/api/system/role?pageSize=100&sort=code`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { total: number; data: { code: string }[] };
  return { total: body.total, codes: body.data.map((r) => r.code) };
};
const progress = () => page.getByTestId('import-job-progress');

beforeAll(async () => {
  const signIn = await fetch(`${baseURL}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'password',
      client_id: 'console',
      tenant: 'demo',
      username: 'admin',
      password: 'admin123',
    }),
  });
  token = ((await signIn.json()) as { access_token: string }).access_token;
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
});
afterAll(async () => {
  await browser?.close();
});

describe('A large import in Chromium', () => {
  it('shows the progress of a large import, cancels it, and leaves the roles as they were', async () => {
    const before = await liveRoleCodes();
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'medu-import-')), 'roles.xlsx');
    writeFileSync(file, await roleSheet(ROWS, `e2e_job_${Date.now().toString(36)}`));

    await page.goto(`${baseURL}/#/login`);
    await page.getByTestId('login-username').fill('admin');
    await page.getByTestId('login-password').fill('admin123');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('workspace').waitFor();
    await page.goto(`${baseURL}/#/system/role`);
    await page.getByTestId('system-role').waitFor();
    await page.getByTestId('table-import').click();
    await page.getByTestId('import-modal').waitFor();

    await page.locator('[data-testid="import-modal"] input[type="file"]').setInputFiles(file);
    await page.getByTestId('import-check').click();
    await expect
      .poll(() => page.getByTestId('import-summary').getAttribute('data-phase'), { timeout: 60_000 })
      .toBe('checked');
    await page.getByTestId('import-commit').click();

    // The bar advances: rows done of the total, while the job writes.
    await expect.poll(() => progress().getAttribute('data-status'), { timeout: 60_000, interval: 50 }).toBe('applying');
    expect(await progress().getAttribute('data-total')).toBe(String(ROWS));
    const first = Number(await progress().getAttribute('data-done'));
    await expect
      .poll(async () => Number((await progress().getAttribute('data-done')) ?? -1), { timeout: 60_000, interval: 50 })
      .toBeGreaterThan(first);
    expect(await progress().innerText()).toMatch(new RegExp(`正在导入：\\d+ / ${ROWS} 行`));

    await page.getByTestId('import-cancel-job').click();
    await expect
      .poll(() => page.getByTestId('import-job-result').getAttribute('data-status'), { timeout: 120_000 })
      .toBe('cancelled');
    expect(await page.getByTestId('import-job-result').innerText()).toContain('已取消，未写入任何数据');
    expect(await liveRoleCodes()).toEqual(before);
  });
});
