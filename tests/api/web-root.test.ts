import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createWebRoot } from '../../server/src/web-root';
import { engines, type TestApi, twoTenants } from './helpers';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const INDEX =
  '<!doctype html><html><head><script>window.early=1</script></head><body><div id="root"></div></body></html>';

describe.each(engines())('what npm start serves, on $name: the security headers of every answer', (engine) => {
  const s = twoTenants(engine);
  const dist = mkdtempSync(path.join(tmpdir(), 'medu-dist-'));
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  const served = (api: TestApi, url: string, headers: Record<string, string> = {}) =>
    createWebRoot({
      api: api.server.app,
      indexHtml: INDEX,
      dist,
      storeOrigins: async () => [],
      logger: pino({ level: 'silent' }),
    }).fetch(new Request(`http://test.local${url}`, { headers }));

  const frameAncestors = (res: Response) =>
    /frame-ancestors ([^;]+)/.exec(res.headers.get('content-security-policy') ?? '')?.[1];

  it("lets the console's own preview frame a stored file (frame-ancestors 'self'), sandboxed", async () => {
    const upload = await s.api.fetch('POST', '/api/file/file/upload?name=plan.pdf&purpose=library', {
      token: s.demo,
      body: PDF,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(upload.status).toBe(201);
    const file = (await upload.json()) as { id: string };
    const link = await s.call('GET', `/api/file/file/${file.id}/link?disposition=inline`);
    const res = await served(s.api, link.body.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(frameAncestors(res)).toBe("'self'");
    expect(res.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it("keeps every other answer unframeable (frame-ancestors 'none'): the page, the API's JSON, its errors", async () => {
    for (const url of ['/', '/index.html', '/api/health', '/api/file/file', '/api/file/file/content/forged']) {
      const res = await served(s.api, url);
      expect(frameAncestors(res), url).toBe("'none'");
    }
  });
});
