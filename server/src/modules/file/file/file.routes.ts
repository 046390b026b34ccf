import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, errorResponses, json } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { recordActions, writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, type PermissionCode } from '../../../core/route';
import {
  FileLink,
  fileResource,
  LinkQuery,
  Presign,
  PresignAnswer,
  StoredFile,
  UploadPolicy,
  UploadQuery,
} from './file.resource';
import { createFileService, type FileService } from './file.service';

const tags = ['file/file'];

/**
 * Who may upload: the file list's own create, and every screen whose records hold attachments (a file uploaded for
 * a record is unclaimed until the record is saved with it).
 */
export const UPLOADERS = [
  'file:file:create',
  'expert:qualification:create',
  'expert:qualification:update',
] as const satisfies readonly PermissionCode[];

const policy = defineRoute({
  method: 'get',
  path: '/file/file/upload-policy',
  tags,
  summary: "How to upload in this tenant: straight to its S3 store or through the server, and the tenant's limits",
  permission: UPLOADERS,
  responses: answers('The policy', UploadPolicy, 401, 403),
});

const upload = defineRoute({
  method: 'post',
  path: '/file/file/upload',
  tags,
  summary:
    'Upload a file through the server: the body is the file itself (streamed to the store); its type is found from its content',
  permission: UPLOADERS,
  request: {
    query: UploadQuery,
    body: {
      required: true,
      content: { 'application/octet-stream': { schema: z.string().openapi({ type: 'string', format: 'binary' }) } },
    },
  },
  responses: {
    201: { description: 'The stored file', content: json(StoredFile) },
    ...errorResponses(400, 401, 403, 413, 415, 502),
  },
});

const presign = defineRoute({
  method: 'post',
  path: '/file/file/presign',
  tags,
  summary: 'Start a direct upload to the S3 store: a pending file and the presigned PUT to send it with',
  permission: UPLOADERS,
  request: { body: { required: true, content: json(Presign) } },
  responses: answers('The presigned upload', PresignAnswer, 400, 401, 403, 409, 413, 502),
});

const complete = recordActions('file/file', tags, {
  description: 'The file, confirmed',
  schema: StoredFile,
  errors: [400, 401, 403, 404, 409, 413, 415, 502],
})(
  'complete',
  UPLOADERS,
  'Confirm a direct upload: the server checks its size and its type (from the content); a refused one is deleted',
);

const link = defineRoute({
  method: 'get',
  path: '/file/file/{id}/link',
  tags,
  summary: 'A signed link that downloads (or, `inline`, shows) the file until it expires',
  permission: 'file:file:list',
  request: { params: IdParam, query: LinkQuery },
  responses: answers('The link', FileLink, 400, 401, 403, 404, 502),
});

const content = defineRoute({
  method: 'get',
  path: '/file/file/content/{token}',
  tags,
  summary: 'The bytes of a file, by a signed link (no token needed: the link is the permission); ranges are served',
  permission: 'public',
  request: {
    params: z.object({
      token: z
        .string()
        .max(200)
        .openapi({ param: { name: 'token', in: 'path' } }),
    }),
  },
  responses: {
    200: { description: 'The file', content: { 'application/octet-stream': { schema: z.string() } } },
    206: { description: 'The range asked for', content: { 'application/octet-stream': { schema: z.string() } } },
    ...errorResponses(400, 403, 404, 410),
  },
});

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` within `size`; anything else serves the whole file. */
function rangeOf(header: string | undefined, size: number): { start: number; end: number } | undefined {
  const m = header && /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (!m[1] && !m[2]) || size === 0) return undefined;
  const start = m[1] ? Number(m[1]) : Math.max(size - Number(m[2]), 0);
  const end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  return start <= end && start < size ? { start, end } : undefined;
}

const actions = (service: FileService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(policy, async (c) => c.json(await service.policy(c.var.principal.tenantId), 200))
    .openapi(upload, async (c) => {
      // Node's own request stream when there is one: the web stream made from it reads ahead of the store (Node 20's
      // Readable.toWeb ignores backpressure), which held a whole upload in memory
      const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
      const web = incoming ? null : c.req.raw.body;
      const body = incoming ?? (web ? Readable.fromWeb(web as WebStream<Uint8Array>) : null);
      const length = c.req.header('content-length');
      const declared = length && /^\d+$/.test(length) ? Number(length) : undefined;
      return c.json(await service.upload(writeContext(c), c.req.valid('query'), body, declared), 201);
    })
    .openapi(presign, async (c) => c.json(await service.presign(writeContext(c), c.req.valid('json')), 200))
    .openapi(complete, async (c) => c.json(await service.complete(writeContext(c), c.req.valid('param').id), 200))
    .openapi(link, async (c) => {
      const inline = c.req.valid('query').disposition === 'inline';
      return c.json(await service.link(c.var.principal.tenantId, c.req.valid('param').id, inline), 200);
    })
    .openapi(content, async (c) => {
      const token = c.req.valid('param').token;
      const file = await service.open(token, (size) => rangeOf(c.req.header('range'), size));
      const { range } = file;
      const headers: Record<string, string> = {
        'content-type': file.mime,
        'content-disposition': file.disposition,
        'accept-ranges': 'bytes',
        'x-content-type-options': 'nosniff',
        // framed by the console's own preview (a PDF, a text), by no other site
        'content-security-policy':
          "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'",
        'x-frame-options': 'SAMEORIGIN',
        'content-length': String(range ? range.end - range.start + 1 : file.size),
      };
      if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${file.size}`;
      return c.body(Readable.toWeb(file.body) as ReadableStream, range ? 206 : 200, headers);
    });

/** Files are made by upload (and confirmed), never by a JSON create or update; no import. */
export const files = resourceModule(fileResource, {
  service: createFileService,
  routes: actions,
  omit: ['import', 'template', 'create', 'update'],
});
