import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { localStore } from './local';
import { s3Store } from './s3';

export interface StoredObject {
  size: number;
  contentType?: string;
}

export interface S3Settings {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  pathStyle: boolean;
  basePath?: string;
  publicDomain?: string;
}

export type StorageSettings =
  | { provider: 'local'; root: string; basePath?: string }
  | ({ provider: 's3' } & S3Settings);

export interface ObjectStore {
  /**
   * Streams `body` to `key` (never buffering the whole object: a 100 MB upload keeps memory flat). Answers the bytes
   * written.
   */
  put(key: string, body: Readable, contentType?: string): Promise<{ size: number }>;
  /**
   * The object's bytes as a stream, or undefined when it does not exist. Optional byte range (for video seeking):
   * {start, end} inclusive.
   */
  get(key: string, range?: { start: number; end?: number }): Promise<Readable | undefined>;
  head(key: string): Promise<StoredObject | undefined>;
  /** Deleting what is not there is not an error. */
  delete(key: string): Promise<void>;
  /**
   * S3 only: a presigned PUT URL the browser uploads to directly (expires in `expiresInSec`), with the headers it must
   * send. Local: undefined.
   */
  presignPut?(
    key: string,
    contentType: string,
    expiresInSec: number,
  ): Promise<{ url: string; headers: Record<string, string> }>;
  /**
   * S3 only: a presigned GET URL (expires in `expiresInSec`), with Content-Disposition for the given file name
   * (RFC 5987 encoded, so Chinese names survive).
   */
  presignGet?(key: string, expiresInSec: number, downloadName?: string, inline?: boolean): Promise<string>;
  /**
   * Put, get and delete a small probe object; throws an Error whose message says what failed (e.g. "put: Access
   * Denied").
   */
  probe(): Promise<void>;
}

export function objectStore(settings: StorageSettings): ObjectStore {
  const store = settings.provider === 'local' ? localStore(settings.root, settings.basePath) : s3Store(settings);
  return { ...store, probe: () => probe(store) };
}

/**
 * A Content-Disposition naming `fileName`: a plain ASCII `filename` for old clients and an RFC 5987 `filename*`
 * that carries the real (e.g. Chinese) name. Shared by presigned S3 URLs and the API's own downloads.
 */
export function contentDisposition(fileName: string, inline = false): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${inline ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

const PROBE_BYTES = Buffer.from('medu storage probe');

async function probe(store: Omit<ObjectStore, 'probe'>): Promise<void> {
  const key = `.probe/${randomUUID()}`;
  await step('put', () => store.put(key, Readable.from([PROBE_BYTES]), 'text/plain'));
  await step('get', async () => {
    const body = await store.get(key);
    if (!body) throw new Error('the object just written is missing');
    if (!Buffer.concat(await body.toArray()).equals(PROBE_BYTES)) throw new Error('read back other bytes than written');
  });
  await step('delete', () => store.delete(key));
}

async function step(name: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (err) {
    throw new Error(`${name}: ${err instanceof Error ? err.message || err.name : String(err)}`, { cause: err });
  }
}
