import { vi } from 'vitest';

export interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

type Handler = (call: Call) => { status?: number; body?: unknown } | undefined;

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
  });

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
        const answer = handler(call);
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
