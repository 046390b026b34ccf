/**
 * `npm run dev` mounts the REAL API (server/) on an in-memory database with demo data.
 * No hand-written responses here: every method under /api goes to the Hono app.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
// Imported while Umi loads this file: its TypeScript require hook is active only then, not at request time.
import { loadMigrations } from '../server/src/db/migrator';
import { createServer } from '../server/src/server';

// The migrations are files found at run time: loaded now, while that hook is active (a failure shows at the first
// call). Without it (vitest loads this file as a module), they are imported when first needed.
if (require.extensions['.ts']) loadMigrations(require).catch(() => undefined);

type UploadedFile = { fieldname: string; originalname: string; mimetype: string; buffer: Buffer };
type MockRequest = IncomingMessage & { body?: unknown; _body?: boolean; originalUrl?: string; files?: UploadedFile[] };
type FetchApp = { fetch(request: Request): Response | Promise<Response> };

let app: Promise<FetchApp> | undefined;

function getApp(): Promise<FetchApp> {
  app ??= createServer({ database: { kind: 'memory' }, demo: true, demoContent: true, logger: false }).then(
    (server) => server.app,
  );
  return app;
}

async function readStream(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** The body as the client sent it; Umi's body parser may already have consumed the stream. */
async function bodyOf(req: MockRequest): Promise<RequestInit['body']> {
  if (req.method === 'GET' || req.method === 'HEAD') return undefined;
  if (Array.isArray(req.files)) {
    const form = new FormData();
    for (const [name, value] of Object.entries((req.body ?? {}) as Record<string, string>)) form.append(name, value);
    for (const file of req.files) {
      form.append(file.fieldname, new Blob([new Uint8Array(file.buffer)], { type: file.mimetype }), file.originalname);
    }
    return form;
  }
  if (!req._body) {
    const raw = await readStream(req);
    return raw.length ? new Uint8Array(raw) : undefined;
  }
  const body = req.body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body as RequestInit['body'];
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('application/x-www-form-urlencoded')) {
    return new URLSearchParams(body as Record<string, string>).toString();
  }
  return JSON.stringify(body ?? {});
}

export async function toFetchRequest(req: MockRequest): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
    if (name === 'content-type' && Array.isArray(req.files)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const url = new URL(req.originalUrl ?? req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  return new Request(url, { method: req.method, headers, body: await bodyOf(req) });
}

export async function sendFetchResponse(response: Response, res: ServerResponse) {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name === 'content-encoding' || name === 'transfer-encoding' || name === 'content-length') return;
    res.setHeader(name, value);
  });
  res.end(Buffer.from(await response.arrayBuffer()));
}

async function proxy(req: MockRequest, res: ServerResponse) {
  try {
    const target = await getApp();
    await sendFetchResponse(await target.fetch(await toFetchRequest(req)), res);
  } catch (error) {
    res.statusCode = 500;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ family: 'SERVER_ERROR', code: 'common.internal', message: String(error) }));
  }
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export default Object.fromEntries(
  METHODS.flatMap((method) => [
    [`${method} /api`, proxy],
    [`${method} /api/(.*)`, proxy],
  ]),
);
