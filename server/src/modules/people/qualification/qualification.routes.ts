import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, json } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import { Attachment } from '../../file/file/file.resource';
import {
  ApproveQualifications,
  Qualification,
  QualificationReview,
  qualificationResource,
  ReviewQualification,
  RevokeQualification,
  SubmitQualification,
} from './qualification.resource';
import { createQualificationService, type QualificationService } from './qualification.service';

const path = 'people/qualification';
const answer: [string, typeof Qualification] = ['The qualification', Qualification];

const submit = recordAction({
  path,
  verb: 'submit',
  summary: 'Submit a draft (or a record sent back) for review',
  permission: 'expert:qualification:update',
  body: SubmitQualification,
  answer,
});
const review = recordAction({
  path,
  verb: 'review',
  summary: 'Approve, reject or return a submitted record (a comment is required to reject or return)',
  permission: 'expert:qualification:review',
  body: ReviewQualification,
  answer,
});
const revoke = recordAction({
  path,
  verb: 'revoke',
  summary: 'Revoke an approved record, with the reason',
  permission: 'expert:qualification:revoke',
  body: RevokeQualification,
  answer,
});
const approveMany = defineRoute({
  method: 'post',
  path: `/${path}/approve`,
  tags: [path],
  summary: 'Approve several submitted records at once: all of them or, when one may not be approved, none',
  permission: 'expert:qualification:review',
  request: { body: { required: true, content: json(ApproveQualifications) } },
  responses: answers('The qualifications', z.array(Qualification), 400, 401, 403, 404, 409),
});
const reviews = defineRoute({
  method: 'get',
  path: `/${path}/{id}/reviews`,
  tags: [path],
  summary: 'Every step of the review (submitted, approved, rejected, returned, revoked, expired), newest first',
  permission: 'expert:qualification:list',
  request: { params: IdParam },
  responses: answers('The review history', z.array(QualificationReview), 400, 401, 403, 404),
});

const attachments = defineRoute({
  method: 'get',
  path: `/${path}/{id}/attachments`,
  tags: [path],
  summary: 'The files the record holds, each with a link to show it and one to download it (signed, expiring)',
  permission: 'expert:qualification:list',
  request: { params: IdParam },
  responses: answers('The attachments', z.array(Attachment), 400, 401, 403, 404, 502),
});

// typed as a plain app: a handler reaches the file service through `c.var.services`, whose type is made of these routes
const actions = (service: QualificationService): OpenAPIHono<AppEnv> =>
  new OpenAPIHono<AppEnv>()
    .openapi(approveMany, async (c) => c.json(await service.approveMany(writeContext(c), c.req.valid('json')), 200))
    .openapi(submit, async (c) =>
      c.json(await service.submit(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(review, async (c) =>
      c.json(await service.review(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(revoke, async (c) =>
      c.json(await service.revoke(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(attachments, async (c) => {
      const { tenantId, userId } = c.var.principal;
      const record = await service.resource.get(tenantId, c.req.valid('param').id, userId);
      return c.json(await c.var.services.files.attachments(tenantId, record.attachmentFileIds), 200);
    })
    .openapi(reviews, async (c) =>
      c.json(await service.reviews(c.var.principal.tenantId, c.req.valid('param').id, c.var.principal.userId), 200),
    );

export const qualifications = resourceModule(qualificationResource, {
  service: createQualificationService,
  routes: actions,
  omit: ['import', 'template'],
});
