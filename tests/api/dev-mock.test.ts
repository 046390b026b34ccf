import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import mock from '../../mock/api';

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

interface FakeRequest {
  method: string;
  url: string;
  json?: unknown;
  /** Umi's body parser already read the stream and left the object on req.body. */
  parsed?: boolean;
}

async function call({ method, url, json, parsed }: FakeRequest) {
  const stream = new PassThrough();
  const req = Object.assign(stream, {
    method,
    url,
    originalUrl: url,
    headers: { host: 'localhost:8000', ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(parsed ? { body: json, _body: true } : {}),
  });
  if (parsed || json === undefined) stream.end();
  else stream.end(JSON.stringify(json));

  const headers: Record<string, string> = {};
  let body = '';
  const res = {
    statusCode: 200,
    setHeader: (name: string, value: string) => {
      headers[name] = value;
    },
    end: (chunk?: Buffer) => {
      body = chunk ? chunk.toString('utf8') : '';
    },
  };
  const handlers = mock as Record<string, Handler | undefined>;
  const handler = handlers[`${method} ${url}`] ?? handlers[`${method} /api/(.*)`];
  if (!handler) throw new Error(`no mock handler for ${method} ${url}`);
  await handler(req as unknown as IncomingMessage, res as unknown as ServerResponse);
  return { status: res.statusCode, headers, body: body ? JSON.parse(body) : undefined };
}

const signIn = {
  grant_type: 'password',
  tenant: 'demo',
  username: 'admin',
  password: 'admin123',
  client_id: 'console',
};

describe('the dev mock (npm run dev) mounts the real API on demo data', () => {
  it('registers every method for /api and /api/*', () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(mock).toHaveProperty(`${method} /api`);
      expect(mock).toHaveProperty([`${method} /api/(.*)`]);
    }
  });

  it('answers with the real API: health, then sign-in with a body Umi already parsed', async () => {
    expect(await call({ method: 'GET', url: '/api/health' })).toMatchObject({ status: 200, body: { status: 'ok' } });
    const answer = await call({ method: 'POST', url: '/api/auth/token', json: signIn, parsed: true });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ token_type: 'bearer' });
    expect(answer.body.access_token).toEqual(expect.any(String));
  });

  it('reads a body that is still in the stream, and passes errors through unchanged', async () => {
    const answer = await call({ method: 'POST', url: '/api/auth/token', json: { ...signIn, password: 'wrong' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ family: 'CLIENT_ERROR', code: 'auth.badCredentials' });
  });

  it('answers an unknown path under /api with the JSON 404, not the console page', async () => {
    const answer = await call({ method: 'POST', url: '/api' });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'common.notFound' });
  });
});
