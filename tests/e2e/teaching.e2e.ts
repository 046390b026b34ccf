import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { choose } from './antd';
import { adminApi } from './api';
import { launchChromium, signInAsAdmin } from './browser';
import { keepFailures } from './failures';

const baseURL = inject('baseURL');
const api = adminApi(baseURL);
let browser: Browser;
let page: Page;
let phone: Page | undefined;
keepFailures('teaching', () => phone ?? page);
const problems: string[] = [];
/** Names of this run (the server is shared by the journeys of one run). */
const tag = Date.now().toString(36).slice(-4).toUpperCase();
const zone = 'Asia/Shanghai';
const title = `心衰病例讨论 ${tag}`;
const traineeNo = `T${tag}`;
const host = `王主任${tag}`;
const department = `心内科${tag}`;

/** `YYYY-MM-DD HH:mm` in the zone the browser runs in, `minutes` from now. */
function typed(minutes: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(Date.now() + minutes * 60_000));
  const part = (type: string) => parts.find((p) => p.type === type)?.value;
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

beforeAll(async () => {
  const hospital = await api('POST', '/people/organization', {
    code: `H${tag}`,
    name: `第一医院${tag}`,
    orgType: 'hospital',
  });
  const cardiology = await api('POST', '/people/organization', {
    code: `D${tag}`,
    name: department,
    orgType: 'department',
    parentId: hospital.id,
  });
  const base = await api('POST', '/people/organization', {
    code: `B${tag}`,
    name: `住培基地${tag}`,
    orgType: 'training_base',
    parentId: hospital.id,
  });
  const doctorType = await api('POST', '/people/doctor-type', { code: `dt${tag}`, name: `带教${tag}` });
  await api('POST', '/people/doctor', { name: host, doctorTypeId: doctorType.id, orgId: cardiology.id });
  const type = await api('POST', '/people/trainee-type', {
    code: `tt${tag}`,
    name: `住院医师${tag}`,
    category: 'residency',
  });
  const trainee = await api('POST', '/people/trainee', {
    name: '张三',
    traineeTypeId: type.id,
    trainingBaseId: base.id,
    traineeNo,
  });
  await api('POST', `/people/trainee/${trainee.id}/transition`, {
    to: 'in_training',
    reason: '报到',
    effectiveDate: '2026-09-01',
    version: trainee.version,
  });

  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, timezoneId: zone });
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
});
afterAll(() => browser?.close());

describe('Teaching activities in Chromium', () => {
  it('signs in as the tenant administrator', async () => {
    await signInAsAdmin(page, baseURL);
  });

  it('plans a case discussion in the drawer and publishes it to the residents', async () => {
    await page.goto(`${baseURL}/#/teach/teaching/list`);
    const list = page.getByTestId('teaching-activity');
    await list.getByTestId('table-create').click();
    await page.getByTestId('form-title').fill(title);
    await choose(page, 'form-activityType', '病例讨论');
    await page.getByTestId('form-orgId').click();
    await page
      .locator('.ant-select-tree-treenode', { hasText: `第一医院${tag}` })
      .locator('.ant-select-tree-switcher')
      .click();
    await page.locator('.ant-select-tree-node-content-wrapper', { hasText: department }).click();
    await choose(page, 'form-hostDoctorId', `${host} · ${department}`);
    // the time range: typed as a user does, each end confirmed with Enter; begun five minutes ago, so that its trainee
    // (on time, within the grace) may rate it as they sign in
    await page.locator('.resource-form .ant-picker-range input').first().click();
    await page.keyboard.type(typed(-5));
    await page.keyboard.press('Enter');
    await page.keyboard.type(typed(65));
    await page.keyboard.press('Enter');
    await page.getByTestId('form-location').fill('示教室 3');
    await choose(page, 'form-audienceTraineeTypeIds', `住院医师${tag}`);
    await page.keyboard.press('Escape');
    await page.getByTestId('resource-form-submit').click();

    const row = list.locator('tr', { hasText: title });
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('草稿');
    expect(await row.textContent()).toContain(host);
    await row.getByTestId('activity-publish').click();
    await page.getByRole('button', { name: /确\s*定|OK/ }).click();
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('已发布');
    expect(await row.textContent()).toMatch(/1\s*0\s*-\s*已发布/);
  });

  it('signs the trainee in on a phone with the code the profile shows, and takes their rating', async () => {
    const list = page.getByTestId('teaching-activity');
    await list.locator('tr', { hasText: title }).getByTestId('row-profile').click();
    const profile = page.getByTestId('activity-profile');
    const link = profile.getByTestId('activity-sign-in-link');
    await link.waitFor();
    expect(await profile.getByTestId('activity-sign-in').locator('svg').count()).toBeGreaterThan(0);
    const address = (await link.getAttribute('href')) as string;
    expect(address).toContain('#/sign-in/activity?code=');

    // a phone of its own: no session, a narrow screen
    const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, timezoneId: zone });
    phone = await phoneContext.newPage();
    phone.on('pageerror', (error) => problems.push(`phone page error: ${error.message}`));
    await phone.goto(address);
    await phone.getByTestId('sign-in-traineeNo').fill(traineeNo.toLowerCase());
    await phone.getByTestId('sign-in-name').fill('张三');
    await phone.getByTestId('sign-in-submit').click();
    await expect
      .poll(() => phone!.getByTestId('sign-in-result').innerText(), { timeout: 15_000 })
      .toContain('张三，签到成功');
    await phone.getByTestId('sign-in-rating').locator('li').nth(4).click();
    await phone.getByTestId('sign-in-rate-submit').click();
    await phone.getByTestId('sign-in-rated').waitFor();

    // a forged code is refused, on the page, and changes nothing
    await phone.goto(address.replace(/code=([^&]*)/, (_, code: string) => `code=${code.slice(0, -4)}AAAA`));
    await phone.reload();
    await phone.getByTestId('sign-in-traineeNo').fill(traineeNo);
    await phone.getByTestId('sign-in-name').fill('张三');
    await phone.getByTestId('sign-in-submit').click();
    await phone.getByText('签到码无效或已过期').waitFor();
    await phoneContext.close();
    phone = undefined;

    // the profile shows them signed in by the code, with their rating
    await page.reload();
    const signed = page.getByTestId(`signed-in-${traineeNo}`);
    await signed.waitFor({ timeout: 15_000 });
    expect(await signed.innerText()).toContain('扫码');
    const row = page.getByTestId('activity-participants').locator('tr', { hasText: traineeNo });
    expect(await row.innerText()).toContain('5');
    expect(problems).toEqual([]);
  });
});
