import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, errorResponses, json } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import { Attachment, FileLink } from '../../file/file/file.resource';
import {
  BulkMove,
  BulkResult,
  BulkTag,
  Document,
  DocumentAction,
  DocumentReading,
  DocumentVersion,
  DownloadFile,
  documentResource,
  NewVersion,
  SearchAnswer,
  SearchQuery,
} from './document.resource';
import { createDocumentService, type DocumentService } from './document.service';

const path = 'content/document';
const tags = [path];
const answer: [string, typeof Document] = ['The document', Document];

const search = defineRoute({
  method: 'get',
  path: `/${path}/search`,
  tags,
  summary:
    'What a reader finds: published documents of enabled libraries the caller may view, by a keyword in the title, ' +
    'summary or text, each with its matches marked',
  permission: 'authenticated',
  request: { query: SearchQuery },
  responses: answers('A page of matches', SearchAnswer, 400, 401),
});
const bulkTag = defineRoute({
  method: 'post',
  path: `/${path}/bulk-tag`,
  tags,
  summary: 'Add tags to (or remove them from) every document named, all or nothing',
  permission: 'doc:document:update',
  request: { body: { required: true, content: json(BulkTag) } },
  responses: answers('How many documents', BulkResult, 400, 401, 403),
});
const bulkMove = defineRoute({
  method: 'post',
  path: `/${path}/bulk-move`,
  tags,
  summary: 'Move every document named to another library, all or nothing',
  permission: 'doc:document:update',
  request: { body: { required: true, content: json(BulkMove) } },
  responses: answers('How many documents', BulkResult, 400, 401, 403),
});
const publish = recordAction({
  path,
  verb: 'publish',
  summary: 'Publish a draft or offline document now (a new version archives the one it supersedes)',
  permission: 'doc:document:publish',
  body: DocumentAction,
  answer,
});
const offline = recordAction({
  path,
  verb: 'offline',
  summary: 'Take a published document offline',
  permission: 'doc:document:publish',
  body: DocumentAction,
  answer,
});
const newVersion = defineRoute({
  method: 'post',
  path: `/${path}/{id}/new-version`,
  tags,
  summary: 'A draft copy of a published document that supersedes it (published, it archives the document)',
  permission: 'doc:document:new-version',
  request: { params: IdParam, body: { required: true, content: json(NewVersion) } },
  responses: {
    201: { description: 'The new draft', content: json(Document) },
    ...errorResponses(400, 401, 403, 404, 409),
  },
});
const versions = defineRoute({
  method: 'get',
  path: `/${path}/{id}/versions`,
  tags,
  summary: 'Every version of the document, newest first, with its plain text to compare them',
  permission: 'doc:document:list',
  request: { params: IdParam },
  responses: answers('The versions', z.array(DocumentVersion), 400, 401, 403, 404),
});
const attachments = defineRoute({
  method: 'get',
  path: `/${path}/{id}/attachments`,
  tags,
  summary: 'The file of the document and its attachments, each with signed, expiring links',
  permission: 'doc:document:list',
  request: { params: IdParam },
  responses: answers('The files', z.array(Attachment), 400, 401, 403, 404, 502),
});

const read = defineRoute({
  method: 'get',
  path: `/${path}/{id}/read`,
  tags,
  summary: 'A published document as a reader opens it (counted as a view), when its library lets the caller read it',
  permission: 'authenticated',
  request: { params: IdParam },
  responses: answers('The document', DocumentReading, 400, 401, 404),
});
const download = defineRoute({
  method: 'post',
  path: `/${path}/{id}/download`,
  tags,
  summary:
    'A signed, expiring link to a file of a published document (counted as a download), when the document allows ' +
    'downloads and the library lets the caller download',
  permission: 'authenticated',
  request: { params: IdParam, body: { required: true, content: json(DownloadFile) } },
  responses: answers('The link', FileLink, 400, 401, 403, 404, 502),
});

// typed as a plain app: a handler reaches the file service through `c.var.services`, whose type is made of these routes
const actions = (service: DocumentService): OpenAPIHono<AppEnv> =>
  new OpenAPIHono<AppEnv>()
    .openapi(search, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return c.json(await service.search(tenantId, userId, c.req.valid('query')), 200);
    })
    .openapi(read, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return c.json(await service.read(tenantId, userId, c.req.valid('param').id), 200);
    })
    .openapi(download, async (c) => {
      const { tenantId, userId } = c.var.principal;
      const { id } = c.req.valid('param');
      const { fileId } = c.req.valid('json');
      await service.download(tenantId, userId, id, fileId, c.var.lang);
      return c.json(await c.var.services.files.link(tenantId, fileId, false), 200);
    })
    .openapi(bulkTag, async (c) => c.json(await service.bulkTag(writeContext(c), c.req.valid('json')), 200))
    .openapi(bulkMove, async (c) => c.json(await service.bulkMove(writeContext(c), c.req.valid('json')), 200))
    .openapi(publish, async (c) =>
      c.json(await service.publish(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(offline, async (c) =>
      c.json(await service.offline(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(newVersion, async (c) =>
      c.json(await service.newVersion(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 201),
    )
    .openapi(versions, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return c.json(await service.versions(tenantId, c.req.valid('param').id, userId), 200);
    })
    .openapi(attachments, async (c) => {
      const { tenantId, userId } = c.var.principal;
      const row = await service.resource.get(tenantId, c.req.valid('param').id, userId);
      const ids = [...(row.fileId ? [row.fileId] : []), ...row.attachmentFileIds];
      return c.json(await c.var.services.files.attachments(tenantId, ids), 200);
    });

export const documents = resourceModule(documentResource, {
  service: createDocumentService,
  routes: actions,
  omit: ['import', 'template'],
});
