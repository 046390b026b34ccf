import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboundGuard } from '../../server/src/core/outbound';
import type { ObjectStore, StorageSettings } from '../../server/src/modules/file/storage/object-store';
import { SNIFF_BYTES, sniffType } from '../../server/src/modules/file/storage/sniff';
import { objectStore } from '../../server/src/modules/file/storage/storage';
import { type S3Server, startS3Server } from '../support/s3-server';

let s3: S3Server;
let root: string;
beforeAll(async () => {
  s3 = await startS3Server('medu-files');
  root = await mkdtemp(path.join(os.tmpdir(), 'medu-files-'));
});
afterAll(async () => {
  await s3?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

/** s3rver listens on loopback: only a guard that admits private addresses reaches it (core/outbound.ts). */
const trusted = outboundGuard('private');
const s3Settings = (): Extract<StorageSettings, { provider: 's3' }> => ({
  provider: 's3',
  ...s3,
  pathStyle: true,
  outbound: trusted,
});

/** Each adapter under a basePath, and the same backend without one to see where objects really land. */
const adapters: [string, (basePath?: string) => StorageSettings][] = [
  ['local', (basePath) => ({ provider: 'local', root, basePath })],
  ['s3', (basePath) => ({ ...s3Settings(), basePath })],
];

const bytesOf = async (body: Readable | undefined) => (body ? Buffer.concat(await body.toArray()) : undefined);

/** `good` bytes, then the stream fails, as an upload whose client hangs up does. */
function failingAfter(good: number): Readable {
  return Readable.from(
    (async function* () {
      yield randomBytes(good);
      throw new Error('client went away');
    })(),
  );
}

describe.each(adapters)('the %s adapter', (name, settings) => {
  let store: ObjectStore;
  let raw: ObjectStore;
  beforeAll(() => {
    store = objectStore(settings('tenant-a'));
    raw = objectStore(settings());
  });

  it('answers what was put, whole and by byte range, under its basePath', async () => {
    const data = randomBytes(5000);
    expect(
      await store.put('2024/01/a.bin', Readable.from([data.subarray(0, 1234), data.subarray(1234)]), 'application/pdf'),
    ).toEqual({
      size: 5000,
    });
    expect(await store.head('2024/01/a.bin')).toEqual(
      name === 's3' ? { size: 5000, contentType: 'application/pdf' } : { size: 5000 },
    );
    expect(await bytesOf(await store.get('2024/01/a.bin'))).toEqual(data);
    expect(await bytesOf(await store.get('2024/01/a.bin', { start: 100, end: 199 }))).toEqual(data.subarray(100, 200));
    expect(await bytesOf(await store.get('2024/01/a.bin', { start: 4000 }))).toEqual(data.subarray(4000));
    expect((await raw.head('tenant-a/2024/01/a.bin'))?.size).toBe(5000);
  });

  it('answers undefined for what is not there, and deleting it twice is no error', async () => {
    await store.put('gone.txt', Readable.from([Buffer.from('soon gone')]));
    await store.delete('gone.txt');
    expect(await store.get('gone.txt')).toBeUndefined();
    expect(await store.head('gone.txt')).toBeUndefined();
    await expect(store.delete('gone.txt')).resolves.toBeUndefined();
  });

  it('leaves no object behind when the stream fails midway', async () => {
    await expect(store.put('broken/b.bin', failingAfter(64 * 1024))).rejects.toThrow('client went away');
    expect(await store.head('broken/b.bin')).toBeUndefined();
    if (name === 'local') expect(await readdir(path.join(root, 'tenant-a', 'broken'))).toEqual([]);
  });

  it('probes put, get and delete', async () => {
    await expect(store.probe()).resolves.toBeUndefined();
  });
});

describe('the local adapter', () => {
  it('refuses keys that could leave its root', async () => {
    const store = objectStore({ provider: 'local', root });
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a\\..\\x', '']) {
      await expect(store.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow('invalid object key');
      await expect(store.get(key)).rejects.toThrow('invalid object key');
      await expect(store.delete(key)).rejects.toThrow('invalid object key');
    }
  });

  it('signs no URLs: the API serves local files itself', () => {
    const store = objectStore({ provider: 'local', root });
    expect(store.presignPut).toBeUndefined();
    expect(store.presignGet).toBeUndefined();
  });
});

describe('the s3 adapter', () => {
  it('fails its probe with the step and the reason', async () => {
    // s3rver checks the access key id but no V4 signature, so a wrong key id stands in for a wrong secret here.
    await expect(objectStore({ ...s3Settings(), accessKeyId: 'NOBODY' }).probe()).rejects.toThrow(
      /^put: The AWS Access Key Id you provided does not exist/,
    );
    await expect(objectStore({ ...s3Settings(), bucket: 'no-such-bucket' }).probe()).rejects.toThrow(
      /^put: The specified bucket does not exist/,
    );
  });

  it('reaches no local address under the guard of a tenant: one message, whatever the reason, and no connection', async () => {
    const strict = { ...s3Settings(), outbound: outboundGuard('public') };
    await expect(objectStore(strict).probe()).rejects.toThrow(/^put: Could not reach the service$/);
    const port = Number(new URL(s3.endpoint).port);
    for (const endpoint of [`http://localhost:${port}`, `http://[::ffff:127.0.0.1]:${port}`])
      await expect(objectStore({ ...strict, endpoint }).probe()).rejects.toThrow(/^put: Could not reach the service$/);
    // what the service answers is still said
    await expect(objectStore({ ...s3Settings(), bucket: 'no-such-bucket' }).probe()).rejects.toThrow(
      /^put: The specified bucket does not exist/,
    );
  });

  it('puts an object larger than a part in several parts', async () => {
    const store = objectStore(s3Settings());
    const data = randomBytes(11 * 1024 * 1024);
    const chunks = Array.from({ length: 11 }, (_, n) => data.subarray(n * 1024 * 1024, (n + 1) * 1024 * 1024));
    expect(await store.put('big/c.bin', Readable.from(chunks))).toEqual({ size: data.length });
    // Buffer.equals: a deep toEqual walks 11 MB byte by byte for most of a minute.
    expect((await bytesOf(await store.get('big/c.bin')))?.equals(data)).toBe(true);
  });

  it('leaves no object when the stream fails after a first 5 MB part was sent', async () => {
    const store = objectStore(s3Settings());
    await expect(store.put('broken/big.bin', failingAfter(6 * 1024 * 1024))).rejects.toThrow('client went away');
    expect(await store.head('broken/big.bin')).toBeUndefined();
  });

  it('signs a PUT a browser sends as is, and a GET that names the file in Chinese', async () => {
    const store = objectStore({ ...s3Settings(), basePath: 'tenant-b' });
    const data = randomBytes(3000);
    const put = await store.presignPut?.('uploads/plan.pdf', 'application/pdf', 300);
    if (!put) throw new Error('the S3 adapter signs PUTs');
    expect(put.headers).toEqual({ 'Content-Type': 'application/pdf' });
    // s3rver checks no V4 signature, so only the URL shows that the type is signed (and no checksum of an empty body).
    expect(new URL(put.url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-type;host');
    expect(put.url).not.toMatch(/checksum/i);
    const uploaded = await fetch(put.url, { method: 'PUT', headers: put.headers, body: data });
    expect(uploaded.status).toBe(200);
    expect(await store.head('uploads/plan.pdf')).toEqual({ size: 3000, contentType: 'application/pdf' });

    const url = await store.presignGet?.('uploads/plan.pdf', 300, '培训计划 (2024).pdf');
    if (!url) throw new Error('the S3 adapter signs GETs');
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(data);
    const disposition = fetched.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/^attachment; filename="[^"]*"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("UTF-8''")[1] ?? '')).toBe('培训计划 (2024).pdf');

    const inline = await fetch((await store.presignGet?.('uploads/plan.pdf', 300, '计划.pdf', true)) ?? '');
    expect(inline.headers.get('content-disposition')).toMatch(/^inline; /);
  });

  it('lets a page on another origin upload with a presigned PUT (CORS preflight)', async () => {
    const store = objectStore(s3Settings());
    const put = await store.presignPut?.('cors/x.png', 'image/png', 300);
    const preflight = await fetch(put?.url ?? '', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://console.test',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
  });
});

describe('sniffType', () => {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  );
  const pdf = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1');
  const exe = Buffer.concat([Buffer.from('MZ'), randomBytes(200)]);

  it('answers the type of the bytes, whatever the name says', async () => {
    expect(SNIFF_BYTES).toBe(4100);
    expect(await sniffType(png, 'photo.jpg')).toEqual({ mime: 'image/png', ext: 'png' });
    expect(await sniffType(pdf, 'notes.txt')).toEqual({ mime: 'application/pdf', ext: 'pdf' });
    expect(await sniffType(exe, 'cat.png')).toEqual({ mime: 'application/x-msdownload', ext: 'exe' });
  });

  it('takes a text format from the name only when the bytes are UTF-8 text', async () => {
    expect(await sniffType(Buffer.from('培训计划\n第一周'), 'plan.txt')).toEqual({ mime: 'text/plain', ext: 'txt' });
    expect(await sniffType(Buffer.from('姓名,科室\n张三,内科\n'), 'people.CSV')).toEqual({
      mime: 'text/csv',
      ext: 'csv',
    });
    // A character cut at the end of the sniffed head is still text.
    expect(await sniffType(Buffer.from('培训').subarray(0, 5), 'cut.txt')).toEqual({ mime: 'text/plain', ext: 'txt' });
    expect(await sniffType(Buffer.from([0x61, 0, 0x62]), 'nul.txt')).toBeUndefined();
    expect(await sniffType(Buffer.from('caf\xe9 au lait', 'latin1'), 'latin1.txt')).toBeUndefined();
    expect(await sniffType(Buffer.from('just text'), 'image.png')).toBeUndefined();
  });
});
