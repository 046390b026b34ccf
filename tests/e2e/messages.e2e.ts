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
let member: Page;
keepFailures('messages', () => page);
/** Names of this run (the server is shared by the journeys of one run). */
const tag = Date.now().toString(36).slice(-4).toUpperCase();
const roleName = `护理组${tag}`;
const templateName = `科室通知${tag}`;
const userName = `nurse${tag.toLowerCase()}`;
const password = 'Quiet-Heron-Lantern-2026';
const problems: string[] = [];

beforeAll(async () => {
  const role = await api('POST', '/system/role', { code: `nurse-${tag.toLowerCase()}`, name: roleName });
  await api('POST', '/system/admin', {
    userName,
    displayName: `护士${tag}`,
    password,
    roleIds: [role.id],
    mustChangePassword: false,
  });
  await api('POST', '/message/template', {
    code: `notice${tag}`,
    name: templateName,
    channel: 'in_app',
    titleTemplate: '{subject}',
    contentTemplate: '{name}，您好：{body}',
  });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1600, height: 900 } })).newPage();
  member = await (await browser.newContext({ viewport: { width: 1600, height: 900 } })).newPage();
  for (const p of [page, member]) p.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
});
afterAll(() => browser?.close());

describe('Messages in Chromium', () => {
  it('sends a templated message to a role from /message/list, after a preview of who it reaches', async () => {
    await signInAsAdmin(page, baseURL);
    await page.goto(`${baseURL}/#/message/list`);
    await page.getByTestId('message-send').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('批次名称').fill(`夜班调整${tag}`);
    await choose(page, 'send-template', `${templateName} (notice${tag} · 站内信)`);
    await page.getByTestId('send-roles').click();
    await page.keyboard.type(roleName);
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: roleName })
      .click();
    await page.keyboard.press('Escape');
    await dialog.getByTestId('send-param-subject').fill('夜班调整');
    await dialog.getByTestId('send-param-body').fill('下周起夜班改为三班倒');
    await expect
      .poll(() => dialog.getByTestId('send-preview-count').innerText(), { timeout: 15_000 })
      .toContain('1 人');
    await expect
      .poll(() => dialog.getByTestId('send-preview-sample').innerText())
      .toBe(`护士${tag}，您好：下周起夜班改为三班倒`);
    await dialog.getByTestId('send-submit').click();
    const row = page.getByTestId('message-list').locator('tr', { hasText: `夜班调整${tag}` });
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain('已完成');
  });

  it('shows the message in the header inbox of a member of the role, who reads it', async () => {
    await member.goto(`${baseURL}/#/login`);
    await member.getByTestId('login-tenant').fill('demo');
    await member.getByTestId('login-username').fill(userName);
    await member.getByTestId('login-password').fill(password);
    await member.getByTestId('login-submit').click();
    const count = member.getByTestId('inbox-count');
    await expect.poll(() => count.getAttribute('data-count'), { timeout: 30_000 }).toBe('1');
    await member.getByTestId('inbox-bell').click();
    const item = member.getByTestId('inbox-item').first();
    await expect.poll(() => item.innerText(), { timeout: 15_000 }).toContain('夜班调整');
    await item.click();
    await expect
      .poll(() => item.getByTestId('inbox-content').innerText())
      .toContain(`护士${tag}，您好：下周起夜班改为三班倒`);
    await expect.poll(() => count.getAttribute('data-count'), { timeout: 15_000 }).toBe('0');
    expect(problems).toEqual([]);
  });
});
