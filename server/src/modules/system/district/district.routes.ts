import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, ErrorBody, errorResponses, json } from '../../../core/openapi';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute } from '../../../core/route';
import { districtResource } from './district.resource';
import { DistrictImportForm, DistrictImportReport, DistrictNode, TreeQuery } from './district.schema';
import { createDistrictService, type DistrictService } from './district.service';

const tags = ['system/district'];

const tree = defineRoute({
  method: 'get',
  path: '/system/district/tree',
  tags,
  summary: 'One level of the division tree (the provinces, or the children of `parentCode`), each with `hasChildren`',
  permission: 'system:district:list',
  request: { query: TreeQuery },
  responses: answers('Nodes', z.array(DistrictNode), 400, 401, 403),
});

const importRoute = defineRoute({
  method: 'post',
  path: '/system/district/import',
  tags,
  summary:
    'Import a code list: the dry run (default) previews what is added, renamed and retired; a real run applies all or nothing',
  permission: 'system:district:import',
  request: { body: { required: true, content: { 'multipart/form-data': { schema: DistrictImportForm } } } },
  responses: {
    200: { description: 'The preview, or what was applied', content: json(DistrictImportReport) },
    422: {
      description: 'Rows failed, nothing was written (`common.importFailed`)',
      content: json(ErrorBody.extend(DistrictImportReport.shape)),
    },
    ...errorResponses(400, 401, 403),
  },
});

/** The tree and the import come before the generic routes, so `/districts/tree` is never read as an id. */
const actions = (service: DistrictService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(tree, async (c) => {
      const { parentCode, status } = c.req.valid('query');
      return c.json(await service.tree(c.var.principal.tenantId, parentCode, status), 200);
    })
    .openapi(importRoute, async (c) => {
      const form = c.req.valid('form');
      const ctx = writeContext(c);
      const { bytes } = await c.var.services.imports.checkFile(ctx, form.file);
      const report = await service.import(ctx, bytes.buffer, {
        dryRun: form.dryRun === 'true',
        retireMissing: form.retireMissing === 'true',
      });
      return c.json(report, 200);
    });

export const districts = resourceModule(districtResource, {
  service: createDistrictService,
  routes: actions,
  omit: ['import'],
});
