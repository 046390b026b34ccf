import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers } from '../../../core/openapi';
import { resourceModule } from '../../../core/resource/resource.module';
import { defineRoute } from '../../../core/route';
import { industryResource } from './industry.resource';
import { IndustryNode, IndustryTreeQuery } from './industry.schema';
import { createIndustryService, type IndustryService } from './industry.service';

const tree = defineRoute({
  method: 'get',
  path: '/dictionary/industry/tree',
  tags: ['dictionary/industry'],
  summary: 'One level of the classification (the sections, or the children of `parentCode`), each with `hasChildren`',
  permission: 'dictionary:industry:list',
  request: { query: IndustryTreeQuery },
  responses: answers('Nodes', z.array(IndustryNode), 400, 401, 403),
});

const actions = (service: IndustryService) =>
  new OpenAPIHono<AppEnv>().openapi(tree, async (c) => {
    const { parentCode, status } = c.req.valid('query');
    return c.json(await service.tree(c.var.principal.tenantId, parentCode, status), 200);
  });

export const industries = resourceModule(industryResource, { service: createIndustryService, routes: actions });
