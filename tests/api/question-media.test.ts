import { deflateSync } from 'node:zlib';
import JSZip from 'jszip';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_LIMITS, toEmbedded } from '../../server/src/modules/assess/paper/paper.images';
import { engines, type Json, questionReviewer, twoTenants } from './helpers';

const questions = '/api/assess/question';
const papers = '/api/assess/paper';
const files = '/api/file/file';

/** A PNG of `width`×`height` grey pixels, whole (every chunk with its CRC), as a PDF library decodes it. */
function png(width: number, height: number): Buffer {
  const crc = (bytes: Buffer) => {
    let c = ~0;
    for (const b of bytes) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return ~c >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // 8 bits, greyscale
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.alloc(width + 1, 0x80).fill(0, 0, 1)));
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const PNG = png(4, 3);
const PNG2 = png(2, 5);
/** A `width`×`height` image of one colour as `format` (a GIF or a WebP), made by the library the exports convert with. */
const drawn = (format: 'gif' | 'webp', width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#b03a2e' } })
    .toFormat(format)
    .toBuffer();
/** The width and height a PNG's header says. */
const pngSize = (data: Buffer) => [data.readUInt32BE(16), data.readUInt32BE(20)];
/** The sizes of the image XObjects of a PDF (a transparent image's mask the size of its image), each once. */
const pdfImages = (pdf: Buffer) =>
  [
    ...new Set(
      (pdf.toString('latin1').match(/<<[^>]*\/Subtype \/Image[^>]*>>/g) ?? []).map(
        (dict) => `${/\/Width (\d+)/.exec(dict)?.[1]}x${/\/Height (\d+)/.exec(dict)?.[1]}`,
      ),
    ),
  ].sort();
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

const five = (prefix: string, extra: Record<string, Json> = {}) =>
  'ABCDE'.split('').map((key) => ({ key, text: `${prefix}${key}`, ...(extra[key] ?? {}) }));

describe.each(engines())('images on questions on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;
  let categoryId: string;
  let reviewer = '';

  const fieldOf = (body: Json) => (body.fields ?? []).map((e: Json) => e.field);
  const uploaded = async (name: string, bytes: Uint8Array, token = s.demo) => {
    const res = await s.api.fetch('POST', `${files}/upload?name=${encodeURIComponent(name)}&purpose=attachment`, {
      token,
      body: bytes,
      headers: { 'content-type': 'application/octet-stream', 'accept-language': 'en-US' },
    });
    const body = (await res.json()) as Json;
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body;
  };
  const fileOf = async (id: string) => (await call('GET', `${files}/${id}`)).body;
  const choice = (stem: string, extra: Json = {}) => ({
    categoryId,
    questionType: 'single_choice',
    medicalFormat: 'A1',
    stem,
    options: five(stem),
    answer: ['B'],
    ...extra,
  });

  beforeAll(async () => {
    reviewer = await questionReviewer(s.api, 'demo', s.demo);
    categoryId = (await create('/api/assess/category', { code: 'imaging', name: '影像学' })).id;
  });

  it('attaches images to a stem and an option; the question holds them and lists them with links', async () => {
    const ecg = await uploaded('ecg.png', PNG);
    const film = await uploaded('film.png', PNG2);
    const made = await create(
      questions,
      choice('心电图如下，最可能的诊断是', {
        stemMediaFileIds: [ecg.id],
        options: five('心电图如下，最可能的诊断是', { C: { mediaIds: [film.id] } }),
      }),
    );
    expect(made.stemMediaFileIds).toEqual([ecg.id]);
    expect(made.options[2]).toMatchObject({ key: 'C', mediaIds: [film.id] });
    expect(await fileOf(ecg.id)).toMatchObject({ bizType: 'question.media', bizId: made.id });
    const held = await call('GET', `${questions}/${made.id}/attachments`);
    expect(held.status).toBe(200);
    expect(held.body.map((a: Json) => a.id).sort()).toEqual([ecg.id, film.id].sort());
    expect(held.body[0].previewUrl).toBeTruthy();
    // reordered: the stem's images in the order given
    const second = await uploaded('ecg2.png', PNG);
    const reordered = await call('PUT', `${questions}/${made.id}`, {
      stemMediaFileIds: [second.id, ecg.id],
      version: made.version,
    });
    expect(reordered.status, JSON.stringify(reordered.body)).toBe(200);
    expect(reordered.body.stemMediaFileIds).toEqual([second.id, ecg.id]);
    // a group's item shows its own images
    const group = await create(questions, {
      categoryId,
      questionType: 'case_group',
      medicalFormat: 'A3',
      stem: '男，56岁，胸痛3小时，胸片如下。',
      stemMediaFileIds: [(await uploaded('cxr.png', PNG)).id],
      children: [
        {
          stem: '首选的检查是',
          stemMediaFileIds: [(await uploaded('ct.png', PNG2)).id],
          options: five('检查'),
          answer: ['A'],
        },
        { stem: '首选的治疗是', options: five('治疗'), answer: ['C'] },
      ],
    });
    expect(group.children[0].stemMediaFileIds).toHaveLength(1);
    expect((await call('GET', `${questions}/${group.id}/attachments`)).body).toHaveLength(2);
  });

  it("refuses another tenant's file, a file that is not an image, and one another question holds, naming the field", async () => {
    const theirs = await uploaded('theirs.png', PNG, s.other);
    const foreign = await call('POST', questions, choice('外院影像', { stemMediaFileIds: [theirs.id] }));
    expect(foreign.status).toBe(400);
    expect(fieldOf(foreign.body)).toEqual(['stemMediaFileIds.0']);

    const pdf = await uploaded('report.pdf', PDF);
    const notImage = await call(
      'POST',
      questions,
      choice('报告单如下', { options: five('报告单如下', { B: { mediaIds: [pdf.id] } }) }),
    );
    expect(notImage.status).toBe(400);
    expect(fieldOf(notImage.body)).toEqual(['options.1.mediaIds']);
    expect(notImage.body.fields[0].message).toMatch(/not an image/);

    const inItem = await call('POST', questions, {
      categoryId,
      questionType: 'case_group',
      medicalFormat: 'A3',
      stem: '病例如下',
      children: [
        { stem: '诊断', options: five('诊断'), answer: ['A'] },
        { stem: '治疗', stemMediaFileIds: [pdf.id], options: five('治疗'), answer: ['A'] },
      ],
    });
    expect(fieldOf(inItem.body)).toEqual(['children.1.stemMediaFileIds']);

    const image = await uploaded('held.png', PNG);
    await create(questions, choice('第一题', { stemMediaFileIds: [image.id] }));
    const taken = await call('POST', questions, choice('第二题', { stemMediaFileIds: [image.id] }));
    expect(fieldOf(taken.body)).toEqual(['stemMediaFileIds']);
  });

  it('keeps the content hash text-based: the same text with other images is still a duplicate', async () => {
    await create(questions, choice('相同题干的影像题', { stemMediaFileIds: [(await uploaded('a.png', PNG)).id] }));
    const same = await call(
      'POST',
      questions,
      choice('相同题干的影像题', { stemMediaFileIds: [(await uploaded('b.png', PNG2)).id] }),
    );
    expect(same.status).toBe(400);
    expect(fieldOf(same.body)).toEqual(['allowDuplicate']);
  });

  it('keeps an image a later version dropped: the old version and the pinned paper still show it, in its exports, and it is never an orphan', async () => {
    const old = await uploaded('old-ecg.png', PNG);
    const made = await create(questions, choice('旧版心电图题', { stemMediaFileIds: [old.id] }));
    const sent = await call('POST', `${questions}/${made.id}/submit`, { version: made.version });
    const ready = await call(
      'POST',
      `${questions}/${made.id}/review`,
      { decision: 'approve', version: sent.body.version },
      reviewer,
    );
    expect(ready.body.status).toBe('ready');
    const paper = await create(papers, {
      code: 'IMG-1',
      title: '影像考核',
      purpose: 'department_exit',
      composeMode: 'manual',
      passScore: 1,
      durationMinutes: 30,
      sections: [{ title: 'A1', slots: [{ questionId: made.id, score: 2 }] }],
    });
    const published = await call('POST', `${papers}/${paper.id}/publish`, { version: paper.version });
    expect(published.status, JSON.stringify(published.body)).toBe(200);

    // a new version replaces the image
    const replacement = await uploaded('new-ecg.png', PNG2);
    const edited = await call('PUT', `${questions}/${made.id}`, {
      stemMediaFileIds: [replacement.id],
      version: ready.body.version,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ currentVersion: 2, stemMediaFileIds: [replacement.id] });
    const versions = (await call('GET', `${questions}/${made.id}/versions`)).body;
    expect(versions.map((v: Json) => [v.number, v.snapshot.stemMediaFileIds])).toEqual([
      [2, [replacement.id]],
      [1, [old.id]],
    ]);
    // both stay the question's, and survive the removal of orphans
    expect(await fileOf(old.id)).toMatchObject({ bizType: 'question.media', bizId: made.id });
    const held = (await call('GET', `${questions}/${made.id}/attachments`)).body.map((a: Json) => a.id);
    expect(held.sort()).toEqual([old.id, replacement.id].sort());
    await s.api.server.services.files.removeOrphans(new Date(Date.now() + 25 * 60 * 60 * 1000));
    expect((await call('GET', `${files}/${old.id}`)).status).toBe(200);

    // the pinned paper shows the old image, with a link
    const preview = (await call('GET', `${papers}/${paper.id}/preview`)).body;
    expect(preview.sections[0].questions[0]).toMatchObject({ version: 1, stemMediaFileIds: [old.id] });
    expect(preview.media.map((a: Json) => a.id)).toEqual([old.id]);
    expect(preview.media[0].previewUrl).toBeTruthy();

    // its Word document embeds the image's bytes, its PDF an image XObject
    const word = await s.api.fetch('GET', `${papers}/${paper.id}/export-word`, { token: s.demo });
    expect(word.status).toBe(200);
    const zip = await JSZip.loadAsync(await word.arrayBuffer());
    const media = Object.keys(zip.files).filter((name) => /^word\/media\/.+/.test(name));
    expect(media).toHaveLength(1);
    expect(Buffer.from(await (zip.file(media[0] as string) as JSZip.JSZipObject).async('uint8array'))).toEqual(PNG);
    const pdf = await s.api.fetch('GET', `${papers}/${paper.id}/export-pdf`, { token: s.demo });
    expect(pdf.status).toBe(200);
    expect(Buffer.from(await pdf.arrayBuffer()).toString('latin1')).toMatch(/\/Subtype \/Image/);

    // a clone of the paper shows the same images (it holds the same questions)
    const copy = await call('POST', `${papers}/${paper.id}/clone`, { code: 'IMG-2', title: '影像考核（复制）' });
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    const copied = (await call('GET', `${papers}/${copy.body.id}/preview`)).body;
    expect(copied.sections[0].questions[0].stemMediaFileIds).toEqual([replacement.id]);
  });

  it('embeds a GIF (its first frame) and a WebP as PNG images in the Word and PDF copies, with or without the key; a file that only claims to be a GIF prints the line to see it online', async () => {
    const gif = await uploaded('ecg.gif', await drawn('gif', 6, 4));
    const webp = await uploaded('film.webp', await drawn('webp', 5, 7));
    const itemWebp = await uploaded('ct.webp', await drawn('webp', 3, 9));
    // "GIF89a" and then noise: stored as a GIF (its first bytes), yet no image to decode
    const broken = await uploaded('broken.gif', Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64, 0x5a)]));
    expect([gif, webp, broken].map((f) => f.mimeType)).toEqual(['image/gif', 'image/webp', 'image/gif']);
    const approved = async (question: Json) => {
      const sent = await call('POST', `${questions}/${question.id}/submit`, { version: question.version });
      const ready = await call(
        'POST',
        `${questions}/${question.id}/review`,
        { decision: 'approve', version: sent.body.version },
        reviewer,
      );
      expect(ready.body.status, JSON.stringify(ready.body)).toBe('ready');
      return question.id as string;
    };
    const shown = await approved(
      await create(
        questions,
        choice('动图心电图题', {
          stemMediaFileIds: [gif.id],
          options: five('动图心电图题', { B: { mediaIds: [webp.id] } }),
        }),
      ),
    );
    const group = await approved(
      await create(questions, {
        categoryId,
        questionType: 'case_group',
        medicalFormat: 'A3',
        stem: '男，60岁，咳嗽2个月，CT如下。',
        stemMediaFileIds: [broken.id],
        children: [
          { stem: '最可能的诊断是', stemMediaFileIds: [itemWebp.id], options: five('诊断'), answer: ['A'] },
          { stem: '下一步检查是', options: five('检查'), answer: ['B'] },
        ],
      }),
    );
    const paper = await create(papers, {
      code: 'IMG-GIF',
      title: '动图与 WebP',
      purpose: 'department_exit',
      composeMode: 'manual',
      passScore: 1,
      durationMinutes: 30,
      sections: [
        {
          title: 'A',
          slots: [
            { questionId: shown, score: 2 },
            { questionId: group, score: 4 },
          ],
        },
      ],
    });
    const published = await call('POST', `${papers}/${paper.id}/publish`, { version: paper.version });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const exported = async (kind: 'word' | 'pdf', answers: boolean) => {
      const res = await s.api.fetch('GET', `${papers}/${paper.id}/export-${kind}?answers=${answers}`, {
        token: s.demo,
        headers: { 'accept-language': 'en-US' },
      });
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    for (const answers of [false, true]) {
      // Word: the three images as PNG entries of word/media, of their own sizes; the broken one named by a line
      const zip = await JSZip.loadAsync(await exported('word', answers));
      const media = Object.keys(zip.files).filter((name) => /^word\/media\/.+/.test(name));
      const pngs = await Promise.all(
        media.map(async (name) => Buffer.from(await (zip.file(name) as JSZip.JSZipObject).async('uint8array'))),
      );
      expect(pngs.map((data) => data.subarray(0, 8).toString('hex'))).toEqual(media.map(() => '89504e470d0a1a0a'));
      expect(pngs.map(pngSize).sort()).toEqual([
        [3, 9],
        [5, 7],
        [6, 4],
      ]);
      const text = await (zip.file('word/document.xml') as JSZip.JSZipObject).async('string');
      expect(text.split('[image not embedded: see it online]')).toHaveLength(2);
      // PDF: an image XObject for each of the three
      expect(pdfImages(await exported('pdf', answers))).toEqual(['3x9', '5x7', '6x4']);
    }
  });

  it("counts a converted image's PNG bytes, not its stored ones, towards a document's total", async () => {
    const source = await drawn('gif', 40, 30);
    const converted = (await toEmbedded(source, 'image/gif'))?.data as Buffer;
    expect(converted.length).toBeGreaterThan(source.length);
    const [gif, png] = [await uploaded('wave.gif', source), await uploaded('scan.png', PNG)];
    const tenant = await s.api.db
      .selectFrom('tenant')
      .select('id')
      .where('code', '=', 'demo')
      .executeTakeFirstOrThrow();
    const read = (maxTotal: number) =>
      s.api.server.services.files.contents(String(tenant.id), [gif.id, png.id], { ...EMBEDDED_LIMITS, maxTotal });
    const both = await read(converted.length + PNG.length);
    expect([...both.entries()].map(([id, f]) => [id, f.mime, f.data.length])).toEqual([
      [gif.id, 'image/png', converted.length],
      [png.id, 'image/png', PNG.length],
    ]);
    // room for the GIF's stored bytes and the PNG, not for what the GIF became and the PNG: the PNG is left out
    expect([...(await read(converted.length + PNG.length - 1)).keys()]).toEqual([gif.id]);
    // no room for what the GIF became: the PNG still fits
    expect([...(await read(converted.length - 1)).keys()]).toEqual([png.id]);
  });

  it('lets go of an image a draft dropped (no version shows it), and holds those of each version added after', async () => {
    const [first, second, third] = [
      await uploaded('d1.png', PNG),
      await uploaded('d2.png', PNG2),
      await uploaded('d3.png', PNG),
    ];
    const made = await create(questions, choice('草稿影像题', { stemMediaFileIds: [first.id, second.id] }));
    const held = async () =>
      (await call('GET', `${questions}/${made.id}/attachments`)).body.map((a: Json) => a.id).sort();
    // a draft's save replaces its only version: the image dropped is let go
    const draft = await call('PUT', `${questions}/${made.id}`, { stemMediaFileIds: [first.id], version: made.version });
    expect(draft.body.currentVersion).toBe(1);
    expect(await held()).toEqual([first.id]);
    expect(await fileOf(second.id)).toMatchObject({ bizType: null, bizId: null });
    // once ready, each save adds a version: what the versions show stays held
    const sent = await call('POST', `${questions}/${made.id}/submit`, { version: draft.body.version });
    const ready = await call(
      'POST',
      `${questions}/${made.id}/review`,
      { decision: 'approve', version: sent.body.version },
      reviewer,
    );
    const v2 = await call('PUT', `${questions}/${made.id}`, {
      stemMediaFileIds: [second.id],
      version: ready.body.version,
    });
    const v3 = await call('PUT', `${questions}/${made.id}`, { stemMediaFileIds: [third.id], version: v2.body.version });
    expect(v3.body.currentVersion).toBe(3);
    expect(await held()).toEqual([first.id, second.id, third.id].sort());
  });

  it("lets a deleted question's images go", async () => {
    const image = await uploaded('gone.png', PNG);
    const made = await create(questions, choice('将被删除的影像题', { stemMediaFileIds: [image.id] }));
    expect((await call('DELETE', `${questions}/${made.id}`)).status).toBe(204);
    expect(await fileOf(image.id)).toMatchObject({ bizType: null, bizId: null });
  });
});
