import { serve } from '@hono/node-server';
import type { DatabaseOptions } from '../../server/src/db/database';
import { type ApiServer, createServer } from '../../server/src/server';
import { freePort } from '../e2e/global-setup';
import { signInDemoAdmin } from './demo-sign-in';
import { fetchOnce } from './measure';

/** The key of ID numbers every bench server runs with. */
export const BENCH_KEY = Buffer.alloc(32, 7);

export interface BenchApi {
  server: ApiServer;
  /** The API's address (`http://127.0.0.1:<port>`) and the administrator's access token. */
  base: string;
  token: string;
  /** The API as the demo tenant's administrator: the answer's JSON, or an error naming the call and its answer. */
  // biome-ignore lint/suspicious/noExplicitAny: the answers are the API's, read by the bench as it knows them
  call: (method: string, path: string, body?: unknown) => Promise<any>;
}

/**
 * `run` with the API of a fresh server (the demo tenant seeded, with its demo content when asked; sign-ins unlimited,
 * the bench's key of ID numbers; its files under `dataDir` when given) on
 * a free loopback port, signed in as the demo administrator; the server is closed after it.
 */
export async function withBenchApi<T>(
  database: DatabaseOptions,
  run: (api: BenchApi) => Promise<T>,
  options: { demoContent?: boolean; dataDir?: string } = {},
): Promise<T> {
  const server = await createServer({
    database,
    demo: true,
    demoContent: options.demoContent,
    logger: false,
    config: {
      tokenRateLimit: { windowMs: 60_000, max: 1_000_000 },
      idNumberKey: BENCH_KEY,
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    },
  });
  const port = await freePort();
  const http = serve({ fetch: server.app.fetch, port, hostname: '127.0.0.1' });
  const base = `http://127.0.0.1:${port}`;
  try {
    const token = await signInDemoAdmin(base);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetchOnce(`${base}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    return await run({ server, base, token, call });
  } finally {
    http.close();
    await server.close();
  }
}
