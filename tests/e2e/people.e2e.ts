import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { choose } from './antd';
import { launchChromium, signInAsAdmin } from './browser';
import { keepFailures } from './failures';

const baseURL = inject('baseURL');
let browser: Browser;
let page: Page;
keepFailures('people', () => page);
const problems: string[] = [];
/** Names of this run (the server is shared by the journeys of one run). */
const tag = Date.now().toString(36).slice(-4);

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
});
afterAll(() => browser?.close());

/** Opens a menu entry, first its group when the entry is folded away. */
async function menu(group: string, entry: string) {
  const item = page.locator('.ant-menu').getByText(entry, { exact: true });
  if (!(await item.isVisible())) await page.locator('.ant-menu').getByText(group, { exact: true }).click();
  await item.click();
}

describe('Units and trainee types in Chromium', () => {
  it('signs in as the tenant administrator', async () => {
    await signInAsAdmin(page, baseURL);
  });

  it('refuses a unit whose credit code fails its check, on the field, and saves it once corrected', async () => {
    await page.goto(`${baseURL}/#/units/list`);
    const units = page.getByTestId('people-unit');
    await units.waitFor();
    await units.getByTestId('table-create').click();
    await page.getByTestId('form-name').fill(`市医院${tag}`);
    await page.getByTestId('form-creditCode').fill('91350100M000100Y44');
    await page.getByTestId('resource-form-submit').click();
    await page.getByText('请填写有效的 18 位统一社会信用代码（校验位不符）').waitFor();
    await page.getByTestId('form-creditCode').fill('');
    await page.getByTestId('resource-form-submit').click();
    await units.locator('tr', { hasText: `市医院${tag}` }).waitFor();
  });

  it('merges a duplicate unit into the one kept, whose profile lists the merged name', async () => {
    const units = page.getByTestId('people-unit');
    await units.getByTestId('table-create').click();
    await page.getByTestId('form-name').fill(`市医院旧称${tag}`);
    await page.getByTestId('resource-form-submit').click();
    const duplicate = units.locator('tr', { hasText: `市医院旧称${tag}` });
    await duplicate.waitFor();
    const kept = units.locator('tr', { hasText: `市医院${tag}` }).filter({ hasNotText: '旧称' });
    await kept.getByTestId('row-merge').click();
    await page.getByTestId('merge-sources').click();
    await page.keyboard.type(`旧称${tag}`);
    await page.locator('.ant-select-item-option', { hasText: `市医院旧称${tag}` }).click();
    // a multiple select stays open after a choice: close it to reach the dialog's button
    await page.keyboard.press('Escape');
    await page.getByTestId('merge-submit').click();
    await expect.poll(() => duplicate.count()).toBe(0);
    await kept.getByTestId('row-profile').click();
    await page.getByTestId('unit-aliases').getByText(`市医院旧称${tag}`).waitFor();
  });

  it('defines a trainee type and a choice field, and sees the field in the form preview', async () => {
    await menu('人员与组织', '学员类型');
    const types = page.getByTestId('people-trainee-type');
    await types.waitFor();
    await types.getByTestId('table-create').click();
    await page.getByTestId('form-code').fill(`res${tag}`);
    await page.getByTestId('form-name').fill(`住培${tag}`);
    await page.getByTestId('resource-form-submit').click();
    const type = types.locator('tr', { hasText: `住培${tag}` });
    await type.waitFor();
    await type.getByTestId('row-profile').click();
    const fields = page.getByTestId('trainee-type-fields');
    await fields.waitFor();
    await fields.getByTestId('table-create').click();
    await page.getByTestId('form-key').fill('degree');
    await page.getByTestId('form-label').fill('学位');
    await choose(page, 'form-fieldType', '单选框');
    await page.getByTestId('options-add').click();
    await page.getByTestId('option-value-0').fill('master');
    await page.getByTestId('option-label-0').fill('硕士');
    await page.getByTestId('options-add').click();
    await page.getByTestId('option-value-1').fill('doctor');
    await page.getByTestId('option-label-1').fill('博士');
    await page.getByTestId('resource-form-submit').click();
    await fields.locator('tr', { hasText: '学位' }).waitFor();
    const preview = page.getByTestId('trainee-type-preview');
    await preview.getByText('博士').waitFor();
    await preview.getByText('硕士').waitFor();
    expect(problems).toEqual([]);
  });
});
