import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers } from '../../../core/openapi';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import {
  MoveOrganization,
  Organization,
  OrganizationNode,
  OrganizationTreeQuery,
  organizationResource,
} from './organization.resource';
import { createOrganizationService, type OrganizationService } from './organization.service';

const tags = ['people/organization'];

const tree = defineRoute({
  method: 'get',
  path: '/people/organization/tree',
  tags,
  summary: 'One level of the organisation tree (the roots, or the children of `parentId`), each with `hasChildren`',
  permission: 'people:organization:list',
  request: { query: OrganizationTreeQuery },
  responses: answers('Nodes', z.array(OrganizationNode), 400, 401, 403),
});

const move = recordAction({
  path: 'people/organization',
  verb: 'move',
  summary:
    'Move an organisation and its subtree under another parent (or to the top): not under itself or a subordinate, only where its type may sit',
  permission: 'people:organization:move',
  body: MoveOrganization,
  answer: ['The moved organisation', Organization],
});

/** The tree and the move come before the generic routes, so `/tree` is never read as an id. */
const actions = (service: OrganizationService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(tree, async (c) => {
      const { parentId, status } = c.req.valid('query');
      return c.json(await service.tree(c.var.principal.tenantId, parentId, status), 200);
    })
    .openapi(move, async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await service.move(writeContext(c), id, c.req.valid('json')), 200);
    });

export const organizations = resourceModule(organizationResource, {
  service: createOrganizationService,
  routes: actions,
});
