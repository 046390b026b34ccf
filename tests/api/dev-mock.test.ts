import { readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * The mock as Umi loads it (`npm run dev`): required through Umi's esbuild hook, not through vite, whose resolution
 * differs (Node's `require('./x')` tries `x.json` before `x.ts`, vite the other way round).
 */
function loadAsUmiDoes(): Record<string, Handler> {
  const { getMockData } = createRequire(import.meta.url)('@umijs/preset-umi/dist/features/mock/getMockData');
  const mocks: Record<string, { handler: Handler }> = getMockData({
    cwd: path.resolve(__dirname, '../..'),
    mockConfig: {},
  });
  return Object.fromEntries(Object.entries(mocks).map(([key, { handler }]) => [key, handler]));
}

const mock = loadAsUmiDoes();

interface FakeRequest {
  method: string;
  url: string;
  json?: unknown;
  /** Umi's body parser already read the stream and left the object on req.body. */
  parsed?: boolean;
  token?: string;
}

async function call({ method, url, json, parsed, token }: FakeRequest) {
  const stream = new PassThrough();
  const req = Object.assign(stream, {
    method,
    url,
    originalUrl: url,
    headers: {
      host: 'localhost:8000',
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `bearer ${token}` } : {}),
    },
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
  const handler = mock[`${method} ${url}`] ?? mock[`${method} /api/(.*)`];
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
    const list = await call({
      method: 'GET',
      url: '/api/system/role?current=1&pageSize=5',
      token: answer.body.access_token,
    });
    expect(list).toMatchObject({ status: 200, body: { success: true } });
    expect(list.body.total).toBeGreaterThan(0);
  }, 180_000);

  it('has no data file that Node would load in place of a module of the same name (x.json beside x.ts)', () => {
    const root = path.resolve(__dirname, '../..');
    const files = ['server/src', 'mock'].flatMap((dir) =>
      readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).map((file) => path.join(dir, file)),
    );
    const modules = new Set(files.filter((file) => /\.tsx?$/.test(file)).map((file) => file.replace(/\.tsx?$/, '')));
    expect(files.filter((file) => file.endsWith('.json') && modules.has(file.slice(0, -'.json'.length)))).toEqual([]);
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
