import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { recordAction } from '../../../core/route';
import { DoctorType, doctorTypeResource, MoveDoctors } from './doctor-type.resource';
import { createDoctorTypeService, type DoctorTypeService } from './doctor-type.service';

const moveDoctors = recordAction({
  path: 'people/doctor-type',
  verb: 'move-doctors',
  summary: 'Move every doctor of the type to another type (so that it may then be deleted)',
  permission: 'people:doctor-type:update',
  body: MoveDoctors,
  answer: ['The type, without its doctors', DoctorType],
});

const actions = (service: DoctorTypeService) =>
  new OpenAPIHono<AppEnv>().openapi(moveDoctors, async (c) =>
    c.json(await service.moveDoctors(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );

export const doctorTypes = resourceModule(doctorTypeResource, { service: createDoctorTypeService, routes: actions });
