import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import { DocumentBase, documentBaseResource, GrantRow, SetGrants } from './document-base.resource';
import { createDocumentBaseService, type DocumentBaseService } from './document-base.service';

const path = 'content/document-base';

const grants = defineRoute({
  method: 'get',
  path: `/${path}/{id}/grants`,
  tags: [path],
  summary: 'Who may view, download or manage the library',
  permission: 'doc:base:list',
  request: { params: IdParam },
  responses: answers('The grants', z.array(GrantRow), 400, 401, 403, 404),
});
const setGrants = recordAction({
  method: 'put',
  path,
  verb: 'grants',
  summary: 'Replace every grant of the library (roles, organisations, trainee types, users; view, download, manage)',
  permission: 'doc:base:grant',
  body: SetGrants,
  answer: [
    'The library and its grants',
    z.object({ base: DocumentBase, grants: z.array(GrantRow) }).openapi('DocumentBaseGranted'),
  ],
});

const actions = (service: DocumentBaseService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(grants, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return c.json(await service.grants(tenantId, c.req.valid('param').id, userId), 200);
    })
    .openapi(setGrants, async (c) =>
      c.json(await service.setGrants(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    );

export const documentBases = resourceModule(documentBaseResource, {
  service: createDocumentBaseService,
  routes: actions,
  omit: ['import', 'template'],
});
