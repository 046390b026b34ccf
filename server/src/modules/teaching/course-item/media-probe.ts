import type { ObjectStore } from '../../file/storage/object-store';

/** music-metadata is ESM only: imported when first needed, as file-type is (../../file/storage/sniff.ts). */
let musicMetadata: Promise<typeof import('music-metadata')> | undefined;

/** Bytes are fetched from the store in blocks of this size, the last few of them kept. */
const BLOCK = 64 * 1024;
const KEPT_BLOCKS = 16;
/** A parser asking for more than this at once is reading a box no media header needs: the file is refused. */
const MAX_READ = 16 * 1024 * 1024;

/** Why a file is not usable media: the console names each. */
export type MediaFailure = 'missing' | 'storage' | 'notMedia' | 'unreadable' | 'noDuration';
export type MediaProbe = { ok: true; durationSec: number } | { ok: false; error: MediaFailure; detail: string | null };

class Failure extends Error {
  constructor(
    readonly code: MediaFailure,
    message: string,
  ) {
    super(message);
  }
}

type Read = (start: number, end: number) => Promise<Buffer>;

/**
 * Byte ranges `[start, end)` of a stored object, read by range from its store: a parser skipping a video's frames
 * reads only the headers around them, whatever the object's size, and never holds more than a few blocks.
 */
function rangesOf(store: ObjectStore, key: string, size: number): Read {
  const blocks = new Map<number, Promise<Buffer>>();
  const fetch = async (start: number, end: number) => {
    const body = await store.get(key, { start, end: end - 1 }).catch((err: unknown) => {
      throw new Failure('storage', err instanceof Error ? err.message : String(err));
    });
    if (!body) throw new Failure('missing', key);
    const bytes = Buffer.concat(await body.toArray());
    return bytes.subarray(0, end - start);
  };
  const block = (n: number) => {
    let kept = blocks.get(n);
    if (kept) blocks.delete(n);
    else kept = fetch(n * BLOCK, Math.min(size, (n + 1) * BLOCK));
    blocks.set(n, kept);
    if (blocks.size > KEPT_BLOCKS) blocks.delete(blocks.keys().next().value as number);
    return kept;
  };
  return async (start, end) => {
    end = Math.min(end, size);
    if (end <= start) return Buffer.alloc(0);
    if (end - start > MAX_READ) throw new Failure('unreadable', `a header of ${end - start} bytes`);
    const first = Math.floor(start / BLOCK);
    const last = Math.floor((end - 1) / BLOCK);
    if (last - first > 2) return fetch(start, end);
    const parts: Buffer[] = [];
    for (let n = first; n <= last; n++) parts.push(await block(n));
    const offset = start - first * BLOCK;
    return Buffer.concat(parts).subarray(offset, offset + end - start);
  };
}

/** The object as the Blob a parser reads (its `slice` read by range when the parser asks for it). */
function blobOf(read: Read, size: number, type: string): Blob {
  const slice = (start = 0, end = size) => ({
    arrayBuffer: async () => {
      const bytes = await read(start, end);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    },
  });
  return { size, type, slice } as unknown as Blob;
}

/**
 * The length of an ISO media file (MP4, MOV) from its movie header (`moov`/`mvhd`), wherever the `moov` sits: the
 * parser gives the length of an audio track only, and a lecture recorded without sound has none.
 */
async function movieSeconds(read: Read, size: number): Promise<number | undefined> {
  const box = async (at: number) => {
    const head = await read(at, at + 16);
    if (head.length < 8) return undefined;
    const declared = head.readUInt32BE(0);
    const type = head.toString('latin1', 4, 8);
    if (declared === 1 && head.length === 16)
      return { type, start: at + 16, end: at + Number(head.readBigUInt64BE(8)) };
    if (declared === 0) return { type, start: at + 8, end: size };
    return declared >= 8 ? { type, start: at + 8, end: at + declared } : undefined;
  };
  const find = async (type: string, from: number, to: number) => {
    for (let at = from, n = 0; at + 8 <= to && n < 10_000; n++) {
      const found = await box(at);
      if (!found || found.end <= at) return undefined;
      if (found.type === type) return found;
      at = found.end;
    }
    return undefined;
  };
  const moov = await find('moov', 0, size);
  const mvhd = moov && (await find('mvhd', moov.start, moov.end));
  if (!mvhd) return undefined;
  const h = await read(mvhd.start, Math.min(mvhd.end, mvhd.start + 32));
  const v1 = h[0] === 1;
  if (h.length < (v1 ? 32 : 20)) return undefined;
  const timescale = h.readUInt32BE(v1 ? 20 : 12);
  const duration = v1 ? Number(h.readBigUInt64BE(24)) : h.readUInt32BE(16);
  // all ones: the length is not known
  if (!timescale || duration === 0xffffffff) return undefined;
  return duration / timescale;
}

/**
 * Reads a stored file's container (MP4, MOV, WebM, Matroska, MP3, M4A, Ogg, WAV, ...) for its length in seconds,
 * reading by range only what the headers take. A file that is not media, or whose container cannot be read or says
 * no length, answers why.
 */
export async function probeMedia(store: ObjectStore, key: string, size: number, mime: string): Promise<MediaProbe> {
  const read = rangesOf(store, key, size);
  try {
    musicMetadata ??= import('music-metadata');
    const { parseBlob } = await musicMetadata;
    const meta = await parseBlob(blobOf(read, size, mime), {
      duration: false,
      skipCovers: true,
      skipPostHeaders: true,
    });
    const seconds = meta.format.duration ?? (await movieSeconds(read, size));
    if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0)
      return { ok: false, error: 'noDuration', detail: meta.format.container ?? null };
    return { ok: true, durationSec: Math.max(1, Math.round(seconds)) };
  } catch (err) {
    if (err instanceof Failure) return { ok: false, error: err.code, detail: err.message.slice(0, 500) };
    const { name, message } = err instanceof Error ? err : { name: '', message: String(err) };
    const notMedia = name === 'UnsupportedFileTypeError' || name === 'CouldNotDetermineFileTypeError';
    return { ok: false, error: notMedia ? 'notMedia' : 'unreadable', detail: message.slice(0, 500) };
  }
}
