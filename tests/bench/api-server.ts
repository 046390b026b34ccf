/**
 * The API alone on a free loopback port, for the request-cost bench (no console build needed): a child process so
 * that the load generator does not share the server's event loop. Logs every request at `info` with production's
 * logger, into /dev/null. Seeds enough rows for a full page, signs in, and prints `{"url", "token"}` on one line.
 */

import { serve } from '@hono/node-server';
import type { DatabaseOptions } from '../../server/src/db/database';
import { createLogger } from '../../server/src/logger';
import { createServer } from '../../server/src/server';
import { freePort } from '../e2e/global-setup';
import { BENCH_KEY } from './bench-api';
import { signInDemoAdmin } from './demo-sign-in';

export const LIST_ROWS = 25;

async function main() {
  const database = JSON.parse(process.env.BENCH_DATABASE_OPTIONS ?? '') as DatabaseOptions;
  const logger = createLogger('info', '/dev/null');
  const server = await createServer({
    database,
    demo: true,
    logger,
    config: {
      tokenRateLimit: { windowMs: 60_000, max: 1_000_000 },
      idNumberKey: BENCH_KEY,
      // stored files (the file bench), else the default ./data
      ...(process.env.BENCH_DATA_DIR && { dataDir: process.env.BENCH_DATA_DIR }),
      // the file bench's s3rver listens on loopback, which a tenant may reach only when allowed
      outboundPrivateTenants: ['demo'],
    },
  });
  const demo = await server.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
  await server.services.tenancy.inTenant(demo.id, (tx) =>
    tx
      .insertInto('admin_user')
      .values(
        Array.from({ length: LIST_ROWS }, (_, i) => ({
          tenant_id: demo.id,
          username: `bench${i}`,
          password_hash: 'not-a-hash',
          display_name: `Bench ${i}`,
        })),
      )
      .execute(),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const http = serve({ fetch: server.app.fetch, port, hostname: '127.0.0.1' });
  const token = await signInDemoAdmin(url);
  process.stdout.write(`${JSON.stringify({ url, token })}\n`);
  process.once('SIGTERM', () => {
    http.close();
    server.close().then(() => process.exit(0));
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
