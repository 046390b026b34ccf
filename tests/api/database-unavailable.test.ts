import { OpenAPIHono } from '@hono/zod-openapi';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../server/src/core/context';
import { ErrorCatalog } from '../../server/src/core/error-catalog';
import { createErrorHandler, DATABASE_RETRY_AFTER_SECONDS } from '../../server/src/core/error-handler';

/**
 * A request cut by the database going away (issue 31: a restart, a fail-over, pg_terminate_backend, a refused
 * connection) answers 503 `common.databaseUnavailable` with Retry-After, in the catalogue's shape: the client may send
 * it again in a few seconds. Any other unexpected error stays a 500 that says nothing of itself.
 */
function answerTo(err: unknown, lang = 'en-US') {
  const app = new OpenAPIHono<AppEnv>();
  app.onError(createErrorHandler(new ErrorCatalog(), undefined));
  app.get('/fails', () => {
    throw err;
  });
  return app.fetch(new Request('http://test.local/fails', { headers: { 'accept-language': lang } }));
}

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('a request cut by the database going away', () => {
  const faults: [string, unknown][] = [
    [
      'terminated by an administrator (57P01)',
      Object.assign(new pg.DatabaseError('terminating connection due to administrator command', 0, 'error'), {
        code: '57P01',
      }),
    ],
    ['a server shutting down (57P02)', withCode('terminating connection due to crash of another server', '57P02')],
    ['a server starting (57P03)', withCode('the database system is starting up', '57P03')],
    ['a connection failure (08006)', withCode('connection failure', '08006')],
    ['a connection not established (08001)', withCode('could not connect', '08001')],
    ['the connection cut mid-statement', new Error('Connection terminated unexpectedly')],
    ['a client whose connection failed', new Error('Client has encountered a connection error and is not queryable')],
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    [
      'a refused connection to every address',
      Object.assign(new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''), {}),
    ],
    ['a refusal wrapped by a caller', new Error('the import failed', { cause: new Error('Connection terminated') })],
  ];

  it.each(faults)('%s: 503 with Retry-After and the catalogue’s shape', async (_, err) => {
    const res = await answerTo(err);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
    expect(await res.json()).toEqual({
      family: 'SERVER_ERROR',
      code: 'common.databaseUnavailable',
      message: 'The database cannot be reached at the moment; try again in a few seconds',
    });
  });

  it('says so in Chinese too', async () => {
    const res = await answerTo(new Error('Connection terminated unexpectedly'), 'zh-CN');
    expect(await res.json()).toMatchObject({
      code: 'common.databaseUnavailable',
      message: '数据库暂时无法连接，请几秒后重试',
    });
  });

  it('leaves other failures as they were: a statement error is a 500, a duplicate a 409, neither retried', async () => {
    const broken = await answerTo(withCode('division by zero', '22012'));
    expect(broken.status).toBe(500);
    expect(broken.headers.get('retry-after')).toBeNull();
    expect(await broken.json()).toMatchObject({ family: 'SERVER_ERROR', code: 'common.internal' });
    const duplicate = await answerTo(withCode('duplicate key value violates unique constraint', '23505'));
    expect(duplicate.status).toBe(409);
    expect((await answerTo(new TypeError('x is undefined'))).status).toBe(500);
  });
});
