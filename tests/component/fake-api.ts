import { vi } from 'vitest';
import type { z } from 'zod';
import { issuesToFields } from '../../server/src/core/validation';

export interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

type Answer = { status?: number; body?: unknown } | undefined;

/** An answer, or a promise of one for a request that should stay in flight until the test lets it finish. */
type Handler = (call: Call) => Answer | Promise<Answer>;

/** One page of a list, as the API answers a list read. */
export const page = <Row>(data: Row[]) => ({
  body: { data, total: data.length, success: true, current: 1, pageSize: 10 },
});

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
  });

/**
 * A write the fake checks with the server's own schema: a body it refuses answers 400 with the server's `fields`, in
 * Chinese, as the API would.
 */
export const validatedBy =
  (schema: z.ZodType, answer: Handler): Handler =>
  (call) => {
    const parsed = schema.safeParse(call.body);
    if (parsed.success) return answer(call);
    const fields = issuesToFields(parsed.error.issues, 'zh-CN', call.body);
    return {
      status: 400,
      body: { family: 'CLIENT_ERROR', code: 'common.validation', message: '请求参数不正确', fields },
    };
  };

/** A fake of the API at the fetch boundary: the console's own request layer runs unchanged. */
export function fakeApi(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: string | Request, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input.url, 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const raw = init.body;
    const body = typeof raw === 'string' ? JSON.parse(raw) : raw;
    const call: Call = { method, path: url.pathname, query: Object.fromEntries(url.searchParams), body };
    calls.push(call);
    for (const [key, handler] of Object.entries(routes)) {
      const [m, pattern] = key.split(' ');
      if (m === method && new RegExp(`^${pattern}$`).test(url.pathname)) {
        const answer = await handler(call);
        if (answer) return json(answer.status ?? 200, answer.body);
      }
    }
    return json(404, {
      family: 'CLIENT_ERROR',
      code: 'common.notFound',
      message: `no fake for ${method} ${url.pathname}`,
    });
  });
  return { calls, find: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path) };
}
