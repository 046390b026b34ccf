import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoAdminGrant } from '../bench/demo-sign-in';
import { adminApi } from './api';
import { downloadFrom, launchChromium, signInAsAdmin } from './browser';
import { keepFailures } from './failures';

const baseURL = inject('baseURL');
let browser: Browser;
let page: Page;
keepFailures('question', () => page);
const problems: string[] = [];
const tag = Date.now().toString(36).slice(-5);

const api = adminApi(baseURL);

/** A 1×1 PNG (an ECG strip stands in for it). */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

/** Whether `image` has loaded a picture (not a broken link). */
const loaded = (image: Locator) =>
  image.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0);

let category: { id: string; name: string };

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  category = await api('POST', '/assess/category', { code: `e2e-${tag}`, name: `内科-${tag}` });
});
afterAll(async () => {
  await browser?.close();
});

/**
 * The API as a reviewer of the bank (an author may not approve the question they wrote): a role of its review, an
 * account holding it, signed in.
 */
async function reviewerApi() {
  type Node = { id: string; code: string | null; children?: Node[] };
  const codes = ['assess:question:list', 'assess:question:review'];
  const ids: string[] = [];
  const walk = (nodes: Node[]) => {
    for (const node of nodes) {
      if (node.code && codes.includes(node.code)) ids.push(node.id);
      walk(node.children ?? []);
    }
  };
  const role = await api('POST', '/system/role', { code: `e2e_rev_${tag}`, name: `审核-${tag}` });
  // the permissions a tenant's role may hold (the platform's whole tree is not the tenant administrator's to read)
  walk((await api('GET', `/system/role/${role.id}/permissions`)).tree);
  await api('PUT', `/system/role/${role.id}/permissions`, { permissionIds: ids });
  const userName = `e2e_rev_${tag}`;
  const password = 'Quiet-Otter-42';
  await api('POST', '/system/admin', {
    userName,
    displayName: `审核-${tag}`,
    password,
    roleIds: [role.id],
    mustChangePassword: false,
  });
  const signedIn = await fetch(`${baseURL}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...demoAdminGrant, username: userName, password }),
  });
  const { access_token: token } = (await signedIn.json()) as { access_token: string };
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseURL}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  };
}

/** Presses "next" and waits for the next step's field (in the form: the list kept in its tab shows stems too). */
async function next(testId: string) {
  await page.getByTestId('step-next').click();
  await page.getByTestId('question-edit').getByTestId(testId).first().waitFor({ state: 'visible' });
}

describe('The question bank in Chromium', () => {
  it('signs in as the tenant administrator', async () => {
    await signInAsAdmin(page, baseURL);
  });

  it('writes an A3 case group through the step form and finds it in the bank with its items', async () => {
    await page.goto(`${baseURL}/#/question/list`);
    await page.getByTestId('assess-question').getByTestId('table-create').click();
    const form = page.getByTestId('question-edit');
    await form.waitFor();

    await form.getByTestId('question-type').getByText('病例组题（A3/A4）').click();
    await expect.poll(() => form.getByTestId('question-format').getByLabel('A3 病例组型').isChecked()).toBe(true);
    await form.getByTestId('question-category').click();
    await page.locator('.ant-select-tree-title', { hasText: category.name }).click();

    await next('question-stem');
    const stem = `男，56岁。持续胸骨后疼痛3小时，心电图示V1–V4导联ST段抬高。（${tag}）`;
    await form.getByTestId('question-stem').fill(stem);
    const items = form.getByTestId('child-stem');
    await items.nth(0).fill('最可能的诊断是');
    await items.nth(1).fill('首选的治疗是');

    await next('child-options');
    const answers = [
      ['急性前壁心肌梗死', '心绞痛', '主动脉夹层', '肺栓塞', '心包炎'],
      ['阿司匹林', '肝素', '华法林', '氯吡格雷', '尿激酶'],
    ];
    for (const [i, texts] of answers.entries()) {
      const options = form.getByTestId('child-options').nth(i);
      for (const [j, text] of texts.entries()) await options.getByTestId('child-options-text').nth(j).fill(text);
      await options
        .getByTestId('child-options-correct')
        .nth(i === 0 ? 0 : 4)
        .check();
    }

    await next('question-analysis');
    await form.getByTestId('question-analysis').fill('ST 段抬高型心肌梗死，发病 12 小时内溶栓');
    await form.getByTestId('question-tags').locator('input').fill(`e2e-${tag}`);
    await page.keyboard.press('Enter');

    await next('question-step-preview');
    const preview = form.getByTestId('question-preview');
    await expect.poll(() => preview.getByTestId('preview-item').count()).toBe(3);
    await expect.poll(() => preview.getByText('E. 尿激酶').isVisible()).toBe(true);
    await form.getByTestId('question-save').click();

    const profile = page.getByTestId('question-profile');
    await profile.getByTestId('question-versions').waitFor();
    await expect.poll(() => profile.getByText(stem).first().isVisible()).toBe(true);

    const found = await api('GET', `/assess/question?tag=${encodeURIComponent(`e2e-${tag}`)}`);
    expect(found.total).toBe(1);
    const saved = await api('GET', `/assess/question/${found.data[0].id}`);
    expect(saved).toMatchObject({
      questionType: 'case_group',
      medicalFormat: 'A3',
      status: 'draft',
      categoryId: category.id,
    });
    expect(saved.children.map((c: { answer: string[] }) => c.answer)).toEqual([['A'], ['E']]);

    // the list's category tree finds it under its category
    await page.goto(`${baseURL}/#/question/list`);
    await page.getByTestId('category-tree').getByText(category.name).click();
    await page.getByTestId('assess-question').locator('tr', { hasText: tag }).waitFor();
  });

  it('writes an A1 question with an image on its stem, sees the image in the preview and on its profile', async () => {
    await page.goto(`${baseURL}/#/question/list`);
    await page.getByTestId('assess-question').getByTestId('table-create').click();
    const form = page.getByTestId('question-edit');
    await form.waitFor();
    // the add form closed its tab when the question before was saved: it starts afresh, at its first step
    await expect.poll(() => form.getByTestId('question-type').isVisible()).toBe(true);
    expect(await form.getByTestId('question-stem').inputValue()).toBe('');

    // single choice is the type a new question starts with; A1 takes five options
    await form.getByTestId('question-format').getByText('A1 单句型').click();
    await expect.poll(() => form.getByTestId('question-format').getByLabel('A1 单句型').isChecked()).toBe(true);
    await form.getByTestId('question-category').click();
    await page.locator('.ant-select-tree-title', { hasText: category.name }).click();

    await next('question-stem');
    const stem = `男，62岁。突发胸痛1小时，心电图如图所示，最可能的诊断是（${tag}）`;
    await form.getByTestId('question-stem').fill(stem);
    const media = form.getByTestId('question-stem-media');
    await media
      .locator('input[type=file]')
      .setInputFiles({ name: `心电图-${tag}.png`, mimeType: 'image/png', buffer: PNG });
    // uploaded at once, shown as a thumbnail in the field
    const thumbnail = media.getByTestId('question-stem-media-image').locator('img');
    await thumbnail.waitFor({ timeout: 30_000 });
    await expect.poll(() => loaded(thumbnail)).toBe(true);

    await next('question-options');
    const texts = ['急性下壁心肌梗死', '急性心包炎', '变异型心绞痛', '主动脉夹层', '肺栓塞'];
    const options = form.getByTestId('question-options');
    await expect.poll(() => options.getByTestId('question-options-text').count()).toBe(5);
    for (const [i, text] of texts.entries()) await options.getByTestId('question-options-text').nth(i).fill(text);
    await options.getByTestId('question-options-correct').nth(0).check();

    await next('question-analysis');
    await form.getByTestId('question-tags').locator('input').fill(`img-${tag}`);
    await page.keyboard.press('Enter');

    // the candidate's preview shows the stem's image
    await next('question-step-preview');
    const preview = form.getByTestId('question-preview');
    await preview.getByText(stem).waitFor();
    const previewed = preview.getByTestId('question-media').locator('img');
    await expect.poll(() => previewed.count()).toBe(1);
    await expect.poll(() => loaded(previewed)).toBe(true);
    await form.getByTestId('question-save').click();

    // saved, its profile shows the image it holds, loaded through its link (the first question's profile is kept
    // in its tab, hidden)
    const profile = page.locator('[data-testid="question-profile"]:visible');
    const shown = profile.getByTestId('question-preview').first();
    await shown.getByText(stem).waitFor({ timeout: 15_000 });
    const image = shown.getByTestId('question-media').locator('img');
    await image.waitFor({ timeout: 15_000 });
    await expect.poll(() => loaded(image)).toBe(true);
    expect(await image.getAttribute('alt')).toBe(`心电图-${tag}.png`);

    const found = await api('GET', `/assess/question?tag=${encodeURIComponent(`img-${tag}`)}`);
    expect(found.total).toBe(1);
    const saved = await api('GET', `/assess/question/${found.data[0].id}`);
    expect(saved).toMatchObject({ questionType: 'single_choice', medicalFormat: 'A1', answer: ['A'] });
    expect(saved.stemMediaFileIds).toHaveLength(1);
  });

  it('builds a paper of a manual and a random section, publishes it, and keeps it as it was when a question changes', async () => {
    const bank = await api('POST', '/assess/category', { code: `e2p-${tag}`, name: `试卷题-${tag}` });
    const made: { id: string; version: number }[] = [];
    const reviewer = await reviewerApi();
    for (let i = 0; i < 4; i++) {
      const q = await api('POST', '/assess/question', {
        categoryId: bank.id,
        questionType: 'true_false',
        stem: `判断-${tag}-${i}：心电图 ST 段抬高提示心肌缺血`,
        answer: true,
      });
      const sent = await api('POST', `/assess/question/${q.id}/submit`, { version: q.version });
      made.push(
        await reviewer('POST', `/assess/question/${q.id}/review`, { decision: 'approve', version: sent.version }),
      );
    }

    await page.goto(`${baseURL}/#/exam-paper/list`);
    await page.getByTestId('assess-paper').getByTestId('table-create').click();
    const form = page.getByTestId('paper-edit');
    await form.getByTestId('paper-code').fill(`E2E-${tag}`);
    await form.getByTestId('paper-title').fill(`出科考核-${tag}`);
    await form.getByTestId('paper-mode').getByText('随机组卷（每人抽题）').click();
    await form.getByTestId('paper-pass').fill('2');

    // the first section: one question picked from the bank
    await form.getByTestId('section-pick').first().click();
    const picker = page.getByTestId('question-picker');
    const row = picker.locator('tr', { hasText: `判断-${tag}-0` });
    await row.waitFor();
    await row.locator('input[type=checkbox]').check();
    await page.getByTestId('picker-add').click();
    await form
      .getByTestId('slot-stem')
      .filter({ hasText: `判断-${tag}-0` })
      .waitFor();

    // the second section: two drawn from the category
    await form.getByTestId('paper-add-section').click();
    const second = form.getByTestId('paper-section').nth(1);
    await second.getByTestId('section-add-rule').click();
    await second.getByTestId('rule-categories').click();
    await page.locator('.ant-select-tree-title', { hasText: bank.name }).last().click();
    await page.keyboard.press('Escape');
    await second.getByTestId('rule-count').fill('2');
    await expect.poll(() => second.getByTestId('rule-available').textContent(), { timeout: 10_000 }).toContain('3');
    await expect.poll(() => form.getByTestId('paper-total').textContent()).toContain('3');
    await form.getByTestId('paper-save').click();

    const profile = page.getByTestId('paper-profile');
    await profile.getByTestId('paper-profile-publish').click();
    // publishing asks first; a press while the confirmation zooms in can be lost: pressed until it closes
    const confirm = page.locator('.ant-popconfirm:not(.ant-popover-hidden)');
    await confirm.waitFor();
    for (let attempt = 0; attempt < 3 && (await confirm.count()) > 0; attempt++) {
      await confirm.locator('.ant-btn-primary').click();
      await confirm.waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
    }
    await expect.poll(() => profile.getByText('已发布').count()).toBeGreaterThan(0);
    const preview = profile.getByTestId('paper-preview');
    await expect.poll(() => preview.getByTestId('paper-preview-question').count()).toBe(3);
    await preview.getByText(`判断-${tag}-0：心电图 ST 段抬高提示心肌缺血`).waitFor();

    // the bank's question changes (a new version); the published paper keeps the version it pinned
    const [used] = made as [{ id: string; version: number }];
    await api('PUT', `/assess/question/${used.id}`, { stem: `判断-${tag}-0：已修订`, version: used.version });
    await page.reload();
    await page.getByTestId('paper-preview').getByText(`判断-${tag}-0：心电图 ST 段抬高提示心肌缺血`).waitFor();
    expect(await page.getByText(`判断-${tag}-0：已修订`).count()).toBe(0);

    // printed, the paper starts at the top of the first page: the profile around it leaves no blank room above
    await page.emulateMedia({ media: 'print' });
    const printed = page.getByTestId('paper-preview').locator('.printable');
    const top = await printed.evaluate((element) => element.getBoundingClientRect().top);
    await page.emulateMedia({ media: null });
    expect(top).toBeLessThan(100);
  });

  it('imports a sheet with a B1 group and one bad row: the report names the row and nothing is written', async () => {
    await page.goto(`${baseURL}/#/question/list`);
    await page.getByTestId('assess-question').getByTestId('table-import').click();
    const dialog = page.getByTestId('import-modal');
    await dialog.waitFor();
    const download = await downloadFrom(page, page.getByTestId('import-template'));
    const template = new ExcelJS.Workbook();
    await template.xlsx.readFile((await download.path()) as string);
    const first = template.worksheets[0];
    if (!first) throw new Error('the template has no sheet');
    const header = (first.getRow(1).values as string[]).slice(1);
    expect(header).toEqual(expect.arrayContaining(['组号', '题型', '医学题型', '分类', '题干', '选项A', '答案']));

    const mark = `imp-${tag}`;
    const rows: Record<string, string>[] = [
      {
        组号: '1',
        题型: 'option_group',
        医学题型: 'B1',
        分类: `e2e-${tag}`,
        题干: `下列药物各用于（${mark}）`,
        选项A: '阿司匹林',
        选项B: '肝素',
        选项C: '华法林',
        选项D: '尿激酶',
        选项E: '硝酸甘油',
        标签: mark,
      },
      { 组号: '1', 题干: '抗血小板', 答案: 'A' },
      { 组号: '1', 题干: '溶栓', 答案: 'D' },
      // row 5: an X item with one answer
      {
        题型: 'multiple_choice',
        医学题型: 'X',
        分类: `e2e-${tag}`,
        题干: `再灌注治疗包括（${mark}）`,
        选项A: '溶栓',
        选项B: 'PCI',
        选项C: 'CABG',
        选项D: '硝酸甘油',
        答案: 'A',
        标签: mark,
      },
    ];
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('questions');
    sheet.addRow(header);
    for (const values of rows) sheet.addRow(header.map((h) => values[h] ?? ''));
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'medu-questions-')), 'questions.xlsx');
    writeFileSync(file, Buffer.from(await book.xlsx.writeBuffer()));

    await dialog.locator('input[type="file"]').setInputFiles(file);
    await page.getByTestId('import-check').click();
    const errors = page.getByTestId('import-errors');
    await errors.waitFor();
    const failed = errors.locator('tbody tr');
    await expect.poll(() => failed.count()).toBe(1);
    expect(await failed.first().locator('td').allTextContents()).toEqual(['5', '答案', '多选题须至少 2 个正确答案']);
    expect(await page.getByTestId('import-commit').isEnabled()).toBe(false);
    await page
      .locator('.ant-modal-footer')
      .getByRole('button', { name: /取\s*消/ })
      .click();
    await dialog.waitFor({ state: 'hidden' });

    expect((await api('GET', `/assess/question?tag=${encodeURIComponent(mark)}`)).total).toBe(0);
    expect((await api('GET', `/assess/question?keyword=${encodeURIComponent(mark)}`)).total).toBe(0);
  });

  it('left no error in the page', () => {
    expect(problems).toEqual([]);
  });
});
