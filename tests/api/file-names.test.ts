import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadName } from '../../server/src/modules/file/file/download-name';
import { engines, type Json, startApi, type TestApi } from './helpers';

const files = '/api/file/file';
/** A 1×1 PNG: its bytes say PNG whatever its name says. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/** The name a Content-Disposition gives: its UTF-8 `filename*`. */
const dispositionName = (header: string | null) =>
  decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(header ?? '')?.[1] ?? '');

describe('the name a file is served under', () => {
  it('takes the extension of the type found in the content, and drops controls and reordering marks', () => {
    expect(downloadName('invoice\u202egnp.exe', 'png')).toBe('invoicegnp.png');
    expect(downloadName('scan.PDF', 'pdf')).toBe('scan.PDF');
    expect(downloadName('photo.jpeg', 'jpg')).toBe('photo.jpeg');
    expect(downloadName('re\u0007port\u2066\u2069\u200e\u200f\u0085.docx', 'pdf')).toBe('report.pdf');
    expect(downloadName('no-extension', 'png')).toBe('no-extension.png');
    expect(downloadName('\u202e', 'png')).toBe('file.png');
    expect(downloadName('pending\u202a.mp4', null)).toBe('pending.mp4');
  });
});

describe.each(engines())('serving and storing files on $name', (engine) => {
  let api: TestApi;
  let admin: string;
  let broken: TestApi;
  let brokenDir: string;

  const upload = (on: TestApi, name: string, bytes: Uint8Array, token: string) =>
    on.fetch('POST', `${files}/upload?name=${encodeURIComponent(name)}&purpose=library`, {
      token,
      body: bytes,
      headers: { 'content-type': 'application/octet-stream', 'accept-language': 'en-US' },
    });

  beforeAll(async () => {
    api = await startApi(engine);
    admin = (await api.tokens('demo', 'admin', 'admin123')).access;
    // a data directory whose `files` cannot be made a directory: the local store cannot write
    brokenDir = mkdtempSync(path.join(tmpdir(), 'medu-broken-'));
    writeFileSync(path.join(brokenDir, 'files'), 'not a directory');
    broken = await startApi(engine, { config: { dataDir: brokenDir } });
  });
  afterAll(async () => {
    await api?.close();
    await broken?.close();
    rmSync(brokenDir, { recursive: true, force: true });
  });

  it('serves an upload under a name of its real type, without the characters that disguise it', async () => {
    const res = await upload(api, 'invoice\u202egnp.exe', PNG, admin);
    const file: Json = await res.json();
    expect(res.status, JSON.stringify(file)).toBe(201);
    expect(file).toMatchObject({ ext: 'png', originalName: 'invoicegnp.exe' });
    const link = await api.call('GET', `${files}/${file.id}/link?disposition=attachment`, { token: admin });
    expect(link.body.name).toBe('invoicegnp.png');
    const served = await api.fetch('GET', link.body.url);
    expect(served.status).toBe(200);
    const disposition = served.headers.get('content-disposition');
    expect(disposition).toMatch(/^attachment; filename="invoicegnp\.png"/);
    expect(dispositionName(disposition)).toBe('invoicegnp.png');
  });

  it('tells the uploader the store is unavailable, never where the server keeps its files', async () => {
    const token = (await broken.tokens('demo', 'admin', 'admin123')).access;
    const res = await upload(broken, 'scan.pdf', PDF, token);
    const text = await res.text();
    expect(res.status, text).toBe(503);
    expect(JSON.parse(text)).toMatchObject({ family: 'SERVER_ERROR', code: 'file.storeUnavailable' });
    expect(text).not.toContain(brokenDir);
    expect(text).not.toMatch(/ENOTDIR|EACCES|mkdir|\/tmp/);
    expect((await broken.call('GET', files, { token })).body.total).toBe(0);
  });
});
