import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { choose } from './antd';
import { launchChromium, signInAsAdmin } from './browser';
import { keepFailures } from './failures';

const baseURL = inject('baseURL');
let browser: Browser;
let page: Page;
keepFailures('organization', () => page);
const problems: string[] = [];
/** Names of this run (the server is shared by the journeys of one run). */
const tag = Date.now().toString(36).slice(-4);
const hospital = `一院${tag}`;
const target = `二院${tag}`;
const dept = `心内科${tag}`;

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
});
afterAll(() => browser?.close());

const screen = () => page.getByTestId('people-organization');
const row = (name: string) => screen().locator('tr', { hasText: name }).first();

/** The OK of the confirmation that is open. */
const confirm = () => page.locator('.ant-popconfirm:not(.ant-popover-hidden) .ant-btn-primary').click();

/** Fills the create form (code, name, type) and saves it. */
async function fillAndSave(code: string, name: string, type: string) {
  await page.getByTestId('form-code').fill(code);
  await page.getByTestId('form-name').fill(name);
  await choose(page, 'form-orgType', type);
  await page.getByTestId('resource-form-submit').click();
}

describe('The organisation tree in Chromium', () => {
  it('signs in as the tenant administrator and opens the organisations from the menu', async () => {
    await signInAsAdmin(page, baseURL);
    const entry = page.locator('.ant-menu').getByText('组织机构', { exact: true });
    if (!(await entry.isVisible())) await page.locator('.ant-menu').getByText('人员与组织', { exact: true }).click();
    await entry.click();
    await screen().waitFor();
    expect(page.url()).toContain('#/user/organization');
  });

  it('creates two hospitals and a department under the first', async () => {
    await screen().getByTestId('table-create').click();
    await fillAndSave(`H${tag}`, hospital, '医院');
    await row(hospital).waitFor();
    await screen().getByTestId('table-create').click();
    await fillAndSave(`T${tag}`, target, '医院');
    await row(target).waitFor();

    await row(hospital).getByTestId('row-add-child').click();
    await fillAndSave(`D${tag}`, dept, '科室');
    await row(dept).waitFor();
  });

  it('refuses a hospital under a department, on the type field', async () => {
    await row(dept).getByTestId('row-add-child').click();
    await fillAndSave(`X${tag}`, `分院${tag}`, '医院');
    await page.locator('.ant-form-item-explain-error', { hasText: '医院不能放在科室下' }).waitFor();
    // the form still holds what was typed: closing it asks first
    await page.locator('.resource-form .ant-drawer-close').click();
    await page.getByRole('button', { name: '放弃修改' }).click();
    await page.locator('.resource-form .ant-drawer-content').waitFor({ state: 'detached' });
  });

  it('refuses to delete a hospital that has a department', async () => {
    await row(hospital).getByTestId('row-delete').click();
    await confirm();
    await page.getByText('该组织下仍有下级组织，不能删除').waitFor();
    await expect.poll(() => row(hospital).isVisible()).toBe(true);
  });

  it('moves the department to the other hospital', async () => {
    await row(dept).getByTestId('row-move').click();
    await page.locator('.ant-modal .ant-select-selector').click();
    await page.locator('.ant-select-tree-node-content-wrapper', { hasText: target }).click();
    await page.getByTestId('move-submit').click();
    await page.getByText('已移动').first().waitFor();
    // the tree reloads folded: the department shows under its new parent
    await row(target).locator('.ant-table-row-expand-icon').click();
    await row(dept).waitFor();
  });

  it('drags the department back onto the first hospital', async () => {
    await row(dept).dragTo(row(hospital));
    await page.getByTestId('drop-confirm').click();
    // the tree shows again from the top, folded
    await row(dept).waitFor({ state: 'detached' });
    await row(hospital).locator('.ant-table-row-expand-icon').click();
    await row(dept).waitFor();
  });

  it('disables the department, then shows it on its profile with the audit trail', async () => {
    await row(dept).getByTestId('row-disable').click();
    await confirm();
    await expect.poll(() => row(dept).textContent()).toContain('停用');

    await row(dept).getByTestId('row-profile').click();
    await page.getByTestId('organization-profile').waitFor();
    const audit = page.getByTestId('audit-timeline');
    // moved twice: by "move to" and by drag
    await expect.poll(() => audit.getByText('移动', { exact: true }).count()).toBe(2);
    await audit.getByText('新建').waitFor();
    expect(page.url()).toMatch(/#\/user\/organization\/\d+\/profile/);
    await expect.poll(() => page.getByTestId('organization-profile').textContent()).toContain(hospital);
    expect(problems).toEqual([]);
  });
});
