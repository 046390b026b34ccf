import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_REVIEWER } from '../../server/src/db/seed/demo-content';
import { adminApi } from './api';
import { launchChromium, signInAsAdmin } from './browser';
import { keepFailures } from './failures';

const baseURL = inject('baseURL');
let browser: Browser;
let page: Page;
keepFailures('dashboard', () => page);
const problems: string[] = [];
const tag = Date.now().toString(36).slice(-5);
const api = adminApi(baseURL);

async function newPage() {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const opened = await context.newPage();
  opened.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return opened;
}

/** The demo's reviewer of the bank (the demo content makes it; this server has none): its role, its account. */
async function ensureReviewer() {
  type Node = { id: string; code: string | null; children?: Node[] };
  const role = await api('POST', '/system/role', { code: `e2e_dash_rev_${tag}`, name: `题库审核-${tag}` });
  const wanted = new Set(['assess:question:list', 'assess:question:review']);
  const granted = new Set<string>();
  const walk = (nodes: Node[], above: string[]) => {
    for (const node of nodes) {
      if (node.code && wanted.has(node.code)) for (const id of [...above, node.id]) granted.add(id);
      walk(node.children ?? [], [...above, node.id]);
    }
  };
  walk((await api('GET', `/system/role/${role.id}/permissions`)).tree, []);
  await api('PUT', `/system/role/${role.id}/permissions`, { permissionIds: [...granted] });
  await api('POST', '/system/admin', {
    userName: DEMO_REVIEWER.username,
    displayName: '题库审核专家',
    password: DEMO_REVIEWER.password,
    roleIds: [role.id],
    mustChangePassword: false,
  });
}

let pending = '';
let draft = '';

beforeAll(async () => {
  browser = await launchChromium();
  page = await newPage();
  const category = await api('POST', '/assess/category', { code: `e2e-dash-${tag}`, name: `工作台-${tag}` });
  const question = (stem: string) =>
    api('POST', '/assess/question', { categoryId: category.id, questionType: 'true_false', stem, answer: true });
  pending = `待审-${tag}：急性心梗首选再灌注治疗`;
  draft = `草稿-${tag}：高血压患者首选利尿剂`;
  const sent = await question(pending);
  await api('POST', `/assess/question/${sent.id}/submit`, { version: sent.version });
  await question(draft);
  await ensureReviewer();
});
afterAll(async () => {
  await browser?.close();
});

describe('the workspace', () => {
  it('shows the administrator the training cards, and a card opens the list it counts, filtered', async () => {
    await signInAsAdmin(page, baseURL);
    const cards = page.getByTestId('workspace-cards').getByTestId('workspace-card');
    await expect
      .poll(() => cards.evaluateAll((links) => links.map((link) => link.getAttribute('data-key'))))
      .toEqual([
        'traineesInTraining',
        'questionsAwaitingReview',
        'activitiesToday',
        'courseCompletion',
        'expiringQualifications',
      ]);
    // the security cards stay, apart
    await expect
      .poll(() => page.getByTestId('workspace-security-cards').getByTestId('workspace-card').count())
      .toBeGreaterThan(0);

    const awaiting = (await api('GET', '/assess/question?status=pending_review')).total as number;
    const card = page.locator('[data-testid="workspace-card"][data-key="questionsAwaitingReview"]');
    await expect.poll(() => card.locator('.ant-statistic-content-value').textContent()).toBe(String(awaiting));
    await card.click();

    await page.waitForURL(/#\/question\/list\?status=pending_review$/);
    const list = page.getByTestId('assess-question');
    await expect.poll(() => list.getByText(pending).count()).toBe(1);
    expect(await list.getByText(draft).count()).toBe(0);
    // the search form says why: its status is the card's
    await expect
      .poll(() => list.getByTestId('table-search').locator('.ant-select-selection-item').allTextContents())
      .toContain('待审核');
    await expect.poll(() => list.locator('.ant-table-row').count()).toBe(Math.min(awaiting, 10));
    expect(problems).toEqual([]);
  });

  it('lands the reviewer on the review queue after sign-in', async () => {
    const reviewer = await newPage();
    await reviewer.goto(`${baseURL}/#/login`);
    await reviewer.getByTestId('login-tenant').fill('demo');
    await reviewer.getByTestId('login-username').fill(DEMO_REVIEWER.username);
    await reviewer.getByTestId('login-password').fill(DEMO_REVIEWER.password);
    await reviewer.getByTestId('login-submit').click();
    await reviewer.waitForURL(/#\/question\/list\?status=pending_review$/);
    const queue = reviewer.getByTestId('assess-question');
    await expect.poll(() => queue.getByText(pending).count()).toBe(1);
    expect(await queue.getByText(draft).count()).toBe(0);
    await expect.poll(() => queue.getByTestId('question-review').count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});
