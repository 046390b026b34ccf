/** What a store is to the file service, whatever keeps the bytes (storage.ts makes one from its settings). */
import type { Readable } from 'node:stream';
import type { OutboundGuard } from '../../../core/outbound';

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
  /** The guard of the configuration's owner: every connection to the endpoint goes through it (core/outbound.ts). */
  outbound: OutboundGuard;
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
