import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, json } from '../../../core/openapi';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import {
  ArchiveTraineeField,
  ReorderTraineeFields,
  TraineeField,
  traineeFieldResource,
} from './trainee-field.resource';
import { createTraineeFieldService, type TraineeFieldService } from './trainee-field.service';

const tags = ['people/trainee-field'];

const reorder = defineRoute({
  method: 'post',
  path: '/people/trainee-field/reorder',
  tags,
  summary: "Set the order of a trainee type's fields: every field of the type, once, in the new order",
  permission: 'people:trainee-field:reorder',
  request: { body: { required: true, content: json(ReorderTraineeFields) } },
  responses: answers("The type's fields in their new order", z.array(TraineeField), 400, 401, 403),
});

const status = (verb: 'archive' | 'restore', summary: string) =>
  recordAction({
    path: 'people/trainee-field',
    verb,
    summary,
    permission: 'people:trainee-field:archive',
    body: ArchiveTraineeField,
    answer: ['The field', TraineeField],
  });
const archive = status('archive', 'Archive a field: it leaves forms, lists and sheets; the values given are kept');
const restore = status('restore', 'Bring an archived field back');

const actions = (service: TraineeFieldService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(reorder, async (c) => c.json(await service.reorder(writeContext(c), c.req.valid('json')), 200))
    .openapi(archive, async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await service.setStatus(writeContext(c), id, c.req.valid('json').version, 'archived'), 200);
    })
    .openapi(restore, async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await service.setStatus(writeContext(c), id, c.req.valid('json').version, 'active'), 200);
    });

export const traineeFields = resourceModule(traineeFieldResource, {
  service: createTraineeFieldService,
  routes: actions,
});
