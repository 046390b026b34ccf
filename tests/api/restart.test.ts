import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from '../../server/src/server';
import { type Answer, testArgon2 } from './helpers';

const root = mkdtempSync(path.join(os.tmpdir(), 'medu-restart-'));
const dataDir = path.join(root, 'data');
afterAll(() => rmSync(root, { recursive: true, force: true }));

// the key made on the first start, outside DATA_DIR (here beside it rather than in the user's config folder)
const start = () =>
  createServer({
    database: { kind: 'pglite', dataDir },
    demo: true,
    logger: false,
    config: { argon2: testArgon2, idNumberKeyFile: path.join(root, 'id-number.key') },
  });

async function call(
  app: Awaited<ReturnType<typeof start>>['app'],
  method: string,
  url: string,
  token?: string,
  body?: unknown,
) {
  const res = await app.fetch(
    new Request(`http://test.local${url}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const answer: Answer['body'] = res.status === 204 ? null : await res.json();
  return { status: res.status, body: answer };
}

describe('a restart on the same embedded database', () => {
  it("keeps the operator's edits of seeded data and the sessions it issued", async () => {
    let server = await start();
    const signIn = await call(server.app, 'POST', '/api/auth/token', undefined, {
      grant_type: 'password',
      tenant: 'platform',
      username: 'admin',
      password: 'admin123',
      client_id: 'console',
    });
    expect(signIn.status).toBe(200);
    const token = signIn.body.access_token as string;
    const packages = await call(server.app, 'GET', '/api/system/tenant-package?keyword=标准套餐', token);
    const standard = packages.body.data[0];
    const kept = standard.permissionIds.slice(0, 3);
    const edited = await call(server.app, 'PUT', `/api/system/tenant-package/${standard.id}`, token, {
      name: standard.name,
      permissionIds: kept,
      version: standard.version,
    });
    expect(edited.status).toBe(200);
    await server.close();

    server = await start();
    try {
      const after = await call(server.app, 'GET', `/api/system/tenant-package/${standard.id}`, token);
      expect(after.status).toBe(200);
      expect([...after.body.permissionIds].sort()).toEqual([...kept].sort());
      const me = await call(server.app, 'GET', '/api/auth/me', token);
      expect(me).toMatchObject({ status: 200, body: { userName: 'admin', tenant: { code: 'platform' } } });
    } finally {
      await server.close();
    }
  });
});
