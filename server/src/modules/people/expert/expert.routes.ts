import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { resourceModule } from '../../../core/resource/resource.module';
import { recordActions, writeContext } from '../../../core/resource/resource.routes';
import { recordAction } from '../../../core/route';
import { RevealedIdNo } from '../trainee/trainee.resource';
import { ChangeExpertStatus, Expert, expertResource, PromoteExpert } from './expert.resource';
import { createExpertService, type ExpertService } from './expert.service';

const path = 'people/expert';

const changeStatus = recordAction({
  path,
  verb: 'status',
  summary:
    'Move the expert through review, activation (the person holds an approved qualification), suspension, renewal or retirement',
  permission: 'expert:expert:change-status',
  body: ChangeExpertStatus,
  answer: ['The expert', Expert],
});
const promote = recordAction({
  path: 'people/doctor',
  verb: 'promote-expert',
  summary: 'Make the doctor an expert (nominated, applied): the same person, their department and title by default',
  permission: 'people:doctor:promote-expert',
  body: PromoteExpert,
  answer: ['The expert', Expert],
});
const reveal = recordActions(path, [path], {
  description: 'The ID number in clear (audited)',
  schema: RevealedIdNo,
  errors: [400, 401, 403, 404],
})('reveal-id', 'expert:expert:pii-view', 'Show the ID number in clear; the audit trail records who saw it');

const actions = (service: ExpertService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(changeStatus, async (c) =>
      c.json(await service.changeStatus(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(promote, async (c) =>
      c.json(await service.promote(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(reveal, async (c) =>
      c.json({ idNo: await service.reveal(writeContext(c), c.req.valid('param').id) }, 200),
    );

export const experts = resourceModule(expertResource, {
  service: createExpertService,
  routes: actions,
  omit: ['import', 'template'],
});
