import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { recordAction } from '../../../core/route';
import { CloneTraineeType, TraineeType, traineeTypeResource } from './trainee-type.resource';
import { createTraineeTypeService, type TraineeTypeService } from './trainee-type.service';

const clone = recordAction({
  path: 'people/trainee-type',
  verb: 'clone',
  summary: 'A copy of the type, with its active fields, under a code and name of its own',
  permission: 'people:trainee-type:clone',
  body: CloneTraineeType,
  answer: ['The new type', TraineeType],
});

const actions = (service: TraineeTypeService) =>
  new OpenAPIHono<AppEnv>().openapi(clone, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await service.clone(writeContext(c), id, c.req.valid('json')), 200);
  });

export const traineeTypes = resourceModule(traineeTypeResource, {
  service: createTraineeTypeService,
  routes: actions,
});
