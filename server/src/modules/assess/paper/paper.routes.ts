import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../../core/context';
import { answers, errorResponses, json } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import { EMBEDDED_LIMITS } from './paper.images';
import { previewImageIds } from './paper.print';
import {
  CheckRules,
  ClonePaper,
  Paper,
  PaperAction,
  PaperPreview,
  PreviewQuery,
  PrintQuery,
  paperResource,
  RuleAvailability,
} from './paper.resource';
import { createPaperService, type PaperService } from './paper.service';

const path = 'assess/paper';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const PDF = 'application/pdf';
const tags = [path];
const answer: [string, typeof Paper] = ['The paper', Paper];

const publish = recordAction({
  path,
  verb: 'publish',
  summary:
    'Publish a draft: every section filled, the pass mark within the total, every question ready; each question keeps the version it has now, and a random-once paper draws its questions',
  permission: 'assess:paper:publish',
  body: PaperAction,
  answer,
});
const close = recordAction({
  path,
  verb: 'close',
  summary: 'Close a published paper',
  permission: 'assess:paper:close',
  body: PaperAction,
  answer,
});
const clone = defineRoute({
  method: 'post',
  path: `/${path}/{id}/clone`,
  tags,
  summary: 'A new draft with the settings and structure of the paper, under another code and title',
  permission: 'assess:paper:clone',
  request: { params: IdParam, body: { required: true, content: json(ClonePaper) } },
  responses: { 201: { description: 'The new paper', content: json(Paper) }, ...errorResponses(400, 401, 403, 404) },
});
const preview = defineRoute({
  method: 'get',
  path: `/${path}/{id}/preview`,
  tags,
  summary:
    'The paper as a candidate would get it: its random rules drawn with `seed`, each question in the version it pins once published',
  permission: 'assess:paper:list',
  request: { params: IdParam, query: PreviewQuery },
  responses: answers('The paper to read', PaperPreview, 400, 401, 403, 404),
});
const exportWord = defineRoute({
  method: 'get',
  path: `/${path}/{id}/export-word`,
  tags,
  summary:
    "The paper as a Word document as a candidate gets it (random rules drawn with `seed`), or the teacher's copy with each answer and analysis (`answers=true`)",
  permission: 'assess:paper:export-word',
  request: { params: IdParam, query: PrintQuery },
  responses: {
    200: {
      description: 'The document',
      content: { [DOCX]: { schema: z.string().openapi({ type: 'string', format: 'binary' }) } },
    },
    ...errorResponses(400, 401, 403, 404),
  },
});
const exportPdf = defineRoute({
  method: 'get',
  path: `/${path}/{id}/export-pdf`,
  tags,
  summary:
    "The paper as an A4 PDF as a candidate gets it (random rules drawn with `seed`), or the teacher's copy with each answer and analysis (`answers=true`)",
  permission: 'assess:paper:export-pdf',
  request: { params: IdParam, query: PrintQuery },
  responses: {
    200: {
      description: 'The document',
      content: { [PDF]: { schema: z.string().openapi({ type: 'string', format: 'binary' }) } },
    },
    ...errorResponses(400, 401, 403, 404),
  },
});
const checkRules = defineRoute({
  method: 'post',
  path: `/${path}/check-rules`,
  tags,
  summary: 'How many ready questions of the bank each random rule may draw now',
  permission: 'assess:paper:list',
  request: { body: { required: true, content: json(CheckRules) } },
  responses: answers('Per rule, in order', z.array(RuleAvailability), 400, 401, 403),
});

/** The fixed paths come before the generic routes, so that `/check-rules` is never read as an id. */
// typed as a plain app: a handler reaches the file service through `c.var.services`, whose type is made of these routes
const actions = (service: PaperService): OpenAPIHono<AppEnv> => {
  /** The paper printed as `format`, downloaded. */
  const printed = async (c: Context<AppEnv>, format: 'docx' | 'pdf', id: string, query: PrintQuery) => {
    const answers = query.answers === 'true';
    const { tenantId, userId } = c.var.principal;
    const file = await service.print(
      tenantId,
      id,
      format,
      query.seed ?? 1,
      answers,
      c.var.lang,
      userId,
      query.timeZone,
      (ids) => c.var.services.files.contents(tenantId, ids, EMBEDDED_LIMITS),
    );
    return c.body(new Uint8Array(file.body), 200, {
      'content-type': format === 'pdf' ? PDF : DOCX,
      'content-disposition': `attachment; filename="${encodeURIComponent(file.filename)}"`,
      'cache-control': 'no-store',
    }) as never;
  };
  return new OpenAPIHono<AppEnv>()
    .openapi(checkRules, async (c) =>
      c.json(await service.checkRules(c.var.principal.tenantId, c.req.valid('json')), 200),
    )
    .openapi(publish, async (c) =>
      c.json(await service.publish(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(close, async (c) =>
      c.json(await service.close(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(clone, async (c) =>
      c.json(await service.clone(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 201),
    )
    .openapi(exportWord, (c) => printed(c, 'docx', c.req.valid('param').id, c.req.valid('query')))
    .openapi(exportPdf, (c) => printed(c, 'pdf', c.req.valid('param').id, c.req.valid('query')))
    .openapi(preview, async (c) => {
      const { tenantId, userId } = c.var.principal;
      const shown = await service.preview(
        tenantId,
        c.req.valid('param').id,
        c.req.valid('query').seed ?? 1,
        c.var.lang,
        userId,
      );
      const media = await c.var.services.files.attachments(tenantId, previewImageIds(shown));
      return c.json({ ...shown, media }, 200);
    });
};

export const papers = resourceModule(paperResource, {
  service: createPaperService,
  routes: actions,
  omit: ['import', 'template'],
});
