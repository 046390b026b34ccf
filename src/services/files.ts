import type { FileLink, PresignAnswer, StoredFile, UploadPolicy } from '@server/modules/file/file/file.resource';
import { getLocale } from '@umijs/max';
import type { z } from 'zod';
import { DEFAULT_TOKEN_TYPE } from '@/constants';
import request, { errorMessage, showError } from '@/utils/request';
import { getRootState } from '@/utils/store';

export type { FileLink, StoredFile };
export type UploadPolicyAnswer = z.infer<typeof UploadPolicy>;
type Presigned = z.infer<typeof PresignAnswer>;

const base = '/api/file/file';

/** Where uploads go now (straight to S3 or through the server), and what they may be. */
export const fetchUploadPolicy = () => request.get<UploadPolicyAnswer>(`${base}/upload-policy`);

/** A signed link to the file that needs no Authorization header: an img, iframe or video source, or a download. */
export const fileLink = (id: string, inline: boolean) =>
  request.get<FileLink>(`${base}/${id}/link`, { params: { disposition: inline ? 'inline' : 'attachment' } });

export interface UploadOptions {
  /** `library`: kept in the file list; `attachment`: for a record about to be saved. */
  purpose: 'library' | 'attachment';
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

/** An upload the server (or the store) refused; its message is already on screen. */
export class UploadError extends Error {
  constructor(
    message: string,
    public readonly status: number,
    public readonly code?: string,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * Sends `body` with XMLHttpRequest, the one browser API that reports upload progress. A failure is shown the way the
 * request layer shows one (the body's message first, else the catalogue's) and rejected as an UploadError.
 */
function send<T>(
  method: string,
  url: string,
  body: Blob,
  headers: Record<string, string>,
  { onProgress, signal }: Omit<UploadOptions, 'purpose'>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total) onProgress?.(Math.round((event.loaded / event.total) * 100));
    };
    const fail = (status: number, answer: unknown) => {
      const message = errorMessage(status, answer, getLocale(), getRootState().errCodes);
      showError(message);
      reject(new UploadError(message, status, (answer as { code?: string } | undefined)?.code));
    };
    xhr.onload = () => {
      const answer = parse(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(answer as T);
      else fail(xhr.status, answer);
    };
    xhr.onerror = () => fail(0, undefined);
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    if (signal?.aborted) xhr.abort();
    else xhr.send(body);
  });
}

/** What the request layer sends with every call: the signed-in user's token and the language. */
function authHeaders(): Record<string, string> {
  const headers: Record<string, string> = { 'Accept-Language': getLocale() };
  const { token } = getRootState();
  if ('accessToken' in token && token.accessToken) {
    headers.Authorization = `${token.type || DEFAULT_TOKEN_TYPE} ${token.accessToken}`;
  }
  return headers;
}

/** The request layer has shown why a JSON call failed; the caller gets an Error that says it. */
const asError = (error: unknown): Error => {
  const answer = (error as { data?: { message?: unknown } }).data;
  return typeof answer?.message === 'string' ? new Error(answer.message) : (error as Error);
};

/**
 * Uploads one file where the policy says (asked on each call, so a token refreshed by that call is the one sent):
 * straight to the S3 store (presign, PUT, complete) or through the server (the raw bytes as the body), reporting the
 * percent sent.
 */
export async function uploadFile(file: File, { purpose, onProgress, signal }: UploadOptions): Promise<StoredFile> {
  const policy = await fetchUploadPolicy().catch((error) => Promise.reject(asError(error)));
  const contentType = file.type || 'application/octet-stream';
  if (!policy.direct) {
    const query = new URLSearchParams({ name: file.name, purpose });
    return send<StoredFile>(
      'POST',
      `${base}/upload?${query}`,
      file,
      { ...authHeaders(), 'Content-Type': contentType },
      { onProgress, signal },
    );
  }
  const presigned = await request
    .post<Presigned>(`${base}/presign`, { data: { name: file.name, size: file.size, contentType, purpose } })
    .catch((error) => Promise.reject(asError(error)));
  await send<unknown>(presigned.method, presigned.url, file, presigned.headers, { onProgress, signal });
  return request
    .post<StoredFile>(`${base}/${presigned.fileId}/complete`)
    .catch((error) => Promise.reject(asError(error)));
}
