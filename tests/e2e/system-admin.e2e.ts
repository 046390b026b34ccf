import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { downloadFrom, launchChromium } from './browser';
import { keepFailures } from './failures';

const baseURL = inject('baseURL');
let browser: Browser;
let page: Page;
keepFailures('system-admin', () => page);
const problems: string[] = [];
const stamp = Date.now().toString(36);
const created = `e2e_${stamp}`;
const imported = `imp_${stamp}`;

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
});
afterAll(async () => {
  await browser?.close();
});

const row = (text: string) => page.locator('[data-testid="system-admin"] tr', { hasText: text });

async function readSheet(file: string): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(readFileSync(file) as never);
  const rows: string[][] = [];
  book.worksheets[0]?.eachRow((r) =>
    rows.push((r.values as unknown[]).slice(1).map((v) => (v == null ? '' : String(v)))),
  );
  return rows;
}

async function signIn(username: string, password: string) {
  return fetch(`${baseURL}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', client_id: 'console', tenant: 'demo', username, password }),
  });
}

// one journey, in order: each step works on what the previous one made
describe('System → Admin accounts in Chromium', () => {
  it('opens the screen from the menu', async () => {
    await page.goto(`${baseURL}/#/login`);
    await page.getByTestId('login-username').fill('admin');
    await page.getByTestId('login-password').fill('admin123');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('workspace').waitFor();
    await page.locator('.ant-menu').getByText('系统管理').click();
    await page.locator('.ant-menu').getByText('管理员', { exact: true }).click();
    await page.getByTestId('system-admin').waitFor();
    expect(page.url()).toContain('#/system/admin');
    await row('admin').first().waitFor();
  });

  it('creates an account', async () => {
    await page.getByTestId('table-create').click();
    await page.getByTestId('form-userName').fill(created);
    await page.getByTestId('form-displayName').fill('端到端');
    await page.getByTestId('form-password').fill('Amber-Falcon-81');
    await page.getByTestId('form-email').fill(`${created}@example.com`);
    await page.getByTestId('resource-form-submit').click();
    await row(created).waitFor();
    await expect.poll(() => row(created).innerText()).toContain('端到端');
  });

  it('edits it', async () => {
    await row(created).getByTestId('row-edit').click();
    await expect.poll(() => page.getByTestId('form-displayName').inputValue()).toBe('端到端');
    await page.getByTestId('form-displayName').fill('端到端已改');
    await page.getByTestId('form-mobile').fill('13900000000');
    await page.getByTestId('resource-form-submit').click();
    await expect.poll(() => row(created).innerText()).toContain('端到端已改');
    await expect.poll(() => row(created).innerText()).toContain('13900000000');
  });

  it('exports the filtered set as xlsx', async () => {
    const download = await downloadFrom(page, page.getByTestId('table-export'));
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const file = await download.path();
    const rows = await readSheet(file!);
    expect(rows[0]).toContain('用户名');
    expect(rows.some((r) => r.includes(created) && r.includes('端到端已改'))).toBe(true);
  });

  it('imports a file: dry run, then commit', async () => {
    await page.getByTestId('table-import').click();
    await page.getByTestId('import-modal').waitFor();
    const download = await downloadFrom(page, page.getByTestId('import-template'));
    const [header = []] = await readSheet((await download.path())!);
    const values: Record<string, string> = {
      用户名: imported,
      姓名: '导入用户',
      邮箱: `${imported}@example.com`,
      初始密码: 'Amber-Falcon-81',
      角色编码: 'viewer',
    };
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('import');
    sheet.addRow(header);
    sheet.addRow(header.map((label) => values[label] ?? ''));
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'medu-import-')), 'admins.xlsx');
    writeFileSync(file, Buffer.from(await book.xlsx.writeBuffer()));

    await page.locator('[data-testid="import-modal"] input[type="file"]').setInputFiles(file);
    await page.getByTestId('import-check').click();
    await expect.poll(() => page.getByTestId('import-summary').getAttribute('data-phase')).toBe('checked');
    expect(await page.getByTestId('import-summary').innerText()).toContain('将新增 1 条');
    await page.getByTestId('import-commit').click();
    await expect.poll(() => page.getByTestId('import-summary').getAttribute('data-phase')).toBe('done');
    await page.getByTestId('import-close').click();
    await row(imported).waitFor();
    await expect.poll(() => row(imported).innerText()).toContain('访客');
  });

  it('assigns a role from the tenant roles', async () => {
    await row(created).getByTestId('row-more').click();
    await page.getByTestId('row-action-assign-role').click();
    await page.getByTestId('roles-select').click();
    await page.locator('.ant-select-item-option', { hasText: '访客 (viewer)' }).click();
    await page.locator('.ant-modal-title', { hasText: '分配角色' }).click();
    await page.locator('.ant-select-dropdown').waitFor({ state: 'hidden' });
    await page.getByTestId('roles-submit').click();
    await expect.poll(() => row(created).innerText()).toContain('访客');
  });

  it('resets a password and shows the temporary one once', async () => {
    await row(created).getByTestId('row-more').click();
    await page.getByTestId('row-action-reset-password').click();
    await page.getByTestId('confirm-ok').click();
    const temporary = (await page.getByTestId('temporary-password').innerText()).trim();
    expect(temporary.length).toBeGreaterThanOrEqual(8);
    expect((await signIn(created, 'Amber-Falcon-81')).ok).toBe(false);
    expect((await signIn(created, temporary)).status).toBe(200);
    await page.getByTestId('temporary-password-close').click();
    await page.getByTestId('temporary-password').waitFor({ state: 'detached' });
  });

  it('opens the profile with roles, sign-ins and the audit trail', async () => {
    await row(created).getByTestId('row-profile').click();
    await page.getByTestId('admin-profile').waitFor();
    expect(page.url()).toMatch(/#\/system\/admin\/\d+\/profile$/);
    await expect.poll(() => page.getByTestId('admin-roles').innerText()).toContain('访客 (viewer)');
    await expect.poll(() => page.getByTestId('admin-sign-ins').innerText()).toContain('成功');
    const actions = () =>
      page.getByTestId('audit-entry').evaluateAll((els) => els.map((el) => el.getAttribute('data-action')));
    await expect
      .poll(actions)
      .toEqual(expect.arrayContaining(['system:admin:create', 'system:admin:update', 'system:admin:reset-password']));
    expect(await page.getByTestId('resource-profile').innerText()).toContain(`${created}@example.com`);
  });

  it('keeps column settings over a reload', async () => {
    await page.goto(`${baseURL}/#/system/admin`);
    const header = page.locator('[data-testid="system-admin"] thead');
    // the shell's extras (tab bar, header actions) render once the first row is on screen: settle on it first
    await row('admin').first().waitFor();
    await expect.poll(() => header.innerText()).toContain('邮箱');
    await page.locator('[data-testid="system-admin"]').getByTestId('table-column-setting').click();
    await page.getByTestId('table-column-settings').getByText('邮箱', { exact: true }).click();
    await expect.poll(() => header.innerText()).not.toContain('邮箱');
    expect(await page.evaluate(() => localStorage.getItem('resource-table:system/admin'))).toContain('email');
    await page.reload();
    await page.getByTestId('system-admin').waitFor();
    await row('admin').first().waitFor();
    expect(await header.innerText()).not.toContain('邮箱');
    expect(await header.innerText()).toContain('手机号');
  });

  it('ran without a page error', () => {
    expect(problems).toEqual([]);
  });
});
