import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';
import { AppError } from './errors';
import {
  findKey,
  type KeyedRequest,
  type KeyOwner,
  keepAnswer,
  purgeKeys,
  releaseKey,
  reserveKey,
} from './idempotency.repository';

/** How long a key answers its first result: a day, as the console's retries and a user's repeated submits need. */
export const IDEMPOTENCY_KEEP_MS = 24 * 60 * 60 * 1000;
/** A first request still running after this is taken as lost with its instance: its key may be used again. */
const ABANDONED_AFTER_MS = 10 * 60 * 1000;
/** What a key may be: a UUID, or any printable ASCII of up to 255 characters. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A POST sent with an `Idempotency-Key` header runs once per key and user: a repeat with the same request answers
 * the first result (with `Idempotent-Replayed: true`) instead of creating again, for a day. A repeat while the first
 * is still running answers 409 `common.idempotencyInProgress` (a retry once it ended gets its result); the key sent
 * with another operation or body answers 422 `common.idempotencyKeyReused`. Only a success is kept: a refused
 * request frees its key, so the corrected form may be sent again with it. An upload (multipart) is streamed to its
 * store and not read here: its key is ignored. Runs after authentication, which names the user.
 */
export function idempotent(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined || (c.req.header('content-type') ?? '').startsWith('multipart/')) return next();
    if (!IDEMPOTENCY_KEY.test(key)) throw new AppError('common.idempotencyKeyInvalid');
    const { principal, services } = c.var;
    const { tenancy, config } = services;
    const owner: KeyOwner = { tenantId: principal.tenantId, userId: principal.userId, key };
    const url = new URL(c.req.url);
    const request: KeyedRequest = {
      operation: `${c.req.method} ${url.pathname}`.slice(0, 300),
      requestHash: sha256(`${c.req.method} ${url.pathname}${url.search}\n${await c.req.text()}`),
    };
    const now = config.now();
    const kept = await tenancy.inTenant(owner.tenantId, async (tx) => {
      await purgeKeys(tx, new Date(now.getTime() - IDEMPOTENCY_KEEP_MS), new Date(now.getTime() - ABANDONED_AFTER_MS));
      return (await reserveKey(tx, owner, request, now)) ? undefined : findKey(tx, owner);
    });
    if (kept) {
      if (kept.operation !== request.operation || kept.requestHash !== request.requestHash)
        throw new AppError('common.idempotencyKeyReused');
      if (kept.status === null) throw new AppError('common.idempotencyInProgress');
      const headers: Record<string, string> = { 'idempotent-replayed': 'true' };
      if (kept.responseType) headers['content-type'] = kept.responseType;
      return kept.responseBody === null
        ? c.body(null, kept.status as 204, headers)
        : c.body(kept.responseBody, kept.status as 200, headers);
    }
    try {
      await next();
    } catch (err) {
      await tenancy.inTenant(owner.tenantId, (tx) => releaseKey(tx, owner));
      throw err;
    }
    const { status } = c.res;
    await tenancy.inTenant(owner.tenantId, async (tx) => {
      if (status < 200 || status >= 300) return releaseKey(tx, owner);
      const responseBody = status === 204 ? null : await c.res.clone().text();
      return keepAnswer(tx, owner, { status, responseType: c.res.headers.get('content-type'), responseBody });
    });
  };
}
