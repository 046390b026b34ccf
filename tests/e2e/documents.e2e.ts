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
keepFailures('documents', () => page);
const problems: string[] = [];
/** A 1×1 PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
/** Names of this run (the server is shared by the journeys of one run). */
const tag = Date.now().toString(36).slice(-4).toUpperCase();
const library = `规章制度${tag}`;
const title = `胸痛中心工作制度${tag}`;
const hostile = `急诊分诊流程${tag}`;

beforeAll(async () => {
  const base = await api('POST', '/content/document-base', {
    code: `rules${tag}`,
    name: library,
    visibility: 'tenant',
  });
  // written by a client that is not the console's editor: what it sends is cleaned by the server
  await api('POST', '/content/document', {
    baseId: base.id,
    title: hostile,
    contentHtml:
      '<p>分诊后十分钟内接诊</p><img src="x" onerror="window.__hostile = 1"><script>window.__hostile = 2</script>',
  });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1600, height: 900 } })).newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`a dialog opened: ${dialog.message()}`);
    void dialog.dismiss();
  });
});
afterAll(() => browser?.close());

describe('Documents in Chromium', () => {
  it('signs in as the tenant administrator', async () => {
    await signInAsAdmin(page, baseURL);
  });

  it('writes a document in the rich-text editor, publishes it and finds it by a word of its text', async () => {
    await page.goto(`${baseURL}/#/doc/list`);
    const list = page.getByTestId('content-document');
    await list.getByTestId('table-create').click();
    await page.getByTestId('form-title').fill(title);
    await choose(page, 'form-baseId', library);
    const editor = page.getByTestId('rich-text-editor').locator('[contenteditable="true"]');
    await editor.click();
    await page.keyboard.type('胸痛患者首次医疗接触至球囊扩张时间窗小于 90 分钟');
    // a file attached as it is chosen (uploaded to the tenant's store, claimed by the document when it is saved)
    await page
      .getByTestId('attachments-field')
      .locator('input[type=file]')
      .setInputFiles({ name: '胸痛流程图.png', mimeType: 'image/png', buffer: PNG });
    await page.locator('.ant-upload-list-item-done', { hasText: '胸痛流程图.png' }).waitFor();
    await page.getByTestId('resource-form-submit').click();

    const row = list.locator('tr', { hasText: title });
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('草稿');
    await row.getByTestId('document-publish').click();
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('已发布');

    await list.locator('input#keyword').fill('球囊扩张');
    await list.getByRole('button', { name: /查\s*询/ }).click();
    const found = list.locator('tr', { hasText: title });
    await expect.poll(() => found.getByTestId('document-snippet').locator('mark').first().innerText()).toBe('球囊扩张');
    await expect.poll(() => list.locator('tr', { hasText: hostile }).count()).toBe(0);

    // the document holds the file it was saved with
    const { data } = await api('GET', `/content/document?keyword=${encodeURIComponent(title)}`);
    expect(data[0].attachmentFileIds).toHaveLength(1);
    const file = await api('GET', `/file/file/${data[0].attachmentFileIds[0]}`);
    expect(file).toMatchObject({ originalName: '胸痛流程图.png', bizType: expect.stringContaining('document') });
  });

  it('shows a document another client wrote without the markup the server removed', async () => {
    const { data } = await api('GET', `/content/document?keyword=${encodeURIComponent(hostile)}`);
    await page.goto(`${baseURL}/#/doc/${data[0].id}/profile`);
    const content = page.getByTestId('document-content');
    await expect.poll(() => content.innerText(), { timeout: 15_000 }).toContain('分诊后十分钟内接诊');
    expect(await content.locator('script, [onerror]').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __hostile?: number }).__hostile)).toBeUndefined();
    expect(problems).toEqual([]);
  });
});
