import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { traineeSheet } from '../support/trainee-sheet';
import { choose, openUntilShown, submitUntilClosed } from './antd';
import { launchChromium, signInAsAdmin } from './browser';
import { keepFailures } from './failures';

const baseURL = inject('baseURL');
let browser: Browser;
let page: Page;
keepFailures('trainee', () => page);
const problems: string[] = [];
/** Names of this run (the server is shared by the journeys of one run). */
const tag = Date.now().toString(36).slice(-4);
let token = '';

/** The API as demo's administrator: what the journey needs set up before it starts. */
async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseURL}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

const typeName = `专培${tag}`;

beforeAll(async () => {
  const signIn = await fetch(`${baseURL}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'password',
      tenant: 'demo',
      username: 'admin',
      password: 'admin123',
      client_id: 'console',
    }),
  });
  token = (await signIn.json()).access_token;
  const hospital = await api('POST', '/people/organization', {
    code: `H${tag}`,
    name: `医院${tag}`,
    orgType: 'hospital',
  });
  const base = await api('POST', '/people/organization', {
    code: `B${tag}`,
    name: `基地${tag}`,
    orgType: 'training_base',
    parentId: hospital.id,
  });
  // the registration is audited by two roles, both the administrator's
  const office = await api('POST', '/system/role', { code: `office_${tag}`, name: `基地办${tag}` });
  const admin = (await api('GET', '/system/admin?keyword=admin')).data.find(
    (u: { userName: string }) => u.userName === 'admin',
  );
  await api('POST', `/system/role/${office.id}/members`, { userIds: [admin.id] });
  const type = await api('POST', '/people/trainee-type', {
    code: `sp${tag}`,
    name: typeName,
    category: 'specialist',
    traineeNoPattern: `S${tag}{seq:4}`,
    requiresRegistrationAudit: true,
    auditLevels: ['tenant_admin', `office_${tag}`],
  });
  await api('POST', '/people/trainee', {
    name: '李四',
    traineeTypeId: type.id,
    trainingBaseId: base.id,
  });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
});
afterAll(() => browser?.close());

describe('Trainees in Chromium', () => {
  it('signs in as the tenant administrator', async () => {
    await signInAsAdmin(page, baseURL);
  });

  it('defines a required custom field on the trainee type', async () => {
    await page.goto(`${baseURL}/#/user/trainee-type`);
    const types = page.getByTestId('people-trainee-type');
    await types.locator('tr', { hasText: typeName }).getByTestId('row-profile').click();
    const fields = page.getByTestId('trainee-type-fields');
    await fields.waitFor();
    await fields.getByTestId('table-create').click();
    await page.getByTestId('form-key').fill('school');
    await page.getByTestId('form-label').fill('毕业学校');
    await page.getByTestId('form-required').click();
    await page.getByTestId('resource-form-submit').click();
    await fields.locator('tr', { hasText: '毕业学校' }).waitFor();
  });

  it('creates a trainee with it (refused without it), and finds them by pinyin initials', async () => {
    await page.goto(`${baseURL}/#/trainee/list`);
    const list = page.getByTestId('trainee-list');
    await list.getByTestId('trainee-type-filter').getByText(typeName).click();
    await list.getByTestId('table-create').click();
    await choose(page, 'form-traineeTypeId', typeName);
    await page.getByTestId('form-name').fill('欧阳明轩');
    await page.getByTestId('form-idNo').fill('11010519491231002X');
    await choose(page, 'form-trainingBaseId', `基地${tag}`);
    // the type's preview stays open in its tab: the form's own field is the one in the form
    const school = page.getByTestId('trainee-custom-fields').getByTestId('custom-school');
    await school.waitFor();
    await page.getByTestId('resource-form-submit').click();
    await expect
      .poll(() => page.locator('.resource-form .ant-form-item-explain-error').allInnerTexts())
      .toEqual([expect.stringContaining('毕业学校')]);
    await school.fill('北京协和医学院');
    await page.getByTestId('resource-form-submit').click();
    await list.locator('tr', { hasText: '欧阳明轩' }).waitFor();
    await expect.poll(() => list.locator('tr', { hasText: '李四' }).count()).toBe(1);
    await list.locator('input#keyword').fill('oymx');
    await list.getByTestId('table-search-submit').click();
    await expect.poll(() => list.locator('tr', { hasText: '李四' }).count()).toBe(0);
    await list.locator('tr', { hasText: '欧阳明轩' }).locator('td', { hasText: '1101**********002X' }).waitFor();
  });

  it('shows the ID number on request and approves the registration through both levels', async () => {
    const list = page.getByTestId('trainee-list');
    await list.locator('tr', { hasText: '欧阳明轩' }).getByTestId('row-profile').click();
    const profile = page.getByTestId('trainee-profile');
    await profile.getByTestId('trainee-custom-values').getByText('北京协和医学院').waitFor();
    await profile.getByTestId('trainee-id-no-reveal').click();
    await expect.poll(() => profile.getByTestId('trainee-id-no').innerText()).toContain('11010519491231002X');
    await profile.getByTestId('trainee-submit').click();
    // submitted, approved at the first level; then at the second, which admits the trainee into training
    for (const steps of [2, 4]) {
      await profile.getByTestId('trainee-audit').click();
      await submitUntilClosed(page, 'audit-submit');
      // each step is a request and a reload of the history: a busy machine takes more than the poll's default second
      await expect.poll(() => profile.getByTestId('trainee-history-item').count(), { timeout: 15_000 }).toBe(steps);
    }
    await profile.getByTestId('trainee-history-item').first().getByText('在培').waitFor();
    await profile.getByText('在培').first().waitFor();
  });

  it('imports from the list of all types: the dialog asks for the type, whose template speaks labels', async () => {
    await page.goto(`${baseURL}/#/trainee/list`);
    const list = page.getByTestId('trainee-list');
    await list.getByTestId('trainee-type-filter').getByText('全部类型').click();
    await list.getByTestId('table-import').click();
    const modal = page.getByTestId('import-modal');
    await modal.getByTestId('import-trainee-type').click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: typeName })
      .click();
    const [download] = await Promise.all([page.waitForEvent('download'), modal.getByTestId('import-template').click()]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await download.path());
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    const header = (sheet.getRow(1).values as string[]).slice(1);
    const example = (sheet.getRow(2).values as string[]).slice(1);
    // the chosen type's own field is a column; coded columns show labels, with a list of them to pick from
    expect(header).toContain('毕业学校');
    expect(example[header.indexOf('性别')]).toBe('男');
    expect(example[header.indexOf('证件类型')]).toBe('居民身份证');
    const gender = sheet.getColumn(header.indexOf('性别') + 1).letter;
    expect(sheet.getCell(`${gender}2`).dataValidation?.type).toBe('list');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden' });
  });

  it('checks an import of 1,000 trainees: the 3 bad rows are named, nothing is written', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'e2e-trainees-')), 'trainees.xlsx');
    writeFileSync(file, await traineeSheet(1000, `导入${tag}`, `B${tag}`, [100, 501, 902]));
    await page.goto(`${baseURL}/#/trainee/list`);
    const list = page.getByTestId('trainee-list');
    await list.getByTestId('trainee-type-filter').getByText(typeName).click();
    const total = async () => (await api('GET', `/people/trainee?pageSize=1`)).total;
    const before = await total();
    await list.getByTestId('table-import').click();
    await page.locator('[data-testid="import-modal"] input[type="file"]').setInputFiles(file);
    await openUntilShown(page, page.getByTestId('import-check'), 'import-errors', { timeout: 90_000 });
    const errors = page.getByTestId('import-errors');
    // sheet rows: the header is row 1
    for (const row of ['101', '502', '903']) await errors.locator('td', { hasText: new RegExp(`^${row}$`) }).waitFor();
    expect(await errors.locator('tbody tr').count()).toBe(3);
    await expect.poll(() => page.getByTestId('import-commit').isDisabled()).toBe(true);
    expect(await total()).toBe(before);
    expect(problems).toEqual([]);
  });
});
