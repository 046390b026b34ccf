import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv, Services } from '../context';
import { AppError } from '../errors';
import { answers, ErrorBody, type ErrorStatus, errorResponses, json } from '../openapi';
import { clientIp, userAgent } from '../request-info';
import { defineRoute, type Permission, type PermissionCode } from '../route';
import { field } from '../schema-kit';
import { Id, IdParam } from './id-param';
import { listQuerySchema, listResponse, parseListQuery } from './list-query';
import {
  actionCode,
  type ResourceAction,
  type ResourceDefinition,
  type ResourceRow,
  type WriteContext,
} from './resource';
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

/**
 * The actions of a resource on one record that take nothing but its id, `POST /<path>/{id}/<verb>`, each answering
 * `answer` (by default the record after them), or an error: `errors`, by default 400, 401, 403, 404 and 409.
 */
export function recordActions<S extends z.ZodType>(
  path: string,
  tags: string[],
  answer: { description: string; schema: S; errors?: ErrorStatus[] },
) {
  const errors = answer.errors ?? [400, 401, 403, 404, 409];
  return (verb: string, permission: Permission, summary: string) =>
    defineRoute({
      method: 'post',
      path: `/${path}/{id}/${verb}`,
      tags,
      summary,
      permission,
      request: { params: IdParam },
      responses: answers(answer.description, answer.schema, ...errors),
    });
}

export const BatchDelete = z
  .object({ ids: z.array(Id).min(1).max(1000) })
  .strict()
  .openapi('BatchDelete');

export const ImportForm = z
  .object({
    file: z
      .custom<File>((v) => v instanceof File, 'must be an xlsx file')
      .openapi({ type: 'string', format: 'binary' }),
    dryRun: z.enum(['true', 'false']).default('false'),
    mode: z.enum(['insert', 'upsert']).default('insert'),
  })
  .openapi('ImportForm');

const importReportShape = {
  dryRun: z.boolean(),
  created: z.number().int(),
  updated: z.number().int(),
  failed: z
    .array(z.object({ row: z.number().int(), column: z.string(), message: z.string() }))
    .openapi({ description: "The first 1,000 failures; the job's failure sheet has all of them" }),
  failedTotal: z.number().int().optional().openapi({ description: 'With any failure: how many in all' }),
  failedRows: z.number().int().optional().openapi({ description: 'With any failure: on how many rows' }),
  warnings: z
    .array(z.object({ row: z.number().int(), column: z.string(), message: z.string() }))
    .optional()
    .openapi({
      description:
        'What stops no row (a likely duplicate), the first 1,000: present when the resource looks for it (the question import: its dry run)',
    }),
  warningTotal: z.number().int().optional().openapi({ description: 'With more warnings than listed: how many in all' }),
  warningsChecked: z
    .object({ checked: z.number().int(), total: z.number().int(), message: z.string() })
    .optional()
    .openapi({ description: 'When warnings were looked for on only some records (a bounded look-up): how many' }),
};
export const ImportReport = z.object(importReportShape).openapi('ImportReport');
const ImportFailed = ErrorBody.extend(importReportShape).openapi('ImportFailed');

export const ImportJob = z
  .object({
    id: Id,
    resource: z.string(),
    mode: z.enum(['insert', 'upsert']),
    dryRun: z.boolean(),
    status: z.enum(['queued', 'validating', 'applying', 'undoing', 'done', 'failed', 'cancelled']),
    done: z
      .number()
      .int()
      .openapi({ description: 'Rows validated (validating), applied (applying) or left to undo (undoing)' }),
    total: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Rows to apply; null until validation has counted them' }),
    fileName: z.string(),
    createdBy: Id,
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    report: z
      .object({ ...importReportShape, error: z.object({ code: z.string(), message: z.string() }).optional() })
      .nullable()
      .openapi({ description: 'When finished; `error` when the file itself was refused (too many rows, not an xlsx)' }),
  })
  .openapi('ImportJob');

export const xlsx = (description: string) => ({
  description,
  content: { [XLSX_TYPE]: { schema: z.string().openapi({ type: 'string', format: 'binary' }) } },
});

export function sendSheet(c: Context<AppEnv>, file: SpreadsheetFile) {
  return c.body(file.body as Uint8Array<ArrayBuffer> | ReadableStream, 200, {
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
 * `omit`: routes the entity answers itself (the district import answers with a diff preview), or has none (a file is
 * made by upload, never by a JSON create or update).
 */
/** Generic routes an entity may go without. */
export type OmittedRoute = 'import' | 'template' | 'create' | 'update';

export function resourceRoutes<Row extends ResourceRow, Create, Update extends { version: number }>(
  def: ResourceDefinition<Row, Create, Update>,
  pick: (services: Services) => ResourceService<Row, Create, Update>,
  options: { omit?: OmittedRoute[] } = {},
) {
  const base = `/${def.path}`;
  const item = `${base}/{id}`;
  const tags = [def.path];
  const name = componentName(def.type);
  const query = listQuerySchema(def.list);
  const perm = (action: ResourceAction) => actionCode(def, action);

  const list = defineRoute({
    method: 'get',
    path: base,
    tags,
    summary: `List (paged, sorted, filtered)`,
    permission: def.listedBy ? [perm('list'), ...(def.listedBy as PermissionCode[])] : perm('list'),
    request: { query },
    responses: answers('A page', listResponse(def.schemas.row, `${name}List`), 400, 401, 403),
  });
  const exportRoute = defineRoute({
    method: 'get',
    path: `${base}/export`,
    tags,
    summary:
      'Export the whole filtered, sorted set as xlsx (header labels and coded values in the request language; instants on `timeZone`)',
    permission: perm('export'),
    request: { query: query.extend({ timeZone: field.timeZone.optional() }) },
    responses: { 200: xlsx('The spreadsheet'), ...errorResponses(400, 401, 403) },
  });
  /** The import's form: the generic one, and the parameters an import of this resource is made for. */
  const importForm = def.importParams ? ImportForm.extend(def.importParams.shape) : ImportForm;
  const template = defineRoute({
    method: 'get',
    path: `${base}/import-template`,
    tags,
    summary: 'The import template: header labels and one example row',
    permission: perm('import'),
    ...(def.importParams && { request: { query: def.importParams } }),
    responses: { 200: xlsx('The template'), ...errorResponses(...(def.importParams ? [400 as const] : []), 401, 403) },
  });
  const importRoute = defineRoute({
    method: 'post',
    path: `${base}/import`,
    tags,
    summary: 'Import an xlsx (dry run or commit; insert or upsert); all rows or none',
    permission: perm('import'),
    request: { body: { required: true, content: { 'multipart/form-data': { schema: importForm } } } },
    responses: {
      200: { description: 'The report (with `failed` rows on a dry run)', content: json(ImportReport) },
      422: { description: 'Rows failed, nothing was written (`common.importFailed`)', content: json(ImportFailed) },
      ...errorResponses(400, 401, 403),
    },
  });
  const jobs = `${base}/import-jobs`;
  const job = `${jobs}/{id}`;
  const startJob = defineRoute({
    method: 'post',
    path: jobs,
    tags,
    summary: 'Start an import as a job (same form as the import); follow it with GET, stop it with cancel',
    permission: perm('import'),
    request: { body: { required: true, content: { 'multipart/form-data': { schema: importForm } } } },
    responses: {
      202: { description: 'The job, queued', content: json(ImportJob) },
      ...errorResponses(400, 401, 403, 413),
    },
  });
  const latestJob = defineRoute({
    method: 'get',
    path: `${jobs}/latest`,
    tags,
    summary: 'The latest import job the caller started on this resource (null when none)',
    permission: perm('import'),
    responses: answers('The job or null', ImportJob.nullable(), 401, 403),
  });
  const getJob = defineRoute({
    method: 'get',
    path: job,
    tags,
    summary: 'An import job: status, rows done of total, and its report when finished',
    permission: perm('import'),
    request: { params: IdParam },
    responses: answers('The job', ImportJob, 400, 401, 403, 404),
  });
  const cancelJob = defineRoute({
    method: 'post',
    path: `${job}/cancel`,
    tags,
    summary: 'Cancel an import job: what it applied is undone, the table ends as it was',
    permission: perm('import'),
    request: { params: IdParam },
    responses: answers('The job, asked to stop', ImportJob, 400, 401, 403, 404, 409),
  });
  const jobFailures = defineRoute({
    method: 'get',
    path: `${job}/failures`,
    tags,
    summary: 'Every failure of a job: the uploaded sheet with an error column',
    permission: perm('import'),
    request: { params: IdParam },
    responses: { 200: xlsx('The sheet with its errors'), ...errorResponses(400, 401, 403, 404) },
  });
  const batchDelete = defineRoute({
    method: 'post',
    path: `${base}/batch-delete`,
    tags,
    summary: 'Delete several records: all of them or none',
    permission: perm('delete'),
    request: { body: { required: true, content: json(BatchDelete) } },
    responses: answers('How many were deleted', z.object({ deleted: z.number().int() }), 400, 401, 403, 404, 409),
  });
  const create = defineRoute({
    method: 'post',
    path: base,
    tags,
    summary: 'Create',
    permission: perm('create'),
    request: { body: { required: true, content: json(def.schemas.create) } },
    responses: {
      201: { description: 'Created', content: json(def.schemas.row) },
      ...errorResponses(400, 401, 403, 409),
    },
  });
  const get = defineRoute({
    method: 'get',
    path: item,
    tags,
    summary: 'One record',
    permission: perm('list'),
    request: { params: IdParam },
    responses: answers('The record', def.schemas.row, 400, 401, 403, 404),
  });
  const update = defineRoute({
    method: 'put',
    path: item,
    tags,
    summary: 'Update (optimistic locking: send the version you read)',
    permission: perm('update'),
    request: { params: IdParam, body: { required: true, content: json(def.schemas.update) } },
    responses: answers('Updated', def.schemas.row, 400, 401, 403, 404, 409),
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
      return c.json(await service(c).list(c.var.principal.tenantId, { ...q, viewer: c.var.principal.userId }), 200);
    })
    .openapi(exportRoute, async (c) => {
      const { timeZone, ...params } = c.req.valid('query');
      const q = parseListQuery(def.list, params, c.var.lang, false);
      const viewer = c.var.principal.userId;
      const reading = { lang: c.var.lang, timeZone };
      return sendSheet(c, await service(c).export(c.var.principal.tenantId, { ...q, viewer }, reading));
    });
  if (!options.omit?.includes('template'))
    app.openapi(template, async (c) => {
      const params = def.importParams ? (c.req.valid('query' as never) as Record<string, unknown>) : undefined;
      return sendSheet(c, await service(c).template(c.var.lang, c.var.principal.tenantId, params));
    });
  if (!options.omit?.includes('import')) {
    const imports = (c: Context<AppEnv>) => c.var.services.imports;
    const start = async (c: Context<AppEnv>, form: object) => {
      const { file, dryRun, mode, ...params } = form as z.infer<typeof ImportForm> & Record<string, unknown>;
      const target = def.importParams
        ? await service(c).importTargetFor(c.var.principal.tenantId, params)
        : service(c).importTarget;
      return imports(c).start(target, writeContext(c), file, { dryRun: dryRun === 'true', mode });
    };
    app
      .openapi(importRoute, async (c) => {
        const outcome = await (await start(c, c.req.valid('form'))).finished;
        if (outcome.error) throw outcome.error;
        const { report } = outcome;
        if (outcome.status === 'failed' && !report.dryRun) {
          throw new AppError('common.importFailed', { count: report.failedRows ?? 0 }, undefined, { ...report });
        }
        return c.json(report, 200);
      })
      .openapi(startJob, async (c) => {
        const { job: started, finished } = await start(c, c.req.valid('form'));
        // The runner has logged an unexpected failure and written it into the job, where the console reads it.
        finished.catch(() => undefined);
        return c.json(started, 202);
      })
      .openapi(latestJob, async (c) => {
        const { tenantId, userId } = c.var.principal;
        return c.json(await imports(c).latest(tenantId, def.path, userId), 200);
      })
      .openapi(getJob, async (c) =>
        c.json(await imports(c).get(c.var.principal.tenantId, def.path, c.req.valid('param').id), 200),
      )
      .openapi(cancelJob, async (c) =>
        c.json(await imports(c).cancel(c.var.principal.tenantId, def.path, c.req.valid('param').id), 200),
      )
      .openapi(jobFailures, async (c) =>
        sendSheet(
          c,
          await imports(c).failureSheet(c.var.principal.tenantId, def.path, c.req.valid('param').id, c.var.lang),
        ),
      );
  }
  app.openapi(batchDelete, async (c) =>
    c.json({ deleted: await service(c).remove(writeContext(c), c.req.valid('json').ids) }, 200),
  );
  if (!options.omit?.includes('create'))
    app.openapi(create, async (c) =>
      c.json(await service(c).create(writeContext(c), c.req.valid('json') as Create), 201),
    );
  app.openapi(get, async (c) => {
    const { tenantId, userId } = c.var.principal;
    return c.json(await service(c).get(tenantId, c.req.valid('param').id, userId), 200);
  });
  if (!options.omit?.includes('update'))
    app.openapi(update, async (c) =>
      c.json(await service(c).update(writeContext(c), c.req.valid('param').id, c.req.valid('json') as Update), 200),
    );
  return app.openapi(remove, async (c) => {
    await service(c).remove(writeContext(c), [c.req.valid('param').id]);
    return c.body(null, 204);
  });
}
