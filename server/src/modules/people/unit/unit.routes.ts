import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import { MergeUnits, Unit, UnitAlias, unitResource } from './unit.resource';
import { createUnitService, type UnitService } from './unit.service';

const tags = ['people/unit'];

const merge = recordAction({
  path: 'people/unit',
  verb: 'merge',
  summary:
    'Merge duplicates into this unit: their references move here, their names and credit codes stay as aliases, they are deleted',
  permission: 'people:unit:merge',
  body: MergeUnits,
  answer: ['The unit kept', Unit],
});

const aliases = defineRoute({
  method: 'get',
  path: '/people/unit/{id}/aliases',
  tags,
  summary: 'The names of the units merged into this one, newest first',
  permission: 'people:unit:list',
  request: { params: IdParam },
  responses: answers('Aliases', z.array(UnitAlias), 400, 401, 403, 404),
});

const actions = (service: UnitService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(merge, async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await service.merge(writeContext(c), id, c.req.valid('json')), 200);
    })
    .openapi(aliases, async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await service.aliases(c.var.principal.tenantId, id), 200);
    });

export const units = resourceModule(unitResource, { service: createUnitService, routes: actions });
