import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { choose, openUntilShown, submitUntilClosed } from './antd';
import { adminApi } from './api';
import { launchChromium, signInAsAdmin } from './browser';
import { keepFailures } from './failures';

const baseURL = inject('baseURL');
const api = adminApi(baseURL);
let browser: Browser;
let page: Page;
keepFailures('community', () => page);
const problems: string[] = [];
/** Names of this run (the server is shared by the journeys of one run). */
const tag = Date.now().toString(36).slice(-4).toUpperCase();
const title = `术后发热病例讨论${tag}`;
const second = { userName: `reporter${tag.toLowerCase()}`, password: 'Quiet-Otter-Lantern-42' };
let postId: string;

/** A report of the post by another user of the tenant (a second reporter), through the API. */
async function reportAsSecondUser() {
  const token = await fetch(`${baseURL}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'password',
      tenant: 'demo',
      client_id: 'console',
      username: second.userName,
      password: second.password,
    }),
  }).then(async (res) => ((await res.json()) as { access_token: string }).access_token);
  const res = await fetch(`${baseURL}/api/community/report`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ targetType: 'post', targetId: postId, reason: 'privacy_leak' }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

beforeAll(async () => {
  const board = await api('POST', '/community/board', { code: `cases${tag}`, name: `病例讨论${tag}` });
  const post = await api('POST', '/community/post', {
    boardId: board.id,
    title,
    contentHtml: '<p>患者姓名与住院号见附图</p>',
  });
  postId = post.id;
  // a member of the community: reads posts and reports them (community:post:report), reads no case
  const role = await api('POST', '/system/role', { code: `member_${tag.toLowerCase()}`, name: `社区成员${tag}` });
  type Node = { id: string; code: string | null; children?: Node[] };
  const flat = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);
  const { tree } = await api('GET', `/system/role/${role.id}/permissions`);
  const permissionIds = flat(tree)
    .filter((n) => n.code === 'community:post:list' || n.code === 'community:post:report')
    .map((n) => n.id);
  await api('PUT', `/system/role/${role.id}/permissions`, { permissionIds });
  await api('POST', '/system/admin', {
    userName: second.userName,
    displayName: `举报人${tag}`,
    password: second.password,
    roleIds: [role.id],
    mustChangePassword: false,
  });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1600, height: 900 } })).newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
});
afterAll(() => browser?.close());

describe('Community in Chromium', () => {
  it('signs in as the tenant administrator', async () => {
    await signInAsAdmin(page, baseURL);
  });

  it('reports a post from the post list; a second user reports it too: one case of two reports', async () => {
    await page.goto(`${baseURL}/#/post/list`);
    const list = page.getByTestId('community-post');
    const row = list.locator('tr', { hasText: title });
    const reports = async (): Promise<number> =>
      (await api('GET', `/community/report?status=pending&targetType=post&targetId=${postId}`)).data[0]?.reportCount ??
      0;
    // CI twice saw the report dialog close by itself at once after it opened (twice in a row, never on this machine):
    // the whole report is made again until the API has it, and the failure prints what the page did meanwhile
    await expect
      .poll(
        async () => {
          if ((await reports()) === 0) {
            await openUntilShown(page, row.getByTestId('post-report'), 'report-reason');
            await choose(page, 'report-reason', '垃圾广告');
            await submitUntilClosed(page, 'post-report-submit');
          }
          return reports();
        },
        { timeout: 90_000 },
      )
      .toBe(1);
    await reportAsSecondUser();

    await page.goto(`${baseURL}/#/report/list`);
    const cases = page.getByTestId('community-report');
    const caseRow = cases.locator('tr', { hasText: title });
    await expect.poll(() => caseRow.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => caseRow.innerText()).toContain('泄露患者隐私');
    expect(await caseRow.innerText()).toContain('垃圾广告');
    expect(await caseRow.innerText()).toContain('2');
  });

  it('hides the post from its case: the case is resolved and the post hidden', async () => {
    const caseRow = page.getByTestId('community-report').locator('tr', { hasText: title });
    await openUntilShown(page, caseRow.getByTestId('case-resolve'), 'case-resolve-submit');
    await submitUntilClosed(page, 'case-resolve-submit');
    await expect.poll(() => caseRow.innerText(), { timeout: 15_000 }).toContain('已处理');
    expect(await caseRow.innerText()).toContain('隐藏内容');
    const post = await api('GET', `/community/post/${postId}`);
    expect(post.status).toBe('hidden');

    await page.goto(`${baseURL}/#/post/${postId}/profile/`);
    const reports = page.getByTestId('post-reports');
    await expect.poll(() => reports.innerText(), { timeout: 15_000 }).toContain('已处理');
    expect(problems).toEqual([]);
  });
});
