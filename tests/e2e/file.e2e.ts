import { crc32 } from 'node:zlib';
import { Document, Packer, Paragraph } from 'docx';
import PDFDocument from 'pdfkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tinyMp4 } from '../support/mp4';
import { type S3Server, startS3Server } from '../support/s3-server';
import { adminApi } from './api';
import { launchChromium, signInAsAdmin } from './browser';
import { keepFailures } from './failures';

const baseURL = inject('baseURL');
let browser: Browser;
let page: Page;
let s3: S3Server;
keepFailures('file', () => page);
const problems: string[] = [];
const tag = Date.now().toString(36).slice(-4);

/** A 1×1 PNG, padded with a text chunk to `size` bytes so that the upload takes a few progress events. */
function png(size: number): Buffer {
  const head = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
  const tail = Buffer.from('0000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
  const filler = Buffer.alloc(Math.max(size - head.length - tail.length - 20, 0), 0x61);
  const text = Buffer.concat([Buffer.from('Comment\0'), filler]);
  const chunk = Buffer.alloc(12 + text.length);
  chunk.writeUInt32BE(text.length, 0);
  chunk.write('tEXt', 4);
  text.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + text.length)), 8 + text.length);
  return Buffer.concat([head, chunk, tail]);
}

/**
 * Records in the page the percents an upload's progress bar showed (it shows only while the file is sent), checked
 * on every change of the page.
 */
const watchProgress = `(() => {
  window.percents = [];
  new MutationObserver(() => {
    const bar = document.querySelector('.ant-upload-list-item-progress .ant-progress');
    const percent = bar && bar.getAttribute('aria-valuenow');
    if (percent !== null && window.percents[window.percents.length - 1] !== percent) window.percents.push(percent);
  }).observe(document.body, { subtree: true, childList: true, attributes: true });
})();`;

/** A one-page PDF, as pdfkit writes it. */
function pdf(): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument();
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.text('Training plan');
    doc.end();
  });
}

const api = adminApi(baseURL);

beforeAll(async () => {
  s3 = await startS3Server('medu-e2e');
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  page = await context.newPage();
  // uploads at 4 MB/s, as over a hospital's network: an 8 MB file takes long enough for its progress to show
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 4 * 1024 * 1024,
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
});
afterAll(async () => {
  // the local disk takes the tenant's files again (the other journeys share this server), whatever happened here
  const local = await api('POST', '/file/storage', { name: `本地-${tag}`, provider: 'local' }).catch(() => undefined);
  if (local)
    await api('POST', `/file/storage/${local.id}/set-master`, { version: local.version }).catch(() => undefined);
  await browser?.close();
  await s3?.close();
});

/** Uploads `name` from the file list's dialog, seeing its progress, and waits for it in the list. */
async function uploadFromList(name: string, bytes: Buffer) {
  const list = page.getByTestId('file-file');
  await list.getByTestId('file-upload').click();
  const dialog = page.getByTestId('file-upload-dialog');
  await dialog.getByTestId('file-upload-limit').waitFor();
  await page.evaluate(watchProgress);
  await dialog.locator('input[type=file]').setInputFiles({ name, mimeType: 'image/png', buffer: bytes });
  await dialog.locator('.ant-upload-list-item-done', { hasText: name }).waitFor({ timeout: 30_000 });
  const percents = (await page.evaluate('window.percents')) as string[];
  expect(
    percents.some((p) => Number(p) > 0 && Number(p) < 100),
    percents.join(),
  ).toBe(true);
  await page.keyboard.press('Escape');
  await list.locator('tr', { hasText: name }).waitFor();
}

/** Opens the preview of `name` and waits for the image to load through its signed link. */
async function previewShows(name: string) {
  const row = page.getByTestId('file-file').locator('tr', { hasText: name });
  await row.getByTestId('row-preview').click();
  const image = page.getByTestId('file-preview-image');
  await image.waitFor();
  await expect
    .poll(() => image.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth))
    .toBe(1);
  const src = await image.getAttribute('src');
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /close|关闭/i })
    .click();
  await image.waitFor({ state: 'detached' });
  return src ?? '';
}

/** Uploads a small file from the file list's dialog and waits for it in the list. */
async function uploadSmall(name: string, bytes: Buffer, mimeType: string) {
  const list = page.getByTestId('file-file');
  await list.getByTestId('file-upload').click();
  const dialog = page.getByTestId('file-upload-dialog');
  await dialog.getByTestId('file-upload-limit').waitFor();
  await dialog.locator('input[type=file]').setInputFiles({ name, mimeType, buffer: bytes });
  await dialog.locator('.ant-upload-list-item-done', { hasText: name }).waitFor({ timeout: 30_000 });
  await dialog.locator('.ant-modal-close').click();
  await dialog.locator('.ant-modal-content').waitFor({ state: 'detached' });
  await list.locator('tr', { hasText: name }).waitFor();
}

async function openPreview(name: string) {
  await page.getByTestId('file-file').locator('tr', { hasText: name }).getByTestId('row-preview').click();
  await page.getByTestId('file-preview').locator('.ant-spin').waitFor({ state: 'detached' });
}

async function closePreview() {
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /close|关闭/i })
    .click();
  await page.getByTestId('file-preview').waitFor({ state: 'detached' });
}

describe('Files in Chromium', () => {
  it('signs in as the tenant administrator', async () => {
    await signInAsAdmin(page, baseURL);
  });

  it('uploads a file to the local disk with its progress, and previews it by a signed link', async () => {
    await page.goto(`${baseURL}/#/file/list`);
    const name = `本地-${tag}.png`;
    await uploadFromList(name, png(8 * 1024 * 1024));
    const src = await previewShows(name);
    expect(src).toContain('/api/file/file/content/');
  });

  it("previews a PDF in the console's frame: its content may be framed by the console's own origin", async () => {
    const name = `培训计划-${tag}.pdf`;
    await uploadSmall(name, await pdf(), 'application/pdf');
    await openPreview(name);
    const frame = await (await page.getByTestId('file-preview-frame').elementHandle())?.contentFrame();
    if (!frame) throw new Error('no preview frame');
    // a refused frame shows Chromium's error page (text/html) instead of the PDF viewer's document
    await expect
      .poll(() => frame.evaluate(() => document.contentType).catch(() => 'not loaded'))
      .toBe('application/pdf');
    expect(frame.url()).toContain('/api/file/file/content/');
    await closePreview();
  });

  it('plays a video, and offers the download of a Word document it cannot show', async () => {
    const video = `讲座-${tag}.mp4`;
    await uploadSmall(video, tinyMp4(3), 'video/mp4');
    const served = page.waitForResponse((res) => res.url().includes('/api/file/file/content/'));
    await openPreview(video);
    await page.getByTestId('file-preview-video').waitFor();
    expect([200, 206]).toContain((await served).status());
    await closePreview();

    const word = `带教记录-${tag}.docx`;
    const doc = new Document({ sections: [{ children: [new Paragraph('带教记录')] }] });
    await uploadSmall(word, await Packer.toBuffer(doc), 'application/octet-stream');
    await openPreview(word);
    await page.getByTestId('file-preview-none').waitFor();
    await expect.poll(() => page.getByTestId('file-preview-download').isEnabled()).toBe(true);
    await closePreview();
  });

  it('uploads straight to the S3 server once it is the master, and previews it from there', async () => {
    const config = await api('POST', '/file/storage', {
      name: `S3-${tag}`,
      provider: 's3',
      endpoint: s3.endpoint,
      region: s3.region,
      bucket: s3.bucket,
      pathStyle: true,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
    });
    await page.goto(`${baseURL}/#/oss/list`);
    const row = page.getByTestId('file-storage').locator('tr', { hasText: `S3-${tag}` });
    await row.getByTestId('row-test').click();
    await page.locator('.ant-message', { hasText: 'ms' }).waitFor();
    await row.getByTestId('row-set-master').click();
    // a press while the confirmation fades in can be lost: pressed until it closes
    const ok = page.getByTestId('confirm-ok');
    for (let attempt = 0; attempt < 3 && (await ok.count()) > 0; attempt++) {
      await ok.click();
      await ok.waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
    }
    await row.getByTestId('storage-master').waitFor();

    // the page lets the browser reach the stores it was served with: reloaded, it reaches the new one
    await page.goto(`${baseURL}/#/file/list`);
    await page.reload();
    const name = `直传-${tag}.png`;
    await uploadFromList(name, png(8 * 1024 * 1024));
    const src = await previewShows(name);
    expect(src.startsWith(s3.endpoint)).toBe(true);
    expect(config.id).toBeTruthy();
    expect(problems).toEqual([]);
  });
});
