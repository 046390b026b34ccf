import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { resourceModule } from '../../../core/resource/resource.module';
import { recordActions, writeContext } from '../../../core/resource/resource.routes';
import { RevealedIdNo } from '../trainee/trainee.resource';
import { doctorResource } from './doctor.resource';
import { createDoctorService, type DoctorService } from './doctor.service';

const path = 'people/doctor';

const reveal = recordActions(path, [path], {
  description: 'The ID number in clear (audited)',
  schema: RevealedIdNo,
  errors: [400, 401, 403, 404],
})('reveal-id', 'people:doctor:pii-view', 'Show the ID number in clear; the audit trail records who saw it');

const actions = (service: DoctorService) =>
  new OpenAPIHono<AppEnv>().openapi(reveal, async (c) =>
    c.json({ idNo: await service.reveal(writeContext(c), c.req.valid('param').id) }, 200),
  );

export const doctors = resourceModule(doctorResource, { service: createDoctorService, routes: actions });
