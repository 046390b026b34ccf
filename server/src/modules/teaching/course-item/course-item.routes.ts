import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, json } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import {
  CourseItem,
  courseItemResource,
  ItemAction,
  ItemProgress,
  OutlineQuery,
  RecordProgress,
  ReorderItems,
  ReplaceMedia,
} from './course-item.resource';
import { type CourseItemService, createCourseItemService } from './course-item.service';

const path = 'teaching/course-item';
const tags = [path];
const answer: [string, typeof CourseItem] = ['The item', CourseItem];

const publish = recordAction({
  path,
  verb: 'publish',
  summary: 'Publish a draft or hidden item (a quiz: its paper is published)',
  permission: 'teaching:course-item:publish',
  body: ItemAction,
  answer,
});
const hide = recordAction({
  path,
  verb: 'hide',
  summary: 'Hide a published item from the course (progress on it is kept)',
  permission: 'teaching:course-item:publish',
  body: ItemAction,
  answer,
});
const replaceMedia = recordAction({
  path,
  verb: 'replace-media',
  summary:
    "Replace a video's file by another uploaded one: the old one is let go, the new one is processed (pending, then ready with its length, or failed)",
  permission: 'teaching:course-item:update',
  body: ReplaceMedia,
  answer,
});
const retryMedia = recordAction({
  path,
  verb: 'retry-media',
  summary: "Process a video's file again after it failed",
  permission: 'teaching:course-item:update',
  body: ItemAction,
  answer,
});
const reorder = defineRoute({
  method: 'post',
  path: `/${path}/reorder`,
  tags,
  summary: 'Put every item of a course in a new order, each in its chapter (or at the top): all of them, or none',
  permission: 'teaching:course-item:update',
  request: { body: { required: true, content: json(ReorderItems) } },
  responses: answers('How many moved', z.object({ moved: z.number().int() }), 400, 401, 403, 404),
});
const outline = defineRoute({
  method: 'get',
  path: `/${path}/outline`,
  tags,
  summary:
    'Every item of one course in its order (chapters, and the items in or beside them): its outline and its chapters',
  permission: 'teaching:course-item:list',
  request: { query: OutlineQuery },
  responses: answers('The items, by sort', z.array(CourseItem), 400, 401, 403, 404),
});
const progress = defineRoute({
  method: 'get',
  path: `/${path}/{id}/progress`,
  tags,
  summary: "Each trainee on the item's course (within your data scope), with their progress on it",
  permission: 'teaching:course-item:list',
  request: { params: IdParam },
  responses: answers('The progress', z.array(ItemProgress), 400, 401, 403, 404),
});
const recordProgress = recordAction({
  path,
  verb: 'progress',
  summary:
    "A trainee's progress on a published item, as the learning client reports it or as staff record it: complete at the item's threshold (a quiz at its paper's pass mark); the enrolment follows",
  permission: 'teaching:course-item:progress',
  body: RecordProgress,
  answer,
});

const actions = (service: CourseItemService): OpenAPIHono<AppEnv> =>
  new OpenAPIHono<AppEnv>()
    .openapi(reorder, async (c) => c.json(await service.reorder(writeContext(c), c.req.valid('json')), 200))
    .openapi(outline, async (c) =>
      c.json(await service.outline(c.var.principal.tenantId, c.req.valid('query').courseId), 200),
    )
    .openapi(publish, async (c) =>
      c.json(await service.publish(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(hide, async (c) =>
      c.json(await service.hide(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(replaceMedia, async (c) =>
      c.json(await service.replaceMedia(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(retryMedia, async (c) =>
      c.json(await service.retryMedia(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(progress, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return c.json(await service.progress(tenantId, c.req.valid('param').id, userId), 200);
    })
    .openapi(recordProgress, async (c) =>
      c.json(await service.recordProgress(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    );

export const courseItems = resourceModule(courseItemResource, {
  service: createCourseItemService,
  routes: actions,
  omit: ['import', 'template'],
});
