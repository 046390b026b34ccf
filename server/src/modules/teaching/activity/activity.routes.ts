import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, errorResponses, json } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { sendSheet, writeContext, xlsx } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import {
  Activity,
  ActivityAction,
  ActivityFileLinks,
  ActivityFiles,
  ActivityStats,
  AddParticipants,
  activityResource,
  CancelActivity,
  CorrectAttendance,
  HostStats,
  Participant,
  Rate,
  RatingAccess,
  RatingCode,
  RatingGranted,
  SignedIn,
  SignIn,
  SignInCode,
  StatsQuery,
} from './activity.resource';
import { type ActivityService, createActivityService } from './activity.service';

const path = 'teaching/activity';
const tags = [path];
const answer: [string, typeof Activity] = ['The activity', Activity];

const publish = recordAction({
  path,
  verb: 'publish',
  summary:
    'Publish a draft: its audience (trainees in training of the types, bases and cohorts named) becomes its list',
  permission: 'teaching:activity:publish',
  body: ActivityAction,
  answer,
});
const cancel = recordAction({
  path,
  verb: 'cancel',
  summary: 'Cancel a draft or published activity, with the reason (a published one tells its participants)',
  permission: 'teaching:activity:publish',
  body: CancelActivity,
  answer,
});
const complete = recordAction({
  path,
  verb: 'complete',
  summary: 'Complete a published activity once it has started: who never signed in (and was not excused) is absent',
  permission: 'teaching:activity:publish',
  body: ActivityAction,
  answer,
});
const listParticipants = defineRoute({
  method: 'get',
  path: `/${path}/{id}/participants`,
  tags,
  summary: 'The trainees on its list, with their attendance and rating, by trainee number',
  permission: 'teaching:activity:list',
  request: { params: IdParam },
  responses: answers('The participants', z.array(Participant), 400, 401, 403, 404),
});
const addParticipants = recordAction({
  path,
  verb: 'participants',
  summary: 'Add trainees (within your data scope) to the list of a published activity, within its capacity',
  permission: 'teaching:activity:attendance',
  body: AddParticipants,
  answer,
});
const correct = recordAction({
  path,
  verb: 'attendance',
  summary:
    'Set the attendance of trainees on the list by hand, with a note (left out: kept): all of them or, when one is not listed, none',
  permission: 'teaching:activity:attendance',
  body: CorrectAttendance,
  answer,
});
const signInCode = defineRoute({
  method: 'get',
  path: `/${path}/{id}/sign-in-code`,
  tags,
  summary: `The sign-in code to show now (as a QR code): signed, it changes every 30 seconds and is taken for one minute, while sign-in is open (its window as set, by default from 30 minutes before the start to the end)`,
  permission: 'teaching:activity:attendance',
  request: { params: IdParam },
  responses: answers('The code', SignInCode, 400, 401, 403, 404, 409),
});
const files = defineRoute({
  method: 'get',
  path: `/${path}/{id}/files`,
  tags,
  summary: 'Its slides and evidence photos, each with a link to show it and one to download it (signed, expiring)',
  permission: 'teaching:activity:list',
  request: { params: IdParam },
  responses: answers('The files', ActivityFileLinks, 400, 401, 403, 404, 502),
});
const setFiles = recordAction({
  path,
  verb: 'files',
  summary:
    'Set its slides and evidence photos (files uploaded as attachments; a list left out is kept, the files no longer listed are let go), but when cancelled',
  permission: 'teaching:activity:update',
  body: ActivityFiles,
  answer,
});
const sheet = defineRoute({
  method: 'get',
  path: `/${path}/{id}/attendance-sheet`,
  tags,
  summary: 'The attendance sheet of the activity (xlsx)',
  permission: 'teaching:activity:export',
  request: { params: IdParam },
  responses: { 200: xlsx('The sheet'), ...errorResponses(400, 401, 403, 404) },
});
const stats = defineRoute({
  method: 'get',
  path: `/${path}/stats`,
  tags,
  summary:
    'Published and completed activities by month, department and type: how many, the trainees listed and those who came, the average rating',
  permission: 'teaching:activity:list',
  request: { query: StatsQuery },
  responses: answers('The figures', z.array(ActivityStats), 400, 401, 403),
});
const hostStats = defineRoute({
  method: 'get',
  path: `/${path}/host-stats`,
  tags,
  summary:
    'The same activities by host: each counts for its host and each co-host, with its trainees listed and those who came, its ratings',
  permission: 'teaching:activity:list',
  request: { query: StatsQuery },
  responses: answers('The figures', z.array(HostStats), 400, 401, 403),
});
const signIn = defineRoute({
  method: 'post',
  path: `/${path}/sign-in`,
  tags,
  summary:
    'A trainee signs in with the code they scanned, their trainee number and name (no account: the code is the proof of presence)',
  permission: 'public',
  request: { body: { required: true, content: json(SignIn) } },
  responses: answers('Signed in', SignedIn, 400, 403, 409),
});
const ratingCode = defineRoute({
  method: 'get',
  path: `/${path}/{id}/rating-code`,
  tags,
  summary:
    'The rating code to show (as a QR code) to those who came, from the start of an evaluated activity to 14 days after its end',
  permission: 'teaching:activity:attendance',
  request: { params: IdParam },
  responses: answers('The code', RatingCode, 400, 401, 403, 404, 409),
});
const ratingAccess = defineRoute({
  method: 'post',
  path: `/${path}/rating-token`,
  tags,
  summary:
    'A trainee who came (by code or by hand) gives the rating code, their trainee number and name, and is given a token to rate once',
  permission: 'public',
  request: { body: { required: true, content: json(RatingAccess) } },
  responses: answers('The token', RatingGranted, 400, 403, 409),
});
const rate = defineRoute({
  method: 'post',
  path: `/${path}/rate`,
  tags,
  summary:
    'A trainee who came rates the activity (1–5) with a comment, once, with the token their sign-in or the rating code gave',
  permission: 'public',
  request: { body: { required: true, content: json(Rate) } },
  responses: answers(
    'The rating taken',
    z.object({ avgRating: z.number().nullable(), ratingCount: z.number().int() }),
    400,
    403,
    409,
  ),
});

const actions = (service: ActivityService): OpenAPIHono<AppEnv> =>
  new OpenAPIHono<AppEnv>()
    .openapi(signIn, async (c) => c.json(await service.signIn(c.req.valid('json'), c.var.lang), 200))
    .openapi(ratingAccess, async (c) => c.json(await service.ratingAccess(c.req.valid('json')), 200))
    .openapi(rate, async (c) => c.json(await service.rate(c.req.valid('json')), 200))
    .openapi(stats, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return c.json(await service.stats(tenantId, c.req.valid('query'), userId), 200);
    })
    .openapi(hostStats, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return c.json(await service.hostStats(tenantId, c.req.valid('query'), userId), 200);
    })
    .openapi(publish, async (c) =>
      c.json(await service.publish(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(cancel, async (c) =>
      c.json(await service.cancel(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(complete, async (c) =>
      c.json(await service.complete(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(listParticipants, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return c.json(await service.participants(tenantId, c.req.valid('param').id, userId), 200);
    })
    .openapi(addParticipants, async (c) =>
      c.json(await service.addParticipants(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(correct, async (c) =>
      c.json(await service.correctAttendance(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(signInCode, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return c.json(await service.signInCode(tenantId, c.req.valid('param').id, userId), 200);
    })
    .openapi(files, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return c.json(await service.files(tenantId, c.req.valid('param').id, userId, c.var.services.files), 200);
    })
    .openapi(setFiles, async (c) =>
      c.json(await service.setFiles(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(ratingCode, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return c.json(await service.ratingCode(tenantId, c.req.valid('param').id, userId), 200);
    })
    .openapi(sheet, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return sendSheet(
        c,
        await service.attendanceSheet(tenantId, c.req.valid('param').id, userId, c.var.lang),
      ) as never;
    });

export const activities = resourceModule(activityResource, {
  service: createActivityService,
  routes: actions,
  omit: ['import', 'template'],
});
