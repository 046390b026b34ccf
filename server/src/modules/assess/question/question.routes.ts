import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, json } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import { Attachment } from '../../file/file/file.resource';
import {
  BulkUpdateQuestions,
  Duplicate,
  FindDuplicates,
  Question,
  QuestionStatistics,
  QuestionTagQuery,
  QuestionUse,
  QuestionVersion,
  questionResource,
  ReviewQuestion,
  SubmitQuestion,
} from './question.resource';
import { createQuestionService, type QuestionService } from './question.service';

const path = 'assess/question';
const tags = [path];
const answer: [string, typeof Question] = ['The question', Question];

const submit = recordAction({
  path,
  verb: 'submit',
  summary: 'Submit a draft (or a rejected question) for review',
  permission: 'assess:question:update',
  body: SubmitQuestion,
  answer,
});
const review = recordAction({
  path,
  verb: 'review',
  summary: 'Approve (it becomes ready) or reject (a comment is required) a question submitted for review',
  permission: 'assess:question:review',
  body: ReviewQuestion,
  answer,
});
const bulkUpdate = defineRoute({
  method: 'post',
  path: `/${path}/bulk-update`,
  tags,
  summary:
    'Change several questions at once (category, difficulty, tags, knowledge points, status): all of them or, when one may not be changed, none',
  permission: 'assess:question:bulk-update',
  request: { body: { required: true, content: json(BulkUpdateQuestions) } },
  responses: answers('The questions', z.array(Question), 400, 401, 403, 404, 409),
});
const duplicates = defineRoute({
  method: 'post',
  path: `/${path}/duplicates`,
  tags,
  summary: 'The likely duplicates of a question being written: the same normalised text, or a similar stem',
  permission: 'assess:question:list',
  request: { body: { required: true, content: json(FindDuplicates) } },
  responses: answers('The likely duplicates, the most alike first', z.array(Duplicate), 400, 401, 403),
});
const tagsRoute = defineRoute({
  method: 'get',
  path: `/${path}/tags`,
  tags,
  summary:
    "The tags questions may be given and found by: the tag catalogue's question scope (a tag given to a question joins it), those holding the keyword",
  permission: 'assess:question:list',
  request: { query: QuestionTagQuery },
  responses: answers('The tags, in the catalogue order', z.array(z.string()), 400, 401, 403),
});
const versions = defineRoute({
  method: 'get',
  path: `/${path}/{id}/versions`,
  tags,
  summary: 'Every version of the question, newest first, with the question as it was',
  permission: 'assess:question:list',
  request: { params: IdParam },
  responses: answers('The versions', z.array(QuestionVersion), 400, 401, 403, 404),
});

const uses = defineRoute({
  method: 'get',
  path: `/${path}/{id}/papers`,
  tags,
  summary: 'The papers that hold the question, each with the version it pins (none while the paper is a draft)',
  permission: 'assess:question:list',
  request: { params: IdParam },
  responses: answers('The papers', z.array(QuestionUse), 400, 401, 403, 404),
});

const statistics = defineRoute({
  method: 'get',
  path: `/${path}/{id}/statistics`,
  tags,
  summary:
    'How the question is used: by how many papers (by status) and how often published, when last, its versions, and the draft papers whose random rules may draw it',
  permission: 'assess:question:list',
  request: { params: IdParam },
  responses: answers('Its statistics', QuestionStatistics, 400, 401, 403, 404),
});

const attachments = defineRoute({
  method: 'get',
  path: `/${path}/{id}/attachments`,
  tags,
  summary:
    'The images the question holds (those any of its versions shows), each with a link to show it and one to download it (signed, expiring)',
  permission: 'assess:question:list',
  request: { params: IdParam },
  responses: answers('The images', z.array(Attachment), 400, 401, 403, 404, 502),
});

/**
 * The fixed paths come before the generic routes, so that `/duplicates` is never read as an id. Typed as a plain app:
 * a handler reaches the file service through `c.var.services`, whose type is made of these routes.
 */
const actions = (service: QuestionService): OpenAPIHono<AppEnv> =>
  new OpenAPIHono<AppEnv>()
    .openapi(bulkUpdate, async (c) => c.json(await service.bulkUpdate(writeContext(c), c.req.valid('json')), 200))
    .openapi(tagsRoute, async (c) =>
      c.json(await service.tags(c.var.principal.tenantId, c.req.valid('query').keyword), 200),
    )
    .openapi(duplicates, async (c) =>
      c.json(await service.duplicates(c.var.principal.tenantId, c.req.valid('json'), c.var.principal.userId), 200),
    )
    .openapi(submit, async (c) =>
      c.json(await service.submit(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(review, async (c) =>
      c.json(await service.review(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(uses, async (c) =>
      c.json(await service.papers(c.var.principal.tenantId, c.req.valid('param').id, c.var.principal.userId), 200),
    )
    .openapi(statistics, async (c) =>
      c.json(await service.statistics(c.var.principal.tenantId, c.req.valid('param').id, c.var.principal.userId), 200),
    )
    .openapi(attachments, async (c) => {
      const { tenantId, userId } = c.var.principal;
      const ids = await service.media(tenantId, c.req.valid('param').id, userId);
      return c.json(await c.var.services.files.attachments(tenantId, ids), 200);
    })
    .openapi(versions, async (c) =>
      c.json(await service.versions(c.var.principal.tenantId, c.req.valid('param').id, c.var.principal.userId), 200),
    );

export const questions = resourceModule(questionResource, {
  service: createQuestionService,
  routes: actions,
});
