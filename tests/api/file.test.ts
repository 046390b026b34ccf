import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3Server, startS3Server } from '../support/s3-server';
import { engines, type Json, testClock, twoTenants } from './helpers';

const files = '/api/file/file';
const SECRET = 'kept-secret-9f3c';
const storage = '/api/file/storage';

/** A 1×1 PNG: its bytes say PNG whatever its name says. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
/** The start of a Windows executable. */
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510, 0x90)]);

describe.each(engines())('files on $name', (engine) => {
  const s = twoTenants(engine);
  const clock = testClock();

  const upload = (name: string, bytes: Uint8Array, token = s.demo, purpose = 'library') =>
    s.api.fetch('POST', `${files}/upload?name=${encodeURIComponent(name)}&purpose=${purpose}`, {
      token,
      body: bytes,
      headers: { 'content-type': 'application/octet-stream', 'accept-language': 'en-US' },
    });
  const uploaded = async (name: string, bytes: Uint8Array, purpose = 'library') => {
    const res = await upload(name, bytes, s.demo, purpose);
    const body: Json = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body;
  };
  const bytesOf = async (url: string, headers: Record<string, string> = {}) => {
    const res = await s.api.fetch('GET', url.replace(/^https?:\/\/[^/]+/, ''), { headers });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it('stores an upload on the built-in disk, typed by its content, and serves it by a signed link', async () => {
    const file = await uploaded('证书扫描.pdf', PDF);
    expect(file).toMatchObject({
      originalName: '证书扫描.pdf',
      mimeType: 'application/pdf',
      ext: 'pdf',
      sizeBytes: PDF.length,
      bizType: 'library',
      status: 'active',
      storageConfigId: null,
    });
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
    const listed = await s.call('GET', `${files}?keyword=证书`);
    expect(listed.body.data.map((r: Json) => r.id)).toEqual([file.id]);

    const link = await s.call('GET', `${files}/${file.id}/link?disposition=inline`);
    expect(link.status).toBe(200);
    expect(link.body.url).toMatch(/^\/api\/file\/file\/content\//);
    const { res, bytes } = await bytesOf(link.body.url);
    expect(res.status).toBe(200);
    expect(bytes.equals(PDF)).toBe(true);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^inline; .*filename\*=UTF-8''%E8%AF%81/);

    const part = await bytesOf(link.body.url, { range: 'bytes=0-3' });
    expect(part.res.status).toBe(206);
    expect(part.bytes.toString()).toBe('%PDF');
    expect(part.res.headers.get('content-range')).toBe(`bytes 0-3/${PDF.length}`);
  });

  it('finds the type from the content, never the name: an executable named .png is refused, a PNG named .pdf is a PNG', async () => {
    const before = (await s.call('GET', files)).body.total;
    const exe = await upload('photo.png', EXE);
    expect(exe.status).toBe(415);
    expect(await exe.json()).toMatchObject({ code: 'file.typeNotAllowed' });
    const text = await upload('report.pdf', new TextEncoder().encode('not a document at all'));
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({
      code: 'file.typeUnknown',
      message: expect.stringMatching(/^The kind of the file "report\.pdf" could not be found .*; allowed: .*pdf/),
    });
    const empty = await upload('empty.txt', new Uint8Array(0));
    expect(empty.status).toBe(400);
    expect((await s.call('GET', files)).body.total).toBe(before);

    const png = await uploaded('not-a-document.pdf', PNG);
    expect(png).toMatchObject({ mimeType: 'image/png', ext: 'png' });
  });

  it("refuses a file over the tenant's size limit and keeps nothing of it", async () => {
    const limit = await s.call('PUT', '/api/system/settings/upload.maxSizeMb', { value: 1, version: 0 });
    expect(limit.status, JSON.stringify(limit.body)).toBe(200);
    const before = (await s.call('GET', files)).body.total;
    const big = Buffer.concat([PDF, Buffer.alloc(1024 * 1024 + 10, 0x20)]);
    const res = await upload('big.pdf', big);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'file.tooLarge' });
    expect((await s.call('GET', files)).body.total).toBe(before);
    const reset = await s.call('PUT', '/api/system/settings/upload.maxSizeMb', {
      value: 50,
      version: limit.body.version,
    });
    expect(reset.status).toBe(200);
  });

  it('refuses a link that has expired or was tampered with', async () => {
    const file = await uploaded('scan.png', PNG);
    const link = (await s.call('GET', `${files}/${file.id}/link`)).body;
    const tampered = link.url.replace(
      /\.(\d+)\.(a|i)\./,
      (_: string, exp: string, d: string) => `.${Number(exp) + 1000}.${d}.`,
    );
    expect((await bytesOf(tampered)).res.status).toBe(403);
    const service = s.api.server.services.files;
    const later = new Date(Date.parse(link.expiresAt) + 1000);
    const expired = await service
      .open(link.url.split('/').pop() as string, () => undefined, later)
      .then(() => 'served')
      .catch((err: Json) => err.code);
    expect(expired).toBe('file.linkExpired');
  });

  it("never shows or serves another tenant's files", async () => {
    const file = await uploaded('private.png', PNG);
    expect((await s.call('GET', `${files}/${file.id}`, undefined, s.other)).status).toBe(404);
    expect((await s.call('GET', `${files}/${file.id}/link`, undefined, s.other)).status).toBe(404);
    const theirs = await s.call('GET', `${files}?pageSize=100`, undefined, s.other);
    expect(theirs.body.data.map((r: Json) => r.id)).not.toContain(file.id);
    expect((await s.call('DELETE', `${files}/${file.id}`, undefined, s.other)).status).toBe(404);
  });

  it('deletes a library file with its object, and removes orphans older than a day, but not claimed files', async () => {
    const kept = await uploaded('kept.png', PNG);
    const link = (await s.call('GET', `${files}/${kept.id}/link`)).body.url;
    expect((await s.call('DELETE', `${files}/${kept.id}`)).status).toBe(204);
    expect((await bytesOf(link)).res.status).toBe(404);

    const orphan = await uploaded('draft.png', PNG, 'attachment');
    expect(orphan.bizType).toBeNull();
    const service = s.api.server.services.files;
    expect(await service.removeOrphans(clock.now())).toBe(0);
    const tomorrow = new Date(Date.now() + 25 * 60 * 60 * 1000);
    const removed = await service.removeOrphans(tomorrow);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect((await s.call('GET', `${files}/${orphan.id}`)).status).toBe(404);
  });

  it("keeps a platform configuration that stores another tenant's files, which its own tenant does not see", async () => {
    const platform = (await s.api.tokens('platform', 'admin', 'admin123')).access;
    const asPlatform = (method: string, path: string, body?: unknown) =>
      s.api.call(method, path, { token: platform, body, headers: { 'accept-language': 'en-US' } });
    const kept = (await asPlatform('POST', storage, { name: '平台磁盘', provider: 'local' })).body;
    expect((await asPlatform('POST', `${storage}/${kept.id}/set-master`, { version: kept.version })).status).toBe(200);
    // demo2 has no master of its own: its files go through the platform's
    const res = await upload('theirs.png', PNG, s.other);
    const theirs: Json = await res.json();
    expect(res.status, JSON.stringify(theirs)).toBe(201);
    expect(theirs.storageConfigId).toBe(kept.id);
    const next = (await asPlatform('POST', storage, { name: '平台磁盘二', provider: 'local' })).body;
    expect((await asPlatform('POST', `${storage}/${next.id}/set-master`, { version: next.version })).status).toBe(200);
    const listed = (await asPlatform('GET', `${storage}/${kept.id}`)).body;
    expect(listed.fileCount).toBe(0);
    const refused = await asPlatform('DELETE', `${storage}/${kept.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'storage.inUse' });
    expect(refused.body.message).toContain('1 files');
  });
});

describe.each(engines())('storage configurations and an S3 store on $name', (engine) => {
  // s3rver listens on loopback: demo is allowed private addresses (OUTBOUND_PRIVATE_TENANTS), demo2 is not
  const s = twoTenants(engine, { config: { outboundPrivateTenants: ['demo'] } });
  let s3: S3Server;
  beforeAll(async () => {
    s3 = await startS3Server('medu-test');
  });
  afterAll(() => s3?.close());

  const s3Body = () => ({
    name: 'MinIO',
    provider: 's3',
    endpoint: s3.endpoint,
    region: s3.region,
    bucket: s3.bucket,
    pathStyle: true,
    accessKeyId: s3.accessKeyId,
    // s3rver checks the key id, not the signature: any secret serves, and this one is told apart from the id
    secretAccessKey: SECRET,
  });

  it('keeps the secret encrypted and never answers it; an S3 store names its bucket, region and keys', async () => {
    const missing = await s.call('POST', storage, { name: 'x', provider: 's3', endpoint: s3.endpoint });
    expect(missing.status).toBe(400);
    expect(missing.body.fields.map((f: Json) => f.field)).toContain('bucket');

    const config = await s.create(storage, s3Body());
    expect(config).toMatchObject({ secretSet: true, isMaster: false, fileCount: 0 });
    expect(JSON.stringify(config)).not.toContain(SECRET);
    const stored = await s.api.db
      .selectFrom('storage_config')
      .select('secret_enc')
      .where('id', '=', config.id)
      .executeTakeFirstOrThrow();
    expect(Buffer.from(stored.secret_enc as Uint8Array).toString('utf8')).not.toContain(SECRET);

    const test = await s.call('POST', `${storage}/${config.id}/test`);
    expect(test.body).toMatchObject({ ok: true, message: 'ok' });
  });

  it('makes an S3 configuration the master: uploads go there, through the server or straight from the browser', async () => {
    const config = (await s.call('GET', `${storage}?keyword=MinIO`)).body.data[0];
    const master = await s.call('POST', `${storage}/${config.id}/set-master`, { version: config.version });
    expect(master.status, JSON.stringify(master.body)).toBe(200);
    expect(master.body.isMaster).toBe(true);
    const policy = await s.call('GET', `${files}/upload-policy`);
    expect(policy.body).toMatchObject({ direct: true, provider: 's3' });

    // through the server
    const res = await s.api.fetch('POST', `${files}/upload?name=scan.png`, { token: s.demo, body: PNG });
    const viaServer: Json = await res.json();
    expect(res.status, JSON.stringify(viaServer)).toBe(201);
    expect(viaServer.storageConfigId).toBe(config.id);
    const link = (await s.call('GET', `${files}/${viaServer.id}/link`)).body;
    expect(link.url.startsWith(s3.endpoint)).toBe(true);
    expect(Buffer.from(await (await fetch(link.url)).arrayBuffer()).equals(PNG)).toBe(true);

    // straight to the bucket: presign, PUT, complete
    const presigned = await s.call('POST', `${files}/presign`, {
      name: '报告.pdf',
      size: PDF.length,
      contentType: 'application/pdf',
    });
    expect(presigned.status, JSON.stringify(presigned.body)).toBe(200);
    const early = await s.call('POST', `${files}/${presigned.body.fileId}/complete`);
    expect(early.status).toBe(409);
    const put = await fetch(presigned.body.url, { method: 'PUT', headers: presigned.body.headers, body: PDF });
    expect(put.status).toBe(200);
    const done = await s.call('POST', `${files}/${presigned.body.fileId}/complete`);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ status: 'active', mimeType: 'application/pdf', ext: 'pdf' });

    // a direct upload whose content is not allowed is deleted on completion
    const bad = await s.call('POST', `${files}/presign`, { name: 'a.png', size: EXE.length, contentType: 'image/png' });
    await fetch(bad.body.url, { method: 'PUT', headers: bad.body.headers, body: EXE });
    const refused = await s.call('POST', `${files}/${bad.body.fileId}/complete`);
    expect(refused.status).toBe(415);
    expect((await s.call('GET', `${files}/${bad.body.fileId}`)).status).toBe(404);
  });

  it('refuses to delete a configuration that holds files or is the master, and to disable the master', async () => {
    const config = (await s.call('GET', `${storage}?keyword=MinIO`)).body.data[0];
    expect(config.fileCount).toBeGreaterThan(0);
    const del = await s.call('DELETE', `${storage}/${config.id}`);
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('storage.inUse');
    const off = await s.call('PUT', `${storage}/${config.id}`, { status: 'disabled', version: config.version });
    expect(off.body.code).toBe('storage.masterDisabled');
    // another tenant neither sees it nor stores there
    expect((await s.call('GET', `${storage}/${config.id}`, undefined, s.other)).status).toBe(404);
    const theirs = await s.call('GET', `${files}/upload-policy`, undefined, s.other);
    expect(theirs.body).toMatchObject({ direct: false, provider: 'local' });
  });

  it('says that the store could not be reached, and nothing of why (the server log says it)', async () => {
    const broken = await s.create(storage, { ...s3Body(), name: 'Broken', endpoint: 'http://127.0.0.1:9' });
    const test = await s.call('POST', `${storage}/${broken.id}/test`);
    expect(test.body.ok).toBe(false);
    expect(test.body.message).toBe('Could not reach the service');
    const wrongBucket = await s.create(storage, { ...s3Body(), name: 'No bucket', bucket: 'no-such-bucket' });
    const answered = await s.call('POST', `${storage}/${wrongBucket.id}/test`);
    expect(answered.body).toMatchObject({ ok: false, message: expect.stringMatching(/^put: The specified bucket/) });
    expect((await s.call('DELETE', `${storage}/${wrongBucket.id}`)).status).toBe(204);
    expect((await s.call('DELETE', `${storage}/${broken.id}`)).status).toBe(204);
  });
});
