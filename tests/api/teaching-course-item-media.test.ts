import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectStore } from '../../server/src/modules/file/storage/object-store';
import { probeMedia } from '../../server/src/modules/teaching/course-item/media-probe';
import { tinyMp4 } from '../support/mp4';
import { type S3Server, startS3Server } from '../support/s3-server';
import { engines, type Json, twoTenants } from './helpers';

const items = '/api/teaching/course-item';
const files = '/api/file/file';

/** Reads until `done` holds (the job runs in the background), failing after `ms`. */
const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** A file that says MP4 in its first bytes (its `ftyp` box) and is text after them. */
const fakeMp4 = () =>
  Buffer.concat([tinyMp4(1).subarray(0, 32), Buffer.from('these are lecture notes, not a movie\n'.repeat(20))]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/**
 * A 500 MB MP4 whose frames (`mdat`) come before its header (`moov`), as a camera writes it: a store that makes up its
 * bytes on request, counting what is read.
 */
function largeVideo(seconds: number) {
  const small = tinyMp4(seconds);
  const ftyp = small.subarray(0, 32);
  const moov = small.subarray(32, small.length - 24);
  const frames = 500 * 1024 * 1024;
  const mdat = Buffer.alloc(16);
  mdat.writeUInt32BE(1, 0);
  mdat.write('mdat', 4, 'latin1');
  mdat.writeBigUInt64BE(BigInt(16 + frames), 8);
  const parts: [number, Buffer | number][] = [
    [0, ftyp],
    [32, mdat],
    [48, frames],
    [48 + frames, moov],
  ];
  const size = 48 + frames + moov.length;
  let read = 0;
  const bytes = (start: number, end: number) => {
    const out = Buffer.alloc(end - start);
    for (const [at, part] of parts) {
      if (typeof part === 'number') continue;
      const from = Math.max(start, at);
      const to = Math.min(end, at + part.length);
      if (from < to) part.copy(out, from - start, from - at, to - at);
    }
    return out;
  };
  const store = {
    async get(_key: string, range?: { start: number; end?: number }) {
      const start = range?.start ?? 0;
      const end = Math.min(size, (range?.end ?? size - 1) + 1);
      read += end - start;
      return Readable.from([bytes(start, end)]);
    },
  } as unknown as ObjectStore;
  return { store, size, read: () => read };
}

describe('reading a media file', () => {
  it('reads a long video for its length by range, only around its headers', async () => {
    const video = largeVideo(3600);
    const probe = await probeMedia(video.store, 'big.mp4', video.size, 'video/mp4');
    expect(probe).toEqual({ ok: true, durationSec: 3600 });
    expect(video.read()).toBeLessThan(1024 * 1024);
  });
});

describe.each(engines())("course items' media on $name", (engine) => {
  // the S3 bucket (s3rver) listens on loopback: demo is allowed private addresses (OUTBOUND_PRIVATE_TENANTS)
  const s = twoTenants(engine, { config: { outboundPrivateTenants: ['demo'] } });
  const { call, create } = s;
  let courseId: string;

  const upload = async (name: string, bytes: Uint8Array, token = s.demo) => {
    const res = await s.api.fetch('POST', `${files}/upload?name=${encodeURIComponent(name)}&purpose=attachment`, {
      token,
      body: bytes,
      headers: { 'content-type': 'application/octet-stream', 'accept-language': 'en-US' },
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const uploaded = async (name: string, bytes: Uint8Array, token = s.demo) => {
    const res = await upload(name, bytes, token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const video = async (title: string, fileId: string) => create(items, { courseId, itemType: 'video', title, fileId });
  const settled = (id: string) =>
    until(
      async () => (await call('GET', `${items}/${id}`)).body as Json,
      (row) => row.mediaStatus === 'ready' || row.mediaStatus === 'failed',
    );

  beforeAll(async () => {
    courseId = (await create('/api/teaching/course', { code: 'MEDIA-1', title: '影像诊断' })).id;
  });

  it('reads a video for its length: pending, then ready with its seconds, and its minutes follow', async () => {
    const file = await uploaded('lecture.mp4', tinyMp4(93.5));
    const made = await video('第一讲', file.id);
    expect(made).toMatchObject({ mediaStatus: 'pending', mediaDurationSec: null, mediaError: null });
    const done = await settled(made.id);
    expect(done).toMatchObject({ mediaStatus: 'ready', mediaDurationSec: 94, durationMinutes: 2, mediaError: null });
    // the outcome moves the version: a form open on the pending item is stale
    expect(done.version).toBeGreaterThan(made.version);
    const listed = await call('GET', `${items}?courseId=${courseId}&mediaStatus=ready`);
    expect(listed.body.data.map((r: Json) => r.id)).toContain(made.id);
  });

  it('fails a file that is not readable media, with why; refuses a text file named .mp4 at upload', async () => {
    const text = await upload('notes.mp4', Buffer.from('just some text\n'.repeat(50)));
    expect(text.status).toBe(415);
    expect(text.body.code).toBe('file.typeUnknown');

    const fake = await video('讲义', (await uploaded('notes.mp4', fakeMp4())).id);
    const unreadable = await settled(fake.id);
    expect(unreadable).toMatchObject({ mediaStatus: 'failed', mediaError: 'unreadable', mediaDurationSec: null });
    expect(unreadable.mediaErrorDetail).toMatch(/atom/i);

    const pdf = await video('幻灯片', (await uploaded('slides.pdf', PDF)).id);
    expect(await settled(pdf.id)).toMatchObject({ mediaStatus: 'failed', mediaError: 'notMedia' });

    // read again, it fails again (the same file); a ready one is not read again
    const again = await call('POST', `${items}/${pdf.id}/retry-media`, { version: (await settled(pdf.id)).version });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.mediaStatus).toBe('pending');
    expect(await settled(pdf.id)).toMatchObject({ mediaStatus: 'failed', mediaError: 'notMedia' });
  });

  it('replaces the media: the old file is let go and the new one read from the start', async () => {
    const first = await uploaded('v1.mp4', tinyMp4(61));
    const made = await video('第二讲', first.id);
    const ready = await settled(made.id);
    expect(ready).toMatchObject({ mediaStatus: 'ready', mediaDurationSec: 61, durationMinutes: 2 });

    const twice = await call('POST', `${items}/${made.id}/retry-media`, { version: ready.version });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('courseItem.mediaNotFailed');

    const second = await uploaded('v2.mp4', tinyMp4(30));
    const stale = await call('POST', `${items}/${made.id}/replace-media`, { fileId: second.id, version: made.version });
    expect(stale.status).toBe(409);
    const replaced = await call('POST', `${items}/${made.id}/replace-media`, {
      fileId: second.id,
      version: ready.version,
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body).toMatchObject({ fileId: second.id, fileName: 'v2.mp4', mediaStatus: 'pending' });
    expect(replaced.body.mediaDurationSec).toBeNull();
    expect(await settled(made.id)).toMatchObject({ mediaStatus: 'ready', mediaDurationSec: 30, durationMinutes: 1 });

    const old = await call('GET', `${files}/${first.id}`);
    expect(old.body).toMatchObject({ bizType: null, bizId: null });
    const kept = await call('GET', `${files}/${second.id}`);
    expect(kept.body).toMatchObject({ bizType: 'course-item.material', bizId: made.id });

    // the edit form's file replaced restarts the reading too
    const third = await uploaded('v3.mp4', tinyMp4(125));
    const current = await settled(made.id);
    const edited = await call('PUT', `${items}/${made.id}`, { fileId: third.id, version: current.version });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.mediaStatus).toBe('pending');
    expect(await settled(made.id)).toMatchObject({ mediaStatus: 'ready', mediaDurationSec: 125, durationMinutes: 3 });
  });

  it("refuses another tenant's replacement, a file it cannot hold, a viewer, and an item that is not a video", async () => {
    const made = await video('第三讲', (await uploaded('v.mp4', tinyMp4(10))).id);
    const ready = await settled(made.id);
    const theirs = await uploaded('theirs.mp4', tinyMp4(5), s.other);

    const foreign = await call(
      'POST',
      `${items}/${made.id}/replace-media`,
      { fileId: theirs.id, version: ready.version },
      s.other,
    );
    expect(foreign.status).toBe(404);
    const retried = await call('POST', `${items}/${made.id}/retry-media`, { version: ready.version }, s.other);
    expect(retried.status).toBe(404);

    const borrowed = await call('POST', `${items}/${made.id}/replace-media`, {
      fileId: theirs.id,
      version: ready.version,
    });
    expect(borrowed.status).toBe(400);
    expect(borrowed.body.fields[0].field).toBe('fileId');

    const mine = await uploaded('mine.mp4', tinyMp4(5));
    const viewer = await call(
      'POST',
      `${items}/${made.id}/replace-media`,
      { fileId: mine.id, version: ready.version },
      s.viewer,
    );
    expect(viewer.status).toBe(403);

    const link = await create(items, { courseId, itemType: 'link', title: '指南', url: 'https://example.org/guide' });
    expect(link.mediaStatus).toBeNull();
    const notMedia = await call('POST', `${items}/${link.id}/replace-media`, {
      fileId: mine.id,
      version: link.version,
    });
    expect(notMedia.status).toBe(409);
    expect(notMedia.body.code).toBe('courseItem.notMedia');

    expect(await settled(made.id)).toMatchObject({ mediaStatus: 'ready', mediaDurationSec: 10, fileId: ready.fileId });
  });

  it('publishes a video only once its file is read (not while read, not when it failed)', async () => {
    const broken = await settled((await video('坏文件', (await uploaded('notes.mp4', fakeMp4())).id)).id);
    expect(broken.mediaStatus).toBe('failed');
    const failed = await call('POST', `${items}/${broken.id}/publish`, { version: broken.version });
    expect(failed.body.fields.map((f: Json) => f.field)).toEqual(['fileId']);
    const good = await settled((await video('好文件', (await uploaded('ok.mp4', tinyMp4(10))).id)).id);
    await sql`UPDATE course_item SET media_status = 'processing' WHERE id = ${good.id}`.execute(s.api.db);
    const busy = await call('POST', `${items}/${good.id}/publish`, { version: good.version });
    expect(busy.body.fields.map((f: Json) => f.field)).toEqual(['fileId']);
    expect(busy.body.fields[0].message).toContain('processed');
    await sql`UPDATE course_item SET media_status = 'ready' WHERE id = ${good.id}`.execute(s.api.db);
    expect((await call('POST', `${items}/${good.id}/publish`, { version: good.version })).status).toBe(200);
  });

  it("clones a course's videos and documents with their files, shared: kept when the source lets them go", async () => {
    const source = await create('/api/teaching/course', { code: 'SHARE-1', title: '共享文件' });
    const lecture = await uploaded('lecture.mp4', tinyMp4(30));
    const handout = await uploaded('handout.pdf', PDF);
    const v = await settled(
      (await create(items, { courseId: source.id, itemType: 'video', title: '讲座', fileId: lecture.id })).id,
    );
    const d = await create(items, { courseId: source.id, itemType: 'document', title: '讲义', fileId: handout.id });
    const copy = await call('POST', `/api/teaching/course/${source.id}/clone`, {
      code: 'SHARE-2',
      title: '共享（二）',
    });
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    const copied = (await call('GET', `${items}/outline?courseId=${copy.body.id}`)).body as Json[];
    const [cv, cd] = copied;
    expect(cv).toMatchObject({
      fileId: lecture.id,
      fileName: 'lecture.mp4',
      mediaStatus: 'ready',
      mediaDurationSec: 30,
    });
    expect(cd).toMatchObject({ fileId: handout.id, fileName: 'handout.pdf', status: 'draft' });
    // the copy is saved with its file as it is, and published
    const edited = await call('PUT', `${items}/${cd.id}`, {
      title: '讲义（二）',
      fileId: handout.id,
      version: cd.version,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await call('POST', `${items}/${cv.id}/publish`, { version: cv.version })).status).toBe(200);
    // the source's document deleted, its video replaced: the files go to the copies, not to the orphans
    expect((await call('DELETE', `${items}/${d.id}`)).status).toBe(204);
    expect((await call('GET', `${files}/${handout.id}`)).body).toMatchObject({
      bizType: 'course-item.material',
      bizId: cd.id,
    });
    const other = await uploaded('other.mp4', tinyMp4(5));
    const replaced = await call('POST', `${items}/${v.id}/replace-media`, { fileId: other.id, version: v.version });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect((await call('GET', `${files}/${lecture.id}`)).body).toMatchObject({ bizId: cv.id });
  });

  it('takes up again what a stopped process left processing, and a pending item whose job was lost', async () => {
    const made = await video('第四讲', (await uploaded('v4.mp4', tinyMp4(42))).id);
    await settled(made.id);
    await s.api.tenancy.asSystem((tx) =>
      tx
        .updateTable('course_item')
        .set({ media_status: 'processing', media_started_at: sql<Date>`now() - interval '11 minutes'` })
        .where('id', '=', made.id)
        .execute(),
    );
    await s.api.server.services.courseItems.media.sweep();
    expect(await settled(made.id)).toMatchObject({ mediaStatus: 'ready', mediaDurationSec: 42 });

    await s.api.tenancy.asSystem((tx) =>
      tx
        .updateTable('course_item')
        .set({ media_status: 'pending', updated_at: sql<Date>`now() - interval '2 minutes'` })
        .where('id', '=', made.id)
        .execute(),
    );
    await s.api.server.services.courseItems.media.sweep();
    expect(await settled(made.id)).toMatchObject({ mediaStatus: 'ready', mediaDurationSec: 42 });
  });

  describe('stored in an S3 bucket', () => {
    let s3: S3Server;
    beforeAll(async () => {
      s3 = await startS3Server('medu-media');
    });
    afterAll(() => s3?.close());

    it('reads the video from the bucket by range', async () => {
      const config = await create('/api/file/storage', {
        name: 'MinIO',
        provider: 's3',
        endpoint: s3.endpoint,
        region: s3.region,
        bucket: s3.bucket,
        pathStyle: true,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: 'any-secret',
      });
      const master = await call('POST', `/api/file/storage/${config.id}/set-master`, { version: config.version });
      expect(master.status, JSON.stringify(master.body)).toBe(200);
      const file = await uploaded('s3.mp4', tinyMp4(75));
      expect(file.storageConfigId).toBe(config.id);
      const made = await video('第五讲', file.id);
      expect(await settled(made.id)).toMatchObject({ mediaStatus: 'ready', mediaDurationSec: 75, durationMinutes: 2 });
    });
  });
});
