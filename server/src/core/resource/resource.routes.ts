import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Services } from '../context';
import type { AppEnv } from '../context';
import { ErrorBody, errorResponses } from '../openapi';
import { clientIp, userAgent } from '../request-info';
import { defineRoute } from '../route';
import { Id, IdParam } from './id-param';
import { listQuerySchema, listResponse, parseListQuery } from './list-query';
import { type ResourceAction, type ResourceDefinition, type ResourceRow, type WriteContext, actionCode } from './resource';
import type { ResourceService, SpreadsheetFile } from './resource.service';
import { XLSX_TYPE } from './spreadsheet';

export function writeContext(c: Context<AppEnv>): WriteContext {
  const { principal, services, lang } = c.var;
  return {
    tenantId: principal.tenantId,
    actorId: principal.userId,
    now: services.config.now(),
    ip: clientIp(c),
    userAgent: userAgent(c),
    lang,
  };
}

export const BatchDelete = z
  .object({ ids: z.array(Id).min(1).max(1000) })
  .strict()
  .openapi('BatchDelete');

export const ImportForm = z
  .object({
    file: z.custom<File>((v) => v instanceof File, 'must be an xlsx file').openapi({ type: 'string', format: 'binary' }),
    dryRun: z.enum(['true', 'false']).default('false'),
    mode: z.enum(['insert', 'upsert']).default('insert'),
  })
  .openapi('ImportForm');

const importReportShape = {
  dryRun: z.boolean(),
  created: z.number().int(),
  updated: z.number().int(),
  failed: z.array(z.object({ row: z.number().int(), column: z.string(), message: z.string() })),
};
export const ImportReport = z.object(importReportShape).openapi('ImportReport');
const ImportFailed = ErrorBody.extend(importReportShape).openapi('ImportFailed');

const xlsx = (description: string) => ({
  description,
  content: { [XLSX_TYPE]: { schema: z.string().openapi({ type: 'string', format: 'binary' }) } },
});

function sendSheet(c: Context<AppEnv>, file: SpreadsheetFile) {
  return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
    'content-type': XLSX_TYPE,
    'content-disposition': `attachment; filename="${file.filename}"`,
    'cache-control': 'no-store',
  });
}

/** `admin_user` → `AdminUser`: the prefix of the resource's OpenAPI component names. */
const componentName = (type: string) => type.replace(/(^|_)([a-z])/g, (_, __, ch: string) => ch.toUpperCase());

/**
 * The HTTP contract of a resource (docs/architecture.md, "The resource contract"): list, export, import template, import,
 * batch delete, create, get, update, delete — each behind `<permission>:<action>`.
 * Paths without {id} come first so that `/export` is never read as an id.
 * `omit`: routes the entity answers itself (the district import answers with a diff preview).
 */
export function resourceRoutes<Row extends ResourceRow, Create, Update extends { version: number }>(
  def: ResourceDefinition<Row, Create, Update>,
  pick: (services: Services) => ResourceService<Row, Create, Update>,
  options: { omit?: 'import'[] } = {},
) {
  const base = `/${def.path}`;
  const item = `${base}/{id}`;
  const tags = [def.path];
  const name = componentName(def.type);
  const query = listQuerySchema(def.list);
  const perm = (action: ResourceAction) => actionCode(def, action);
  const json = <S extends z.ZodType>(schema: S) => ({ 'application/json': { schema } });

  const list = defineRoute({
    method: 'get',
    path: base,
    tags,
    summary: `List (paged, sorted, filtered)`,
    permission: perm('list'),
    request: { query },
    responses: { 200: { description: 'A page', content: json(listResponse(def.schemas.row, `${name}List`)) }, ...errorResponses(400, 401, 403) },
  });
  const exportRoute = defineRoute({
    method: 'get',
    path: `${base}/export`,
    tags,
    summary: 'Export the whole filtered, sorted set as xlsx (header labels in the request language)',
    permission: perm('export'),
    request: { query },
    responses: { 200: xlsx('The spreadsheet'), ...errorResponses(400, 401, 403) },
  });
  const template = defineRoute({
    method: 'get',
    path: `${base}/import-template`,
    tags,
    summary: 'The import template: header labels and one example row',
    permission: perm('import'),
    responses: { 200: xlsx('The template'), ...errorResponses(401, 403) },
  });
  const importRoute = defineRoute({
    method: 'post',
    path: `${base}/import`,
    tags,
    summary: 'Import an xlsx (dry run or commit; insert or upsert); all rows or none',
    permission: perm('import'),
    request: { body: { required: true, content: { 'multipart/form-data': { schema: ImportForm } } } },
    responses: {
      200: { description: 'The report (with `failed` rows on a dry run)', content: json(ImportReport) },
      422: { description: 'Rows failed, nothing was written (`common.importFailed`)', content: json(ImportFailed) },
      ...errorResponses(400, 401, 403),
    },
  });
  const batchDelete = defineRoute({
    method: 'post',
    path: `${base}/batch-delete`,
    tags,
    summary: 'Delete several records: all of them or none',
    permission: perm('delete'),
    request: { body: { required: true, content: json(BatchDelete) } },
    responses: {
      200: { description: 'How many were deleted', content: json(z.object({ deleted: z.number().int() })) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  const create = defineRoute({
    method: 'post',
    path: base,
    tags,
    summary: 'Create',
    permission: perm('create'),
    request: { body: { required: true, content: json(def.schemas.create) } },
    responses: { 201: { description: 'Created', content: json(def.schemas.row) }, ...errorResponses(400, 401, 403, 409) },
  });
  const get = defineRoute({
    method: 'get',
    path: item,
    tags,
    summary: 'One record',
    permission: perm('list'),
    request: { params: IdParam },
    responses: { 200: { description: 'The record', content: json(def.schemas.row) }, ...errorResponses(400, 401, 403, 404) },
  });
  const update = defineRoute({
    method: 'put',
    path: item,
    tags,
    summary: 'Update (optimistic locking: send the version you read)',
    permission: perm('update'),
    request: { params: IdParam, body: { required: true, content: json(def.schemas.update) } },
    responses: { 200: { description: 'Updated', content: json(def.schemas.row) }, ...errorResponses(400, 401, 403, 404, 409) },
  });
  const remove = defineRoute({
    method: 'delete',
    path: item,
    tags,
    summary: 'Delete',
    permission: perm('delete'),
    request: { params: IdParam },
    responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404, 409) },
  });

  const service = (c: Context<AppEnv>) => pick(c.var.services);

  const app = new OpenAPIHono<AppEnv>()
    .openapi(list, async (c) => {
      const q = parseListQuery(def.list, c.req.valid('query'), c.var.lang);
      return c.json(await service(c).list(c.var.principal.tenantId, q), 200);
    })
    .openapi(exportRoute, async (c) => {
      const q = parseListQuery(def.list, c.req.valid('query'), c.var.lang, false);
      return sendSheet(c, await service(c).export(c.var.principal.tenantId, q, c.var.lang));
    })
    .openapi(template, async (c) => sendSheet(c, await service(c).template(c.var.lang)));
  if (!options.omit?.includes('import')) {
    app.openapi(importRoute, async (c) => {
      const form = c.req.valid('form');
      const report = await service(c).import(writeContext(c), await form.file.arrayBuffer(), {
        dryRun: form.dryRun === 'true',
        mode: form.mode,
      });
      return c.json(report, 200);
    });
  }
  return app
    .openapi(batchDelete, async (c) => c.json({ deleted: await service(c).remove(writeContext(c), c.req.valid('json').ids) }, 200))
    .openapi(create, async (c) => c.json(await service(c).create(writeContext(c), c.req.valid('json') as Create), 201))
    .openapi(get, async (c) => c.json(await service(c).get(c.var.principal.tenantId, c.req.valid('param').id), 200))
    .openapi(update, async (c) =>
      c.json(await service(c).update(writeContext(c), c.req.valid('param').id, c.req.valid('json') as Update), 200),
    )
    .openapi(remove, async (c) => {
      await service(c).remove(writeContext(c), [c.req.valid('param').id]);
      return c.body(null, 204);
    });
}
