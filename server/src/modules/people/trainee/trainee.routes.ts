import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, json } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { recordActions, writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, type PermissionCode, recordAction } from '../../../core/route';
import {
  AssignTutor,
  AuditTrainee,
  AuditTrainees,
  DecideBaseChange,
  RequestBaseChange,
  RevealedIdNo,
  SubmitTrainee,
  Trainee,
  TraineeBaseChange,
  TraineeCounts,
  TraineeHistory,
  TransitionTrainee,
  TransitionTrainees,
  traineeResource,
} from './trainee.resource';
import { createTraineeService, type TraineeService } from './trainee.service';

const path = 'people/trainee';
const tags = [path];

/** An action on one trainee, answering the trainee as it now is. */
const act = <B extends z.ZodType>(verb: string, body: B, permission: PermissionCode, summary: string) =>
  recordAction({ path, verb, summary, permission, body, answer: ['The trainee', Trainee] });
const transition = act(
  'transition',
  TransitionTrainee,
  'trainee:trainee:change-status',
  'Move the trainee through its lifecycle (reason and date kept in its history)',
);
const submit = act(
  'submit',
  SubmitTrainee,
  'trainee:trainee:update',
  "Send the registration to the first level of its type's audit",
);
const audit = act(
  'audit',
  AuditTrainee,
  'trainee:trainee:audit',
  "Approve or reject the registration at its current level (the actor holds that level's role)",
);
const requestBaseChange = act(
  'request-base-change',
  RequestBaseChange,
  'trainee:trainee:change-base',
  'Ask to move a trainee in training to another training base (and specialty base), with the reason and date',
);
const decideBaseChange = act(
  'decide-base-change',
  DecideBaseChange,
  'trainee:trainee:change-base',
  "Approve (the trainee moves; the move joins its history) or reject the trainee's change of base awaiting a decision",
);
const reveal = recordActions(path, tags, {
  description: 'The ID number in clear (audited)',
  schema: RevealedIdNo,
  errors: [400, 401, 403, 404],
})('reveal-id', 'trainee:trainee:pii-view', 'Show the ID number in clear; the audit trail records who saw it');

const many = <B extends z.ZodType>(verb: string, body: B, permission: PermissionCode, summary: string) =>
  defineRoute({
    method: 'post',
    path: `/${path}/${verb}`,
    tags,
    summary,
    permission,
    request: { body: { required: true, content: json(body) } },
    responses: answers('The trainees', z.array(Trainee), 400, 401, 403, 404, 409),
  });
const transitionMany = many(
  'transition',
  TransitionTrainees,
  'trainee:trainee:change-status',
  'Move several trainees at once: all of them or, when one may not move, none',
);
const auditMany = many(
  'audit',
  AuditTrainees,
  'trainee:trainee:audit',
  'Decide several registrations at their current levels: all of them or none',
);

const assignTutor = many(
  'assign-tutor',
  AssignTutor,
  'trainee:trainee:assign-tutor',
  'Give several trainees one tutor (an active doctor who tutors), or none: all of them or none',
);

const history = defineRoute({
  method: 'get',
  path: `/${path}/{id}/history`,
  tags,
  summary: 'The lifecycle moves and audit decisions of the trainee, newest first',
  permission: 'trainee:trainee:list',
  request: { params: IdParam },
  responses: answers('History', z.array(TraineeHistory), 400, 401, 403, 404),
});
const baseChanges = defineRoute({
  method: 'get',
  path: `/${path}/{id}/base-changes`,
  tags,
  summary: "The trainee's changes of base asked for, newest first, with their decisions",
  permission: 'trainee:trainee:list',
  request: { params: IdParam },
  responses: answers('Changes of base', z.array(TraineeBaseChange), 400, 401, 403, 404),
});
const counts = defineRoute({
  method: 'get',
  path: `/${path}/counts`,
  tags,
  summary: 'Trainees of each type by status',
  permission: ['trainee:trainee:list', 'trainee:by-type:list'],
  responses: answers('Counts', TraineeCounts, 401, 403),
});

const actions = (service: TraineeService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(counts, async (c) => c.json(await service.counts(c.var.principal.tenantId, c.var.principal.userId), 200))
    .openapi(transitionMany, async (c) =>
      c.json(await service.transitionMany(writeContext(c), c.req.valid('json')), 200),
    )
    .openapi(auditMany, async (c) => c.json(await service.auditMany(writeContext(c), c.req.valid('json')), 200))
    .openapi(assignTutor, async (c) => c.json(await service.assignTutor(writeContext(c), c.req.valid('json')), 200))
    .openapi(transition, async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await service.transition(writeContext(c), id, c.req.valid('json')), 200);
    })
    .openapi(submit, async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await service.submit(writeContext(c), id, c.req.valid('json').version), 200);
    })
    .openapi(audit, async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await service.audit(writeContext(c), id, c.req.valid('json')), 200);
    })
    .openapi(reveal, async (c) => {
      const { id } = c.req.valid('param');
      return c.json({ idNo: await service.reveal(writeContext(c), id) }, 200);
    })
    .openapi(requestBaseChange, async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await service.baseChanges.request(writeContext(c), id, c.req.valid('json')), 200);
    })
    .openapi(decideBaseChange, async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await service.baseChanges.decide(writeContext(c), id, c.req.valid('json')), 200);
    })
    .openapi(baseChanges, async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await service.baseChanges.list(c.var.principal.tenantId, id, c.var.principal.userId), 200);
    })
    .openapi(history, async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await service.history(c.var.principal.tenantId, id, c.var.principal.userId), 200);
    });

export const trainees = resourceModule(traineeResource, {
  service: createTraineeService,
  routes: actions,
});
