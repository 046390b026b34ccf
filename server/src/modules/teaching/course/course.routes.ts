import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, errorResponses, json } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { sendSheet, writeContext, xlsx } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import {
  Assigned,
  CloneCourse,
  Course,
  CourseAction,
  courseResource,
  Enrolment,
  EnrolmentsChanged,
  EnrolTrainees,
  RemoveEnrolments,
} from './course.resource';
import { type CourseService, createCourseService } from './course.service';

const path = 'teaching/course';
const tags = [path];
const answer: [string, typeof Course] = ['The course', Course];

const publish = recordAction({
  path,
  verb: 'publish',
  summary: 'Publish a draft or offline course: one of its items is published, and its final paper if it has one',
  permission: 'teaching:course:publish',
  body: CourseAction,
  answer,
});
const offline = recordAction({
  path,
  verb: 'offline',
  summary: 'Take a published course offline (its enrolments stay)',
  permission: 'teaching:course:publish',
  body: CourseAction,
  answer,
});
const assign = recordAction({
  path,
  verb: 'assign',
  summary: 'Enrol the trainees in training its audience names (those already enrolled stay as they are)',
  permission: 'teaching:course:assign',
  body: CourseAction,
  answer: ['How many were enrolled, and the course', Assigned],
});
const enrol = recordAction({
  path,
  verb: 'enrol',
  summary:
    'Enrol trainees by hand (in training, within your data scope) on a published course: all of them or none; those already on it stay',
  permission: 'teaching:course:assign',
  body: EnrolTrainees,
  answer: ['How many were enrolled, and the course', EnrolmentsChanged],
});
const unenrol = recordAction({
  path,
  verb: 'unenrol',
  summary:
    'Take trainees off the course with their progress on it: all of them or none; a completed enrolment is refused (it is their record)',
  permission: 'teaching:course:assign',
  body: RemoveEnrolments,
  answer: ['How many were removed, and the course', EnrolmentsChanged],
});
const clone = defineRoute({
  method: 'post',
  path: `/${path}/{id}/clone`,
  tags,
  summary: 'A new draft with the settings and items of the course, under another code and title',
  permission: 'teaching:course:clone',
  request: { params: IdParam, body: { required: true, content: json(CloneCourse) } },
  responses: { 201: { description: 'The new course', content: json(Course) }, ...errorResponses(400, 401, 403, 404) },
});
const enrolments = defineRoute({
  method: 'get',
  path: `/${path}/{id}/enrolments`,
  tags,
  summary: 'The trainees on the course (within your data scope) with their progress and completion, by trainee number',
  permission: 'teaching:course:list',
  request: { params: IdParam },
  responses: answers('The enrolments', z.array(Enrolment), 400, 401, 403, 404),
});
const report = defineRoute({
  method: 'get',
  path: `/${path}/{id}/report`,
  tags,
  summary: 'The progress and completion report of the course, of the trainees within your data scope (xlsx)',
  permission: 'teaching:course:export',
  request: { params: IdParam },
  responses: { 200: xlsx('The report'), ...errorResponses(400, 401, 403, 404) },
});

const actions = (service: CourseService): OpenAPIHono<AppEnv> =>
  new OpenAPIHono<AppEnv>()
    .openapi(publish, async (c) =>
      c.json(await service.publish(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(offline, async (c) =>
      c.json(await service.offline(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(assign, async (c) =>
      c.json(await service.assign(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(enrol, async (c) =>
      c.json(await service.enrol(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(unenrol, async (c) =>
      c.json(await service.unenrol(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(clone, async (c) =>
      c.json(await service.clone(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 201),
    )
    .openapi(enrolments, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return c.json(await service.enrolments(tenantId, c.req.valid('param').id, userId), 200);
    })
    .openapi(report, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return sendSheet(c, await service.report(tenantId, c.req.valid('param').id, c.var.lang, userId)) as never;
    });

export const courses = resourceModule(courseResource, {
  service: createCourseService,
  routes: actions,
  omit: ['import', 'template'],
});
