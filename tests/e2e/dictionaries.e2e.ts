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
keepFailures('dictionaries', () => page);
const problems: string[] = [];
const label = `在用${Date.now().toString(36).slice(-4)}`;

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
});

/** Puts the shared dictionary back as the seed had it, for the journeys that run after this one. */
afterAll(async () => {
  await browser?.close();
  const token = await fetch(`${baseURL}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'password',
      client_id: 'console',
      tenant: 'platform',
      username: 'admin',
      password: 'admin123',
    }),
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  const headers = { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' };
  const list = await fetch(`${baseURL}/api/dictionary/syscode/items?typeCode=admin_user_status&keyword=enabled`, {
    headers,
  }).then((r) => r.json() as Promise<{ data: { id: string; value: string; version: number }[] }>);
  const item = list.data.find((i) => i.value === 'enabled');
  if (item) {
    await fetch(`${baseURL}/api/dictionary/syscode/items/${item.id}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ label: '启用', labelEn: 'Enabled', color: 'success', version: item.version }),
    });
  }
});

const menu = async (group: string, entry: string) => {
  const item = page.locator('.ant-menu').getByText(entry, { exact: true });
  if (!(await item.isVisible())) await page.locator('.ant-menu').getByText(group, { exact: true }).click();
  await item.click();
};

async function readSheet(file: string): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(readFileSync(file) as never);
  const rows: string[][] = [];
  book.worksheets[0]?.eachRow((r) =>
    rows.push((r.values as unknown[]).slice(1).map((v) => (v == null ? '' : String(v)))),
  );
  return rows;
}

describe('Dictionaries and districts in Chromium', () => {
  it('signs in as the platform operator and opens the admin accounts', async () => {
    await page.goto(`${baseURL}/#/login`);
    await page.getByTestId('login-tenant').fill('platform');
    await page.getByTestId('login-username').fill('admin');
    await page.getByTestId('login-password').fill('admin123');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('workspace').waitFor();
    await menu('系统管理', '管理员');
    const admin = page.locator('[data-testid="system-admin"] tr', { hasText: 'admin' }).first();
    await admin.waitFor();
    await expect.poll(() => admin.locator('.ant-tag').last().innerText()).toBe('启用');
    // marks this document: if anything reloads the page, the mark is gone
    await page.evaluate(() => Object.assign(window, { __noReload: true }));
  });

  it("names an entity's menu and tab before its area's catalogue has loaded", async () => {
    // the error codes' menu name is a line of the dictionary area's catalogue: the shell has it from the menu answer
    await menu('字典管理', '错误码');
    await page.getByTestId('dictionary-errcode').waitFor();
    await expect
      .poll(() => page.locator('[data-testid="tab"][data-path="/dictionary/errcode"]').innerText())
      .toBe('错误码');
  });

  it('edits a dictionary item label and sees it used by the admin list without a reload', async () => {
    await menu('字典管理', '系统代码');
    await page.getByTestId('dictionary-syscode').waitFor();
    await page.getByTestId('type-row-admin_user_status').click();
    await expect.poll(() => page.getByTestId('dict-items').getAttribute('data-type')).toBe('admin_user_status');
    const row = page.locator('[data-testid="dict-items"] tr', { hasText: 'Enabled' });
    await row.getByTestId('row-edit').click();
    await expect.poll(() => page.getByTestId('form-label').inputValue()).toBe('启用');
    await page.getByTestId('form-label').fill(label);
    await page.getByTestId('resource-form-submit').click();
    await expect.poll(() => row.innerText()).toContain(label);

    await menu('系统管理', '管理员');
    const admin = page.locator('[data-testid="system-admin"] tr', { hasText: 'admin' }).first();
    await expect.poll(() => admin.locator('.ant-tag').last().innerText()).toBe(label);
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  });

  it('expands a province in /system/district and sees its cities', async () => {
    await menu('系统管理', '行政区划');
    await page.getByTestId('system-district').waitFor();
    expect(page.url()).toContain('#/system/district');
    const zhejiang = page.locator('[data-testid="system-district"] tr', { hasText: '浙江省' });
    // the provinces come ten to a page: the next one has come when its first row has changed
    const firstRow = page.locator('[data-testid="system-district"] tr.ant-table-row').first();
    for (let i = 0; i < 5 && !(await zhejiang.isVisible()); i += 1) {
      const shown = await firstRow.innerText();
      await page.locator('[data-testid="system-district"] .ant-pagination-next').click();
      await expect.poll(() => firstRow.innerText()).not.toBe(shown);
    }
    await zhejiang.locator('.ant-table-row-expand-icon').click();
    await page.locator('[data-testid="system-district"] tr', { hasText: '杭州市' }).waitFor();
    await page.locator('[data-testid="system-district"] tr', { hasText: '宁波市' }).waitFor();
  });

  it('searches a city and shows it flat with its full path', async () => {
    await page.locator('[data-testid="system-district"] input#keyword').fill('宁波');
    await page
      .getByTestId('system-district')
      .getByRole('button', { name: /查\s*询/ })
      .click();
    await expect.poll(() => page.getByTestId('resource-tree-table').getAttribute('data-mode')).toBe('flat');
    await expect.poll(() => page.getByTestId('district-path').first().innerText()).toBe('浙江省 / 宁波市');
  });

  it('previews a district import: what is added and renamed, nothing written', async () => {
    await page.getByTestId('system-district').getByTestId('table-import').click();
    await page.getByTestId('import-modal').waitFor();
    const download = await downloadFrom(page, page.getByTestId('import-template'));
    const [header = []] = await readSheet((await download.path())!);
    const rows = [
      { 区划代码: '339900', 名称: '测试新市', 级别: 'city', 上级代码: '330000' },
      { 区划代码: '330200', 名称: '宁波市（改）' },
    ];
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('districts');
    sheet.addRow(header);
    for (const values of rows) sheet.addRow(header.map((h) => (values as Record<string, string>)[h] ?? ''));
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'medu-districts-')), 'districts.xlsx');
    writeFileSync(file, Buffer.from(await book.xlsx.writeBuffer()));

    await page.locator('[data-testid="import-modal"] input[type="file"]').setInputFiles(file);
    await page.getByTestId('import-check').click();
    await expect.poll(() => page.getByTestId('import-summary').getAttribute('data-phase')).toBe('checked');
    expect(await page.getByTestId('import-summary').innerText()).toContain('新增 1，更名 1');
    expect(await page.getByTestId('import-added').innerText()).toContain('测试新市');
    await page.getByRole('tab', { name: /更名/ }).click();
    await expect.poll(() => page.getByTestId('import-renamed').innerText()).toContain('宁波市（改）');
    expect(await page.getByTestId('import-commit').isEnabled()).toBe(true);
    await page
      .locator('.ant-modal-footer')
      .getByRole('button', { name: /取\s*消/ })
      .click();

    const token = await page.evaluate(
      () => JSON.parse(JSON.parse(localStorage.getItem('persist:root')!).root).token.accessToken,
    );
    const answer = await fetch(`${baseURL}/api/system/district?keyword=339900`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await answer.json()) as { total: number }).total).toBe(0);
  });

  it('ran without a page error', () => {
    expect(problems).toEqual([]);
  });
});
