import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, errorResponses, json } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import {
  CreateReport,
  ReportCase,
  ReportRow,
  ResolveCase,
  reportCaseResource,
  withoutSnapshot,
} from './report.resource';
import { createReportService, type ReportService } from './report.service';

const path = 'community/report';

const report = defineRoute({
  method: 'post',
  path: `/${path}`,
  tags: [path],
  summary:
    'Report a post, reply or user (once per person per target): joins the pending case of the target, which hides a ' +
    'post or reply by itself at the threshold of distinct reports. The target as the case keeps it is answered only ' +
    'to a reader of the cases (`community:report:list`)',
  permission: 'community:post:report',
  request: { body: { required: true, content: json(CreateReport) } },
  responses: {
    201: { description: 'The case the report joined', content: json(ReportCase) },
    ...errorResponses(400, 401, 403, 409),
  },
});
const reports = defineRoute({
  method: 'get',
  path: `/${path}/{id}/reports`,
  tags: [path],
  summary: 'The reports of the case, in the order they came',
  permission: 'community:report:list',
  request: { params: IdParam },
  responses: answers('The reports', z.array(ReportRow), 400, 401, 403, 404),
});
const resolve = recordAction({
  path,
  verb: 'resolve',
  summary:
    'Handle a pending case: hide or delete the content, dismiss (shown again if hidden by itself), ignore, warn or ' +
    'suspend the author; the outcome is recorded and audited',
  permission: 'community:report:resolve',
  body: ResolveCase,
  answer: ['The case', ReportCase],
});

const actions = (service: ReportService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(report, async (c) => {
      const row = await service.report(writeContext(c), c.req.valid('json'));
      // the snapshot may show what the reporter cannot read (a reply's post, a user's name): a reader of cases only
      const shown = c.var.principal.permissions.has('community:report:list') ? row : withoutSnapshot(row);
      return c.json(shown, 201);
    })
    .openapi(reports, async (c) =>
      c.json(await service.reports(c.var.principal.tenantId, c.req.valid('param').id), 200),
    )
    .openapi(resolve, async (c) =>
      c.json(await service.resolve(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    );

export const reportCases = resourceModule(reportCaseResource, {
  service: createReportService,
  routes: actions,
  omit: ['import', 'template', 'create', 'update'],
});
