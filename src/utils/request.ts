/**
 * THE request layer (spec.md §7–§8): one umi-request instance, every failure handled here.
 * Pages never catch errors just to show them.
 */
import type { FieldError } from '@server/core/errors';
import type { ErrorBody as ApiErrorBody } from '@server/core/openapi';
import type { TokenResponse } from '@server/modules/auth/auth.schema';
import { getLocale, history } from '@umijs/max';
import { extend, type RequestOptionsInit } from 'umi-request';
import type { z } from 'zod';
import {
  DEFAULT_TOKEN_TYPE,
  ERROR_BATCH_DELAY_MS,
  LOGIN_PATH,
  OAUTH_CLIENT_ID,
  REQUEST_TIMEOUT_MS,
  UNAUTHORIZED_REDIRECT_DELAY_MS,
} from '@/constants';
import type { RootActionType, RootState, Token } from '@/models/root';
import { text } from '@/utils/i18n';
import message from '@/utils/message';
import { dispatchRoot, getRootState } from '@/utils/store';

export interface RequestDeps {
  getState: () => Pick<RootState, 'token' | 'errCodes'>;
  dispatch: (type: RootActionType, payload: unknown) => void;
  /** Shows one error message; the notifier keeps one visible at a time. */
  notify: (message: string) => void;
  navigate: (path: string) => void;
  /** Current page path (the hash route), part of the de-duplication key. */
  getPagePath: () => string;
  getLocale: () => string;
  setTimeout?: typeof setTimeout;
  clearTimeout?: typeof clearTimeout;
  /** A new idempotency key (a random UUID by default). */
  newKey?: () => string;
}

export interface Options extends RequestOptionsInit {
  /** Leave the error to the caller: no message, no 401 flow (used by the refresh call itself). */
  skipErrorHandler?: boolean;
  /** Do not send the Authorization header. */
  skipAuth?: boolean;
  /** A form that shows a 400's `fields` on its own fields; true: all were placed, so no message is shown. */
  placeFieldErrors?: (fields: FieldError[]) => boolean;
  /** Statuses the caller answers on screen itself (a profile's "not found"): no message for them. */
  shownByCaller?: number[];
  /** The place on screen of a refused field the caller can name ("第 1 部分第 1 条规则"), for its message. */
  nameField?: (field: string) => string | undefined;
  /** The `Idempotency-Key` of a POST, when the caller keeps one across its own repeats; else one per request. */
  idempotencyKey?: string;
}

export type { FieldError };

/** The API's error body, or the older shape spec.md §8 also names (`timestamp`, `status`, `error`). */
export type ErrorBody = Partial<z.infer<typeof ApiErrorBody>> & {
  timestamp?: string;
  status?: number;
  error?: string;
  success?: boolean;
};

/** A 2xx body with `success: false`: an error, handled by doing nothing (spec.md §7). */
export class BusinessError extends Error {
  constructor(public readonly data: unknown) {
    super('success === false');
    this.name = 'BusinessError';
  }
}

export const isErrorBody = (body: unknown): body is ErrorBody =>
  typeof body === 'object' &&
  body !== null &&
  (('family' in body && 'code' in body) || ('timestamp' in body && 'status' in body && 'error' in body)) &&
  'message' in body;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
/** What umi-request rejects with (a time-out's `type`, the `response`, the error body as `data`), as fields. */
const failureOf = (error: unknown): Record<string, unknown> => (isObject(error) ? error : {});

/** Status of a failure: HTTP status, 504 for the client-side time-out, 0 when nothing came back. */
export function statusOf(error: unknown): number {
  const { type, response, data } = failureOf(error);
  if (type === 'Timeout') return 504;
  const status = [response, data].map((part) => (isObject(part) ? part.status : undefined));
  return status.find((s): s is number => typeof s === 'number') ?? 0;
}

const CATALOGUED = new Set([401, 404, 500, 504]);

/**
 * The user-visible message of spec.md §8: the body's message first — whatever the body's shape, as "when the body
 * has a message, that message is preferred" says — then the catalogue.
 */
export function errorMessage(
  status: number,
  body: unknown,
  locale: string,
  errCodes: RootState['errCodes'] = [],
): string {
  const bodyMessage = typeof body === 'object' && body !== null ? (body as ErrorBody).message : undefined;
  if (typeof bodyMessage === 'string' && bodyMessage.trim()) return bodyMessage;
  if (typeof body === 'object' && body !== null && typeof (body as ErrorBody).code === 'string') {
    const known = errCodes.find((e) => e.code === (body as ErrorBody).code);
    if (known) return locale === 'en-US' ? known.messageEn : known.messageZh;
  }
  if (CATALOGUED.has(status)) return text(locale, `request.error.${status}` as 'request.error.401');
  return text(locale, 'request.error.other', { status });
}

/** The top-level field of a JSON body whose value is the longest as JSON (none for a form of parts or no body). */
export function largestField(data: unknown): string | undefined {
  if (!isObject(data) || isFormData(data)) return undefined;
  let largest: [string, number] | undefined;
  for (const [field, value] of Object.entries(data)) {
    const size = JSON.stringify(value ?? null).length;
    if (!largest || size > largest[1]) largest = [field, size];
  }
  return largest?.[0];
}

/**
 * A 400 that no form placed on its fields (a refused action: publish, assign…) says why: each field's reason that
 * the message does not already say (at most three), at the place `nameField` gives it ("第 1 部分第 1 条规则"), never
 * at its API path; after the message, unless that is only the generic "invalid request" the reasons explain.
 */
export function withReasons(
  message: string,
  body: ErrorBody,
  locale: string,
  nameField: (field: string) => string | undefined = () => undefined,
): string {
  if (!Array.isArray(body.fields)) return message;
  const [colon, semicolon] = locale === 'en-US' ? [': ', '; '] : ['：', '；'];
  const reasons = (body.fields as FieldError[])
    .filter((f) => isObject(f) && typeof f.message === 'string' && f.message && f.message !== message)
    .slice(0, 3)
    .map((f) => {
      const place = typeof f.field === 'string' ? nameField(f.field) : undefined;
      return place ? `${place}${colon}${f.message}` : f.message;
    });
  if (!reasons.length) return message;
  return body.code === 'common.validation' ? reasons.join(semicolon) : `${message} — ${reasons.join(semicolon)}`;
}

/** A Blob of whichever realm answered (the browser's, or the test runner's fetch). */
const isBlob = (value: unknown): value is Blob =>
  isObject(value) && typeof value.text === 'function' && typeof value.size === 'number';

/** The JSON error body of a request that asked for a file (a blob): the reason of a refused download. */
async function readBlobBody(error: unknown): Promise<void> {
  if (!isObject(error) || !isBlob(error.data)) return;
  error.data = await error.data
    .text()
    .then((text) => JSON.parse(text) as unknown)
    .catch(() => undefined);
}

/** 128 random bits in hex: `crypto.randomUUID` exists only on secure pages, and a hospital may serve over plain HTTP. */
const randomKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

const isFormData = (value: unknown) => typeof FormData !== 'undefined' && value instanceof FormData;

/** De-duplication key: status + URL + page path; a 500 only counts status + page. */
export const dedupeKey = (status: number, url: string, pagePath: string) =>
  status === 500 ? `500|${pagePath}` : `${status}|${url.split('?')[0]}|${pagePath}`;

export function createRequest(deps: RequestDeps) {
  const later = deps.setTimeout ?? setTimeout;
  const cancel = deps.clearTimeout ?? clearTimeout;
  const newKey = deps.newKey ?? randomKey;

  const client = extend({
    timeout: REQUEST_TIMEOUT_MS,
    errorHandler: (error) => {
      throw error;
    },
  });

  client.interceptors.request.use(
    (url, options: Options) => {
      const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
      headers['Accept-Language'] = deps.getLocale();
      const token = deps.getState().token as Partial<Token>;
      if (token?.accessToken && !options.skipAuth) {
        headers.Authorization = `${token.type || DEFAULT_TOKEN_TYPE} ${token.accessToken}`;
      }
      return { url, options: { ...options, headers } };
    },
    { global: false },
  );

  client.interceptors.response.use(
    async (response) => {
      if (response.ok && (response.headers.get('content-type') ?? '').includes('json')) {
        const body = await response
          .clone()
          .json()
          .catch(() => undefined);
        if (body && typeof body === 'object' && (body as { success?: unknown }).success === false) {
          throw new BusinessError(body);
        }
      }
      return response;
    },
    { global: false },
  );

  // --- messages: de-duplicated, batched 100 ms after the last, one visible at a time ---
  const pendingKeys = new Set<string>();
  const pendingTexts: string[] = [];
  let batchTimer: ReturnType<typeof setTimeout> | undefined;

  function enqueue(key: string, message: string) {
    if (pendingKeys.has(key)) return;
    pendingKeys.add(key);
    if (!pendingTexts.includes(message)) pendingTexts.push(message);
    if (batchTimer !== undefined) cancel(batchTimer);
    batchTimer = later(() => {
      batchTimer = undefined;
      const batch = pendingTexts.splice(0).join('；');
      pendingKeys.clear();
      deps.notify(batch);
    }, ERROR_BATCH_DELAY_MS);
  }

  // --- the 401 flow ---
  let redirectTimer: ReturnType<typeof setTimeout> | undefined;
  let refreshing: Promise<boolean> | undefined;

  function endSession() {
    deps.dispatch('SET_TOKEN', {});
    if (redirectTimer !== undefined) return;
    redirectTimer = later(() => {
      redirectTimer = undefined;
      deps.navigate(LOGIN_PATH);
    }, UNAUTHORIZED_REDIRECT_DELAY_MS);
  }

  /** One refresh for every 401 that arrives while it runs. */
  function refreshOnce(): Promise<boolean> {
    const token = deps.getState().token as Partial<Token>;
    if (!token?.refreshToken) return Promise.resolve(false);
    refreshing ??= client
      .post('/api/auth/token', {
        data: { grant_type: 'refresh_token', refresh_token: token.refreshToken, client_id: OAUTH_CLIENT_ID },
        skipAuth: true,
      } as Options)
      .then((answer: TokenResponse) => {
        deps.dispatch('SET_TOKEN', {
          accessToken: answer.access_token,
          refreshToken: answer.refresh_token,
          type: answer.token_type || DEFAULT_TOKEN_TYPE,
        });
        return true;
      })
      .catch(() => false)
      .finally(() => {
        refreshing = undefined;
      });
    return refreshing;
  }

  /** What the user is told of a failure: the message of spec.md §8, with the reasons of a refused request. */
  function reasonOf(error: unknown, options: Pick<Options, 'nameField'> = {}): string {
    const status = statusOf(error);
    const body = failureOf(error).data;
    const shown = errorMessage(status, body, deps.getLocale(), deps.getState().errCodes);
    return status === 400 && isObject(body) ? withReasons(shown, body, deps.getLocale(), options.nameField) : shown;
  }

  function handle(error: unknown, url: string, options: Options): void {
    if (error instanceof BusinessError) return;
    const status = statusOf(error);
    const body = failureOf(error).data;
    const fields = isObject(body) ? (body as ErrorBody).fields : undefined;
    if (status === 400 && Array.isArray(fields) && fields.length && options.placeFieldErrors?.(fields)) return;
    if (options.shownByCaller?.includes(status)) return;
    // a body over the server's limit: the form shows it on its largest field, which is what made it too large
    const largest = status === 413 ? largestField(options.data) : undefined;
    if (largest) options.placeFieldErrors?.([{ field: largest, message: reasonOf(error, options) }]);
    enqueue(dedupeKey(status, url, deps.getPagePath()), reasonOf(error, options));
    if (status === 401) endSession();
  }

  /**
   * A submit (a POST with a JSON body, as every create is) carries an `Idempotency-Key`: the server answers a repeat of
   * it (its replay after a refreshed sign-in, a network retry) with the first result rather than creating again. An
   * upload (a form of parts) is not keyed: the server streams it and ignores the key.
   */
  function keyed(options: Options): Options {
    if (options.method?.toUpperCase() !== 'POST' || options.skipAuth || isFormData(options.data)) return options;
    const key = options.idempotencyKey ?? newKey();
    return { ...options, headers: { ...(options.headers as Record<string, string>), 'Idempotency-Key': key } };
  }

  /**
   * Submits still waiting for their answer, by URL and body: a second click on a form that has not answered yet (a
   * double click) is the same submit, and waits for the same answer rather than sending it again.
   */
  const submitting = new Map<string, Promise<unknown>>();

  function request<T = unknown>(url: string, given: Options = {}): Promise<T> {
    const options = keyed(given);
    if (options === given) return send<T>(url, options);
    const same = `${url}?${JSON.stringify(options.params ?? null)}\n${JSON.stringify(options.data ?? null)}`;
    const pending = submitting.get(same);
    if (pending) return pending as Promise<T>;
    const sent = send<T>(url, options).finally(() => submitting.delete(same));
    submitting.set(same, sent);
    return sent;
  }

  async function send<T>(url: string, options: Options): Promise<T> {
    try {
      return await client<T>(url, options);
    } catch (error) {
      await readBlobBody(error);
      if (options.skipErrorHandler) throw error;
      if (statusOf(error) === 401 && (await refreshOnce())) {
        try {
          return await client<T>(url, options);
        } catch (retryError) {
          await readBlobBody(retryError);
          handle(retryError, url, options);
          throw retryError;
        }
      }
      handle(error, url, options);
      throw error;
    }
  }

  const withMethod =
    (method: string) =>
    <T = unknown>(url: string, options: Options = {}) =>
      request<T>(url, { ...options, method });

  return Object.assign(request, {
    get: withMethod('GET'),
    post: withMethod('POST'),
    put: withMethod('PUT'),
    delete: withMethod('DELETE'),
    reasonOf,
    client,
  });
}

export type Request = ReturnType<typeof createRequest>;

/** The notifier of the request layer: antd message, one visible at a time. */
export const showError = (content: string) => void message.error(content);

const request = createRequest({
  getState: getRootState,
  dispatch: dispatchRoot,
  notify: showError,
  navigate: (path) => history.push(path),
  getPagePath: () => history?.location.pathname ?? '',
  getLocale: () => getLocale(),
});

export default request;

/** For hooks that log failures themselves (ahooks useRequest): the request layer already showed it. */
export const ignoreShownError = () => undefined;
