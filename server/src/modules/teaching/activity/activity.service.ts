import { sql } from 'kysely';
import type { Config } from '../../../config';
import { AppError, invalidField, notFound } from '../../../core/errors';
import type { Jobs } from '../../../core/jobs';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps, versionedAct } from '../../../core/resource/resource.service';
import { writeSheet } from '../../../core/resource/spreadsheet';
import { keyRingOf } from '../../../core/seal';
import { createSecretBox } from '../../../core/secret-box';
import type { Tenancy, Tx } from '../../../core/tenancy';
import { inEachTenant } from '../../../core/tenant-jobs';
import { claimFiles, releaseFiles } from '../../file/attachments';
import type { FileService } from '../../file/file/file.service';
import { messageTime, notify } from '../../message/message/outbox';
import { dataScopeOf, inDataScope, scopedTo } from '../../people/organization/data-scope';
import { refuseTraineesOutOfReach } from '../../people/trainee/trainee.scope';
import { insertAuditLogs } from '../../system/audit/audit.repository';
import type { SettingsService } from '../../system/settings/settings.service';
import { AUDIENCE_FIELDS, namesNoOne, traineesOf } from '../audience';
import {
  type Activity,
  type ActivityFiles,
  type ActivityStats,
  type ActivityStatus,
  type AddParticipants,
  ATTENDED,
  activityResource,
  activityTable,
  BY_CODE,
  type CancelActivity,
  type CorrectAttendance,
  type CreateActivity,
  type HostStats,
  LIVE,
  MATERIAL,
  type Participant,
  PHOTO,
  type Rate,
  type RatingAccess,
  type RatingCode,
  type RatingGranted,
  REMINDER_HOURS,
  REMINDER_SETTING,
  type SignedIn,
  type SignIn,
  type SignInCode,
  type StatsQuery,
  type UpdateActivity,
} from './activity.resource';

const texts = {
  'zh-CN': {
    noOrg: '部门不存在或不在你的数据范围内',
    notDepartment: '须为科室',
    notActivityType: '不是字典“教学活动形式”中启用的值',
    noDoctor: '医生不存在',
    coHostIsHost: '主讲人不能同时是协同主讲',
    coHostTwice: '同一位医生不能重复',
    endBeforeStart: '须晚于开始时间',
    closeBeforeOpen: '签到截止时间须晚于签到开始时间',
    noAudience: '请至少指定一种参加对象（学员类型、培训基地或年级）',
    overCapacity: (n: number) => `参加对象共 ${n} 人，超过容量`,
    overCapacityList: (n: number, capacity: number) => `加入后名单共 ${n} 人，超过容量 ${capacity}`,
    belowList: (n: number) => `已有 ${n} 名学员在名单中，容量不能小于该人数`,
    ended: '活动已结束，不能发布',
    fixedAudience: '活动发布后参加对象不能修改，可在详情中添加学员',
    notStarted: '活动尚未开始',
    noTrainee: '学员不存在或不在你的数据范围内',
    notOnList: '不在本活动的参加名单中',
    noQr: '本活动不使用扫码签到',
    noSpecialtyBase: '专业基地不存在或不在你的数据范围内',
    notSpecialtyBase: '须为专业基地',
    namedTwice: '同一名学员不能重复',
    noPlace: '定位签到须填写地点的纬度和经度',
    noPosition: '本活动须定位签到，请允许获取位置后重试',
    tooFar: (d: number, r: number) => `你距活动地点约 ${d} 米，超出签到范围（${r} 米）`,
    sheet: '签到表',
    header: [
      '学员编号',
      '姓名',
      '学员类型',
      '培训基地',
      '出勤',
      '签到时间',
      '签到方式',
      '签到距离（米）',
      '备注',
      '评分',
      '评价',
    ],
    attendance: { registered: '未签到', present: '出勤', late: '迟到', absent: '缺勤', excused: '请假' },
    method: { qr: '扫码', qr_geo: '扫码定位', manual: '补签' },
  },
  'en-US': {
    noOrg: 'is not an existing department within your data scope',
    notDepartment: 'must be a department',
    notActivityType: 'is not an enabled value of the dictionary activity_type',
    noDoctor: 'is not an existing doctor',
    coHostIsHost: 'cannot name the host as a co-host',
    coHostTwice: 'names the same doctor twice',
    endBeforeStart: 'must be after the start',
    closeBeforeOpen: 'must be after sign-in opens',
    noAudience: 'name one audience at least (trainee types, bases or cohorts)',
    overCapacity: (n: number) => `the audience of ${n} trainees is over the capacity`,
    overCapacityList: (n: number, capacity: number) =>
      `the list would have ${n} trainees, over the capacity of ${capacity}`,
    belowList: (n: number) => `${n} trainees are on the list already; the capacity cannot be less`,
    ended: 'the activity has ended; it cannot be published',
    fixedAudience: 'cannot change once the activity is published; add trainees on its profile',
    notStarted: 'the activity has not started',
    noTrainee: 'is not an existing trainee within your data scope',
    notOnList: 'is not on the list of this activity',
    noQr: 'this activity does not take sign-in by code',
    noSpecialtyBase: 'is not an existing specialty base within your data scope',
    notSpecialtyBase: 'must be a specialty base',
    namedTwice: 'names the same trainee twice',
    noPlace: "sign-in by code and position needs the place's latitude and longitude",
    noPosition: 'this activity takes sign-in with your position: allow the browser to share it and try again',
    tooFar: (d: number, r: number) => `you are about ${d} m from the place, outside the sign-in radius of ${r} m`,
    sheet: 'Attendance',
    header: [
      'Trainee no.',
      'Name',
      'Trainee type',
      'Base',
      'Attendance',
      'Signed in at',
      'Method',
      'Distance (m)',
      'Note',
      'Rating',
      'Comment',
    ],
    attendance: { registered: 'Not signed in', present: 'Present', late: 'Late', absent: 'Absent', excused: 'Excused' },
    method: { qr: 'Code', qr_geo: 'Code and position', manual: 'By hand' },
  },
};

/** A sign-in code lasts this long, and the one before it is still taken (a code read just before it changed). */
export const ROTATE_SECONDS = 30;
/** A rating is taken from the start of an activity to this long after its end. */
const RATING_DAYS = 14;

/** Sign-in opens this long before the start unless the activity says when (as the row's `signInOpensAt`). */
const SIGN_IN_OPENS_BEFORE_MS = 30 * 60_000;

type Deps = ResourceDeps & { config: Config; jobs: Jobs; settings: SettingsService };

/**
 * Teaching activities (docs/domain.md §8.3): held by a department of the viewer's data scope, hosted by a doctor (with
 * co-hosts); published to an audience (trainee types, bases, cohorts), which makes its list of participants, reminded
 * once before its start by the hourly job; attended by signing in with a code that changes every 30 seconds (shown as
 * a QR code, signed, so it cannot be made up or kept for later) or by a correction by hand; rated by those who came;
 * completed (who never signed in is absent) or cancelled with a reason. Statistics by department, month and type, and
 * by host (co-hosts too); the attendance sheet as xlsx.
 */
export function createActivityService(deps: Deps) {
  const repo = activityTable;
  const { tenancy, config } = deps;
  const signer = createSecretBox(keyRingOf(config), 'activity sign-in');

  const scoped = (tx: Tx, viewer: string | undefined) => scopedTo(tx, viewer, SCOPE_COLUMNS, 'teaching_activity');
  const find = async (tx: Tx, id: string, viewer?: string) => repo.find(tx, id, await scoped(tx, viewer));

  const refuseUnless = (row: Activity, ...allowed: ActivityStatus[]) => {
    if (!allowed.includes(row.status)) throw new AppError('activity.notAllowed', { status: row.status });
  };

  async function check(tx: Tx, input: Partial<CreateActivity>, current: Activity | undefined, ctx: WriteContext) {
    const t = texts[ctx.lang];
    if (input.activityType && input.activityType !== current?.activityType) {
      const item = await tx
        .selectFrom('dict_item')
        .select('id')
        .where('type_code', '=', 'activity_type')
        .where('value', '=', input.activityType)
        .where('status', '=', 'enabled')
        .executeTakeFirst();
      if (!item) throw invalidField('activityType', t.notActivityType);
    }
    // its department and its specialty base: each an organisation of that type within the planner's data scope
    const places = [
      ['orgId', 'department', t.noOrg, t.notDepartment],
      ['specialtyBaseId', 'specialty_base', t.noSpecialtyBase, t.notSpecialtyBase],
    ] as const;
    for (const [field, orgType, missing, wrongType] of places) {
      const orgId = input[field];
      if (!orgId || orgId === current?.[field]) continue;
      const scope = await dataScopeOf(tx, ctx.actorId);
      const org = await tx.selectFrom('organization').select('org_type').where('id', '=', orgId).executeTakeFirst();
      if (!org || !(scope.all || scope.orgIds.includes(orgId))) throw invalidField(field, missing);
      if (org.org_type !== orgType) throw invalidField(field, wrongType);
    }
    if (input.audienceTraineeIds) {
      const named = input.audienceTraineeIds;
      const twice = named.findIndex((id, i) => named.indexOf(id) !== i);
      if (twice >= 0) throw invalidField(`audienceTraineeIds.${twice}`, t.namedTwice);
      await refuseTraineesOutOfReach(tx, ctx.actorId, named, t.noTrainee, undefined, 'audienceTraineeIds');
    }
    const signInMode = input.signInMode ?? current?.signInMode;
    if (signInMode === 'qr_geo') {
      const latitude = input.geoLatitude !== undefined ? input.geoLatitude : current?.geoLatitude;
      const longitude = input.geoLongitude !== undefined ? input.geoLongitude : current?.geoLongitude;
      if (latitude == null) throw invalidField('geoLatitude', t.noPlace);
      if (longitude == null) throw invalidField('geoLongitude', t.noPlace);
    }
    if (input.hostDoctorId && input.hostDoctorId !== current?.hostDoctorId) {
      const doctor = await tx.selectFrom('doctor').select('id').where('id', '=', input.hostDoctorId).executeTakeFirst();
      if (!doctor) throw invalidField('hostDoctorId', t.noDoctor);
    }
    await checkCoHosts(tx, input, current, t);
    const start = input.startAt ?? current?.startAt;
    const end = input.endAt ?? current?.endAt;
    if (start && end && Date.parse(end) <= Date.parse(start)) throw invalidField('endAt', t.endBeforeStart);
    // the window as it will be: each bound as set, or its default (30 minutes before the start, the end)
    const open = input.signInOpenAt !== undefined ? input.signInOpenAt : current?.signInOpenAt;
    const close = input.signInCloseAt !== undefined ? input.signInCloseAt : current?.signInCloseAt;
    if (start && end) {
      const opens = open ? Date.parse(open) : Date.parse(start) - SIGN_IN_OPENS_BEFORE_MS;
      const closes = close ? Date.parse(close) : Date.parse(end);
      if (closes <= opens) throw invalidField(close ? 'signInCloseAt' : 'signInOpenAt', t.closeBeforeOpen);
    }
    if (current && current.status !== 'draft' && input.capacity && input.capacity < current.participantCount)
      throw invalidField('capacity', t.belowList(current.participantCount));
    if (current && current.status !== 'draft')
      for (const key of [...AUDIENCE_FIELDS, 'audienceTraineeIds'] as const)
        if (
          input[key] !== undefined &&
          JSON.stringify(input[key].map(String)) !== JSON.stringify(current[key].map(String))
        )
          throw invalidField(key, t.fixedAudience);
  }

  /**
   * Co-hosts are doctors (of this tenant: row-level security hides the others), each once and never the host; only
   * those newly named are looked up (one who left since being named stays until removed).
   */
  async function checkCoHosts(
    tx: Tx,
    input: Partial<CreateActivity>,
    current: Activity | undefined,
    t: (typeof texts)['en-US'],
  ) {
    const coHosts = input.coHostIds ?? current?.coHostIds ?? [];
    const host = input.hostDoctorId ?? current?.hostDoctorId;
    if (host && coHosts.includes(host))
      throw invalidField(input.coHostIds ? `coHostIds.${coHosts.indexOf(host)}` : 'hostDoctorId', t.coHostIsHost);
    if (!input.coHostIds) return;
    const twice = input.coHostIds.findIndex((id, i) => input.coHostIds?.indexOf(id) !== i);
    if (twice >= 0) throw invalidField(`coHostIds.${twice}`, t.coHostTwice);
    const named = input.coHostIds.filter((id) => !current?.coHostIds.includes(id));
    if (named.length === 0) return;
    const found = new Set(
      (await tx.selectFrom('doctor').select('id').where('id', 'in', named).execute()).map((r) => String(r.id)),
    );
    const unknown = input.coHostIds.findIndex((id) => named.includes(id) && !found.has(id));
    if (unknown >= 0) throw invalidField(`coHostIds.${unknown}`, t.noDoctor);
  }

  /** Counts kept on the activity: its participants, those who came, and its ratings. */
  async function recount(tx: Tx, id: string) {
    await sql`UPDATE teaching_activity a SET
        participant_count = c.participants, present_count = c.attended, rating_count = c.ratings, avg_rating = c.average
      FROM (SELECT count(*)::int AS participants,
          count(*) FILTER (WHERE attendance IN ('present', 'late'))::int AS attended,
          count(rating)::int AS ratings, round(avg(rating), 2) AS average
        FROM activity_participant WHERE activity_id = ${id}) c
      WHERE a.id = ${id}`.execute(tx);
  }

  const store: ResourceStore<Activity, CreateActivity, UpdateActivity> = {
    async list(tx, query) {
      return repo.list(tx, query, await scoped(tx, query.viewer));
    },
    find,
    async create(tx, input, ctx) {
      await check(tx, input, undefined, ctx);
      const made = await repo.insert(tx, input, ctx);
      return (await find(tx, made.id)) as Activity;
    },
    async update(tx, current, input, ctx) {
      refuseUnless(current, 'draft', ...LIVE);
      await check(tx, input, current, ctx);
      const { version, ...values } = input;
      // a new start time is reminded of again; one under way moved to a later start is published (not started) again
      const moved = input.startAt !== undefined && Date.parse(input.startAt) !== Date.parse(current.startAt);
      const notStarted =
        current.status === 'ongoing' && moved && Date.parse(input.startAt as string) > ctx.now.getTime();
      const updated = await repo.update(
        tx,
        current.id,
        { ...values, ...(moved && { remindedAt: null }), ...(notStarted && { status: 'published' as const }) },
        ctx,
        version,
      );
      if (!updated) return updated;
      const after = (await find(tx, current.id)) as Activity;
      if (LIVE.includes(current.status) && (after.startAt !== current.startAt || after.endAt !== current.endAt))
        await notify(tx, deps.jobs, {
          businessItemCode: 'activity.rescheduled',
          to: { type: 'trainee', ids: await toldOf(tx, current.id) },
          params: {
            activityName: after.title,
            startAt: messageTime(after.startAt),
            place: placeOf(after.location, after.onlineUrl),
          },
          bizRef: { type: 'teaching_activity', id: current.id },
          actorId: ctx.actorId,
        });
      return after;
    },
    async remove(tx, rows, ctx) {
      for (const row of rows) refuseUnless(row, 'draft', 'cancelled');
      const ids = rows.map((r) => r.id);
      // its slides and photos are let go (removed as orphans a day later)
      await releaseFiles(tx, MATERIAL, ids);
      await releaseFiles(tx, PHOTO, ids);
      await repo.remove(tx, ids, ctx);
    },
  };

  const resource = createResourceService(activityResource, store, deps);

  const versioned = versionedAct(resource, repo, (tx, id) => find(tx, id));
  /** An action on the version read, its list's counts taken again. */
  const act = (
    ctx: WriteContext,
    id: string,
    action: string,
    version: number | undefined,
    work: (tx: Tx, row: Activity) => Promise<object | undefined>,
  ) =>
    versioned(ctx, id, action, version, async (tx, row) => {
      const values = await work(tx, row);
      await recount(tx, id);
      return values;
    });

  async function enrol(tx: Tx, activityId: string, traineeIds: string[], ctx: WriteContext) {
    if (traineeIds.length === 0) return;
    await tx
      .insertInto('activity_participant')
      .values(
        traineeIds.map((traineeId) => ({
          tenant_id: ctx.tenantId,
          activity_id: activityId,
          trainee_id: traineeId,
          created_at: ctx.now,
          created_by: ctx.actorId,
        })),
      )
      .onConflict((oc) => oc.columns(['tenant_id', 'activity_id', 'trainee_id']).doNothing())
      .execute();
  }

  /** Who is told of a change: its participants but the excused. */
  const toldOf = async (tx: Tx, id: string) =>
    (
      await tx
        .selectFrom('activity_participant')
        .select('trainee_id')
        .where('activity_id', '=', id)
        .where('attendance', '!=', 'excused')
        .execute()
    ).map((r) => String(r.trainee_id));

  async function participants(tx: Tx, id: string): Promise<Participant[]> {
    const rows = await sql<Participant>`SELECT ap.id::text AS id, ap.trainee_id::text AS "traineeId",
        p.name AS "traineeName", t.trainee_no AS "traineeNo", tt.name AS "traineeTypeName", o.name AS "baseName",
        ap.role, ap.attendance,
        to_char(ap.signed_in_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "signedInAt",
        ap.sign_in_method AS "signInMethod", ap.sign_in_distance_m AS "signInDistanceM", ap.note, ap.rating, ap.comment
      FROM activity_participant ap
      JOIN trainee t ON t.id = ap.trainee_id
      JOIN person p ON p.id = t.person_id
      LEFT JOIN trainee_type tt ON tt.id = t.trainee_type_id
      LEFT JOIN organization o ON o.id = t.training_base_id
      WHERE ap.activity_id = ${id}
      ORDER BY t.trainee_no`.execute(tx);
    return rows.rows;
  }

  /** `<tenant>.<activity>.<period>.<signature>`: the period is the 30-second window it was made in. */
  const codeOf = (tenantId: string, activityId: string, period: number) => {
    const claims = `${tenantId}.${activityId}.${period}`;
    return `${claims}.${signer.sign(`sign-in ${claims}`).slice(0, 22)}`;
  };
  const periodAt = (ms: number) => Math.floor(ms / 1000 / ROTATE_SECONDS);

  const CODE = /^(\d{1,18})\.(\d{1,18})\.(\d{1,12})\.[\w-]{22}$/;
  function readCode(code: string): { tenantId: string; activityId: string } {
    const [, tenantId = '', activityId = '', period = ''] = CODE.exec(code) ?? [];
    const now = periodAt(config.now().getTime());
    // the code shown now, or the one just before it
    if (![now, now - 1].includes(Number(period)) || codeOf(tenantId, activityId, Number(period)) !== code)
      throw new AppError('activity.codeExpired');
    return { tenantId, activityId };
  }

  const rateClaims = (tenantId: string, activityId: string, traineeId: string, expires: number) =>
    `rate ${tenantId}.${activityId}.${traineeId}.${expires}`;
  /** A trainee's token to rate the activity, good to the end of its rating window. */
  const ratingToken = (tenantId: string, row: Activity, traineeId: string) => {
    const expires = Math.floor(ratingWindow(row).to / 1000);
    const claims = rateClaims(tenantId, row.id, traineeId, expires);
    return `${tenantId}.${row.id}.${traineeId}.${expires}.${signer.sign(claims)}`;
  };

  /** `<tenant>.<activity>.<signature>`: the activity's rating code, shown once it has started (it names no trainee). */
  const ratingCodeOf = (tenantId: string, activityId: string) =>
    `${tenantId}.${activityId}.${signer.sign(`rate-code ${tenantId}.${activityId}`).slice(0, 22)}`;
  function readRatingCode(code: string): { tenantId: string; activityId: string } {
    const [, tenantId = '', activityId = ''] = /^(\d{1,18})\.(\d{1,18})\.[\w-]{22}$/.exec(code) ?? [];
    if (ratingCodeOf(tenantId, activityId) !== code) throw new AppError('activity.codeExpired');
    return { tenantId, activityId };
  }

  function ratingWindow(row: Activity) {
    const from = Date.parse(row.startAt);
    const to = Date.parse(row.endAt) + RATING_DAYS * 86_400_000;
    return { from, to, open: (now: number) => now >= from && now <= to };
  }
  /** Rated while it is evaluated, published or completed, from its start to RATING_DAYS after its end. */
  function refuseUnlessRatable(row: Activity | undefined): asserts row is Activity {
    if (!row?.evaluationEnabled || ![...LIVE, 'completed'].includes(row.status))
      throw new AppError('activity.notRatable');
    const window = ratingWindow(row);
    if (!window.open(config.now().getTime()))
      throw new AppError('activity.ratingClosed', { from: stamp(window.from), to: stamp(window.to) });
  }

  /** As set, or from 30 minutes before the start to the end. */
  function signInWindow(row: Activity) {
    const from = Date.parse(row.signInOpensAt);
    const to = Date.parse(row.signInClosesAt);
    return { from, to, open: (now: number) => now >= from && now <= to };
  }

  const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

  return {
    resource,

    /** Draft → published: its audience (one criterion at least, within the capacity) becomes its list. */
    publish: (ctx: WriteContext, id: string, version: number) =>
      act(ctx, id, 'publish', version, async (tx, row) => {
        refuseUnless(row, 'draft');
        const t = texts[ctx.lang];
        if (Date.parse(row.endAt) <= ctx.now.getTime()) throw invalidField('endAt', t.ended);
        if (namesNoOne(row) && row.audienceTraineeIds.length === 0)
          throw invalidField('audienceTraineeTypeIds', t.noAudience);
        // those the criteria take (when it names any), and those named one by one
        const trainees = [
          ...new Set([...(namesNoOne(row) ? [] : await traineesOf(tx, row)), ...row.audienceTraineeIds]),
        ];
        if (row.capacity && trainees.length > row.capacity)
          throw invalidField('capacity', t.overCapacity(trainees.length));
        await enrol(tx, id, trainees, ctx);
        await notify(tx, deps.jobs, {
          businessItemCode: 'activity.published',
          to: { type: 'trainee', ids: trainees },
          params: {
            activityName: row.title,
            startAt: messageTime(row.startAt),
            place: placeOf(row.location, row.onlineUrl),
          },
          bizRef: { type: 'teaching_activity', id },
          actorId: ctx.actorId,
        });
        return { status: 'published', publishedAt: ctx.now.toISOString() };
      }),

    /** Draft or published → cancelled, with the reason; a published one's participants (but the excused) are told. */
    cancel: (ctx: WriteContext, id: string, input: CancelActivity) =>
      act(ctx, id, 'cancel', input.version, async (tx, row) => {
        refuseUnless(row, 'draft', ...LIVE);
        if (LIVE.includes(row.status))
          await notify(tx, deps.jobs, {
            businessItemCode: 'activity.cancelled',
            to: { type: 'trainee', ids: await toldOf(tx, id) },
            params: { activityName: row.title, startAt: messageTime(row.startAt), reason: input.reason },
            bizRef: { type: 'teaching_activity', id },
            actorId: ctx.actorId,
          });
        return { status: 'cancelled', cancelReason: input.reason };
      }),

    /**
     * Published or under way → completed, once it has started: who never signed in (and was not excused) is absent.
     * The clock does the same past its end and its sign-in window (`advance`).
     */
    complete: (ctx: WriteContext, id: string, version: number) =>
      act(ctx, id, 'complete', version, async (tx, row) => {
        refuseUnless(row, ...LIVE);
        if (Date.parse(row.startAt) > ctx.now.getTime()) throw invalidField('startAt', texts[ctx.lang].notStarted);
        await markAbsent(tx, id, ctx.now, ctx.actorId);
        return { status: 'completed' };
      }),

    /**
     * By the clock (each minute): a published activity whose start has come is under way (`ongoing`); one under way
     * (or published) past its end and its sign-in window is completed, who never signed in (nor was excused) absent.
     */
    advance: (now: Date) => advanceByClock(tenancy, now, recount),

    /** The files it holds (slides, evidence photos), each with its links; the viewer sees the activity. */
    files: async (tenantId: string, id: string, viewer: string, files: FileService) => {
      const row = await resource.get(tenantId, id, viewer);
      return {
        materials: await files.attachments(tenantId, row.materialFileIds),
        photos: await files.attachments(tenantId, row.photoFileIds),
      };
    },

    /**
     * Its slides and its evidence photos set (each list left out is kept), whatever its status but cancelled: files
     * uploaded as attachments, claimed by it; those it no longer lists are let go.
     */
    setFiles: (ctx: WriteContext, id: string, input: ActivityFiles) =>
      act(ctx, id, 'files', input.version, async (tx, row) => {
        refuseUnless(row, 'draft', ...LIVE, 'completed');
        const values: { materialFileIds?: string[]; photoFileIds?: string[] } = {};
        if (input.materialFileIds) {
          await claimFiles(tx, { bizType: MATERIAL, bizId: id }, input.materialFileIds, 'materialFileIds', ctx.lang);
          values.materialFileIds = [...new Set(input.materialFileIds)];
        }
        if (input.photoFileIds) {
          await claimFiles(tx, { bizType: PHOTO, bizId: id }, input.photoFileIds, 'photoFileIds', ctx.lang);
          values.photoFileIds = [...new Set(input.photoFileIds)];
        }
        return values;
      }),

    participants: (tenantId: string, id: string, viewer: string) =>
      tenancy.inTenant(tenantId, async (tx) => {
        if (!(await find(tx, id, viewer))) throw notFound();
        return participants(tx, id);
      }),

    /** Trainees added to a published activity's list by hand (a walk-in), within the viewer's data scope and capacity. */
    addParticipants: (ctx: WriteContext, id: string, input: AddParticipants) =>
      act(ctx, id, 'participants', undefined, async (tx, row) => {
        refuseUnless(row, ...LIVE);
        await refuseTraineesOutOfReach(tx, ctx.actorId, input.traineeIds, texts[ctx.lang].noTrainee);
        await enrol(tx, id, input.traineeIds, ctx);
        if (row.capacity) {
          const { count } = await tx
            .selectFrom('activity_participant')
            .select((eb) => eb.fn.countAll<string>().as('count'))
            .where('activity_id', '=', id)
            .executeTakeFirstOrThrow();
          // the transaction is undone with the refusal: nobody is added
          if (Number(count) > row.capacity)
            throw invalidField('traineeIds', texts[ctx.lang].overCapacityList(Number(count), row.capacity));
        }
        return undefined;
      }),

    /**
     * Attendance set by hand (a note says why; one left out keeps the note written before), in one go: every trainee
     * named is on the list, or nothing changes. Who came keeps the time and way they signed in; who did not loses them.
     */
    correctAttendance: (ctx: WriteContext, id: string, input: CorrectAttendance) =>
      act(ctx, id, 'attendance', undefined, async (tx, row) => {
        refuseUnless(row, ...LIVE, 'completed');
        const listed = new Set(
          (
            await tx
              .selectFrom('activity_participant')
              .select('trainee_id')
              .where('activity_id', '=', id)
              .where(
                'trainee_id',
                'in',
                input.items.map((item) => item.traineeId),
              )
              .execute()
          ).map((r) => String(r.trainee_id)),
        );
        for (const [i, item] of input.items.entries()) {
          if (!listed.has(item.traineeId)) throw invalidField(`items.${i}.traineeId`, texts[ctx.lang].notOnList);
          const came = ATTENDED.includes(item.attendance);
          await tx
            .updateTable('activity_participant')
            .set({
              attendance: item.attendance,
              // a note left out keeps the one written before (null clears it)
              ...(item.note !== undefined && { note: item.note }),
              sign_in_method: came ? sql`coalesce(sign_in_method, 'manual')` : null,
              signed_in_at: came ? sql`coalesce(signed_in_at, ${ctx.now})` : null,
              updated_at: ctx.now,
              updated_by: ctx.actorId,
            })
            .where('activity_id', '=', id)
            .where('trainee_id', '=', item.traineeId)
            .execute();
        }
        return undefined;
      }),

    /** The code to show now (as a QR code), while sign-in is open. */
    signInCode: (tenantId: string, id: string, viewer: string): Promise<SignInCode> =>
      tenancy.inTenant(tenantId, async (tx) => {
        const row = await find(tx, id, viewer);
        if (!row) throw notFound();
        refuseUnless(row, ...LIVE);
        if (!BY_CODE.includes(row.signInMode)) throw new AppError('activity.notAllowed', { status: row.signInMode });
        const window = signInWindow(row);
        const now = config.now().getTime();
        if (!window.open(now))
          throw new AppError('activity.signInClosed', { from: stamp(window.from), to: stamp(window.to) });
        const period = periodAt(now);
        return {
          code: codeOf(tenantId, id, period),
          expiresAt: new Date((period + 2) * ROTATE_SECONDS * 1000).toISOString(),
          refreshInSeconds: Math.max(1, Math.ceil(((period + 1) * ROTATE_SECONDS * 1000 - now) / 1000)),
        };
      }),

    /**
     * A trainee signs in with the code they scanned, their number and their name (no account needed: the code proves
     * they are in the room within the last minute). Present, or late past the activity's grace; a second sign-in
     * changes nothing.
     */
    async signIn(input: SignIn, lang: 'zh-CN' | 'en-US' = 'zh-CN'): Promise<SignedIn> {
      const { tenantId, activityId } = readCode(input.code);
      return tenancy.inTenant(tenantId, async (tx) => {
        const row = await find(tx, activityId);
        if (!row || !LIVE.includes(row.status) || !BY_CODE.includes(row.signInMode))
          throw new AppError('activity.codeExpired');
        const now = config.now().getTime();
        const window = signInWindow(row);
        if (!window.open(now))
          throw new AppError('activity.signInClosed', { from: stamp(window.from), to: stamp(window.to) });
        const participant = await tx
          .selectFrom('activity_participant as ap')
          .innerJoin('trainee as t', 't.id', 'ap.trainee_id')
          .innerJoin('person as p', 'p.id', 't.person_id')
          .select(['ap.id', 'ap.trainee_id', 'ap.attendance', 'ap.signed_in_at', 'ap.rating', 'p.name'])
          .where('ap.activity_id', '=', activityId)
          .where('t.trainee_no', '=', input.traineeNo)
          .executeTakeFirst();
        if (!participant || participant.name !== input.name) throw new AppError('activity.notParticipant');
        const rated = participant.rating !== null;
        const distance = row.signInMode === 'qr_geo' ? distanceOf(row, input, texts[lang]) : null;
        const already = ATTENDED.includes(participant.attendance) && participant.signed_in_at !== null;
        const late = now > Date.parse(row.startAt) + row.lateAfterMinutes * 60_000;
        const attendance = already ? participant.attendance : late ? 'late' : 'present';
        const signedInAt = already ? new Date(participant.signed_in_at as Date) : new Date(now);
        if (!already) {
          await tx
            .updateTable('activity_participant')
            .set({
              attendance,
              signed_in_at: signedInAt,
              sign_in_method: row.signInMode === 'qr_geo' ? 'qr_geo' : 'qr',
              sign_in_distance_m: distance,
              updated_at: signedInAt,
            })
            .where('id', '=', participant.id)
            .execute();
          await recount(tx, activityId);
        }
        return {
          activityTitle: row.title,
          traineeName: participant.name,
          attendance,
          signedInAt: signedInAt.toISOString(),
          already,
          evaluationEnabled: row.evaluationEnabled,
          rated,
          // who signs in before the start rates later, by the rating code; who has rated is not asked again
          ratingToken:
            row.evaluationEnabled && !rated && ratingWindow(row).open(now)
              ? ratingToken(tenantId, row, String(participant.trainee_id))
              : null,
        };
      });
    },

    /** The rating code to show (as a QR code) from the start of an evaluated activity to the end of its rating window. */
    ratingCode: (tenantId: string, id: string, viewer: string): Promise<RatingCode> =>
      tenancy.inTenant(tenantId, async (tx) => {
        const row = await find(tx, id, viewer);
        if (!row) throw notFound();
        refuseUnlessRatable(row);
        const window = ratingWindow(row);
        return {
          code: ratingCodeOf(tenantId, id),
          opensAt: new Date(window.from).toISOString(),
          closesAt: new Date(window.to).toISOString(),
        };
      }),

    /**
     * A trainee with the rating code, their number and their name is given a rating token: one who came (signed in by
     * code or set present or late by hand), within the rating window, and has not rated it yet.
     */
    async ratingAccess(input: RatingAccess): Promise<RatingGranted> {
      const { tenantId, activityId } = readRatingCode(input.code);
      return tenancy.inTenant(tenantId, async (tx) => {
        const row = await find(tx, activityId);
        refuseUnlessRatable(row);
        const participant = await tx
          .selectFrom('activity_participant as ap')
          .innerJoin('trainee as t', 't.id', 'ap.trainee_id')
          .innerJoin('person as p', 'p.id', 't.person_id')
          .select(['ap.trainee_id', 'ap.attendance', 'ap.rating', 'p.name'])
          .where('ap.activity_id', '=', activityId)
          .where('t.trainee_no', '=', input.traineeNo)
          .executeTakeFirst();
        if (!participant || participant.name !== input.name) throw new AppError('activity.notParticipant');
        if (!ATTENDED.includes(participant.attendance)) throw new AppError('activity.notRatable');
        if (participant.rating !== null) throw new AppError('activity.alreadyRated');
        return {
          activityTitle: row.title,
          traineeName: participant.name,
          ratingToken: ratingToken(tenantId, row, String(participant.trainee_id)),
        };
      });
    },

    /** A rating (1–5) and a comment, once, from a trainee who came, with the token their sign-in or the rating code gave. */
    async rate(input: Rate): Promise<{ avgRating: number | null; ratingCount: number }> {
      const [, tenantId = '', activityId = '', traineeId = '', expires = '0', signature = ''] =
        /^(\d{1,18})\.(\d{1,18})\.(\d{1,18})\.(\d{1,12})\.([\w-]+)$/.exec(input.token) ?? [];
      const valid =
        Number(expires) * 1000 > config.now().getTime() &&
        signer.verify(rateClaims(tenantId, activityId, traineeId, Number(expires)), signature);
      if (!valid) throw new AppError('activity.codeExpired');
      return tenancy.inTenant(tenantId, async (tx) => {
        const row = await find(tx, activityId);
        refuseUnlessRatable(row);
        const rated = await tx
          .updateTable('activity_participant')
          .set({ rating: input.rating, comment: input.comment ?? null, rated_at: config.now() })
          .where('activity_id', '=', activityId)
          .where('trainee_id', '=', traineeId)
          .where('attendance', 'in', ATTENDED)
          .where('rating', 'is', null)
          .executeTakeFirst();
        if (Number(rated.numUpdatedRows) === 0) {
          const participant = await tx
            .selectFrom('activity_participant')
            .select('rating')
            .where('activity_id', '=', activityId)
            .where('trainee_id', '=', traineeId)
            .executeTakeFirst();
          throw new AppError(participant?.rating != null ? 'activity.alreadyRated' : 'activity.notRatable');
        }
        await recount(tx, activityId);
        const after = (await find(tx, activityId)) as Activity;
        return { avgRating: after.avgRating, ratingCount: after.ratingCount };
      });
    },

    /** By month (of the start, in the viewer's time zone), department and type: how many, who was listed and came, ratings. */
    stats: (tenantId: string, query: StatsQuery, viewer: string): Promise<ActivityStats[]> =>
      tenancy.inTenant(tenantId, async (tx) => {
        const { local, counted } = await statsScope(tx, query, viewer, config.now());
        const { rows } = await sql<Omit<ActivityStats, 'attendanceRate'>>`SELECT
            to_char(${local}, 'YYYY-MM') AS month, a.org_id::text AS "orgId", o.name AS "orgName",
            a.activity_type AS "activityType", count(*)::int AS activities,
            sum(a.participant_count)::int AS participants, sum(a.present_count)::int AS attended,
            round(sum(a.avg_rating * a.rating_count) / nullif(sum(a.rating_count), 0), 2)::float8 AS "avgRating"
          FROM teaching_activity a JOIN organization o ON o.id = a.org_id
          WHERE ${counted}
          GROUP BY 1, 2, 3, 4
          ORDER BY 1 DESC, 3, 4`.execute(tx);
        return rows.map(withRate);
      }),

    /**
     * By host, over the same activities: each counts for its host and for each of its co-hosts (its trainees and
     * ratings with it), the most active first.
     */
    hostStats: (tenantId: string, query: StatsQuery, viewer: string): Promise<HostStats[]> =>
      tenancy.inTenant(tenantId, async (tx) => {
        const { counted } = await statsScope(tx, query, viewer, config.now());
        const { rows } = await sql<Omit<HostStats, 'attendanceRate'>>`SELECT
            h.doctor_id::text AS "doctorId", p.name AS "doctorName",
            count(*) FILTER (WHERE h.host)::int AS hosted, count(*) FILTER (WHERE NOT h.host)::int AS "coHosted",
            sum(a.participant_count)::int AS participants, sum(a.present_count)::int AS attended,
            sum(a.rating_count)::int AS "ratingCount",
            round(sum(a.avg_rating * a.rating_count) / nullif(sum(a.rating_count), 0), 2)::float8 AS "avgRating"
          FROM teaching_activity a
          CROSS JOIN LATERAL (SELECT a.host_doctor_id AS doctor_id, true AS host
            UNION ALL SELECT unnest(a.co_host_ids), false) h
          JOIN doctor d ON d.id = h.doctor_id JOIN person p ON p.id = d.person_id
          WHERE ${counted}
          GROUP BY h.doctor_id, p.name
          ORDER BY count(*) DESC, p.name, h.doctor_id`.execute(tx);
        return rows.map(withRate);
      }),

    /**
     * The participants (but the excused) of published activities that start within the reminder window (setting
     * `teaching.activity.reminderHours`, each tenant's) are told so, by business item `activity.reminder`, once per
     * activity: `reminded_at` is set in the messages' transaction, so the next run (or one alongside) passes it by.
     */
    remind: (now: Date) => remindStarting(tenancy, deps.settings, deps.jobs, now),

    /** The attendance sheet of one activity, as xlsx. */
    attendanceSheet: (tenantId: string, id: string, viewer: string, lang: 'zh-CN' | 'en-US') =>
      tenancy.inTenant(tenantId, async (tx) => {
        const row = await find(tx, id, viewer);
        if (!row) throw notFound();
        const t = texts[lang];
        const rows = (await participants(tx, id)).map((p) => [
          p.traineeNo,
          p.traineeName,
          p.traineeTypeName,
          p.baseName,
          t.attendance[p.attendance],
          p.signedInAt ? new Date(p.signedInAt) : null,
          p.signInMethod ? t.method[p.signInMethod] : null,
          p.signInDistanceM,
          p.note,
          p.rating,
          p.comment,
        ]);
        return { filename: `attendance-${id}.xlsx`, body: await writeSheet(t.sheet, t.header, rows) };
      }),
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;

/** What an activity's data scope counts: its department, and its specialty base (a base's secretary sees its own). */
const SCOPE_COLUMNS = ['org_id', 'specialty_base_id'] as const;

/** Metres between two points on the Earth (haversine, mean radius). */
export function metresBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const h =
    Math.sin(rad(b.lat - a.lat) / 2) ** 2 +
    Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A `qr_geo` sign-in's distance from the place, in whole metres; refused without a position or outside the radius. */
function distanceOf(row: Activity, input: SignIn, t: (typeof texts)['en-US']): number {
  if (input.latitude === undefined) throw invalidField('latitude', t.noPosition);
  if (input.longitude === undefined) throw invalidField('longitude', t.noPosition);
  const distance = Math.round(
    metresBetween(
      { lat: row.geoLatitude as number, lng: row.geoLongitude as number },
      { lat: input.latitude, lng: input.longitude },
    ),
  );
  if (distance > row.geoRadiusM) throw invalidField('latitude', t.tooFar(distance, row.geoRadiusM));
  return distance;
}

/** Where an activity's messages say it is: its place, else its link, else that it is still to be told (`{place}`). */
const placeOf = (location: string | null, onlineUrl: string | null) => location || onlineUrl || '待通知的地点';

const withRate = <R extends { participants: number; attended: number }>(r: R) => ({
  ...r,
  attendanceRate: r.participants > 0 ? Math.round((r.attended / r.participants) * 1000) / 1000 : null,
});

/**
 * The activities statistics count (published or completed, starting in the days asked, in the viewer's data scope).
 * The days default to the year up to today by the configured clock, in the time zone asked.
 */
async function statsScope(tx: Tx, query: StatsQuery, viewer: string, now: Date) {
  const zone = query.timeZone ?? 'UTC';
  // a zone the browser knows that the database does not is refused, not an error of the server
  if (zone !== 'UTC') {
    const known = await sql`SELECT 1 FROM pg_timezone_names WHERE name = ${zone}`.execute(tx);
    if (known.rows.length === 0) throw invalidField('timeZone', 'is not a time zone the database knows');
  }
  const today = sql<{ today: string }>`SELECT to_char(${now}::timestamptz AT TIME ZONE ${zone}, 'YYYY-MM-DD') AS today`;
  const to = query.to ?? ((await today.execute(tx)).rows[0]?.today as string);
  const from = query.from ?? `${Number(to.slice(0, 4)) - 1}${to.slice(4)}`;
  const scope = await dataScopeOf(tx, viewer);
  const local = sql`(a.start_at AT TIME ZONE ${zone})`;
  const counted = sql<boolean>`a.status IN ('published', 'ongoing', 'completed')
    AND ${local} >= ${from}::date AND ${local} < ${to}::date + 1
    AND ${inDataScope(scope, SCOPE_COLUMNS, 'a')}
    ${query.orgId ? sql`AND a.org_id = ${query.orgId}` : sql``}`;
  return { local, counted };
}

/** Who never signed in (nor was excused) is absent: the activity is over. */
async function markAbsent(tx: Tx, id: string, now: Date, actorId: string | null): Promise<void> {
  await tx
    .updateTable('activity_participant')
    .set({ attendance: 'absent', updated_at: now, updated_by: actorId })
    .where('activity_id', '=', id)
    .where('attendance', '=', 'registered')
    .execute();
}

/**
 * Published whose start has come → ongoing; published or ongoing past its end and sign-in window → completed. Each
 * change leaves its audit row, with no actor: the system's.
 */
function advanceByClock(tenancy: Tenancy, now: Date, recount: (tx: Tx, id: string) => Promise<void>) {
  const over = sql<boolean>`teaching_activity.end_at < ${now}
    AND coalesce(teaching_activity.sign_in_close_at, teaching_activity.end_at) < ${now}`;
  const due = (tx: Tx, status: ActivityStatus[], when: typeof over) =>
    tx
      .selectFrom('teaching_activity')
      .select(['id', 'title', 'status'])
      .where('status', 'in', status)
      .where(when)
      .orderBy('id')
      .forUpdate()
      .execute();
  const moved = (tx: Tx, rows: { id: string }[], to: ActivityStatus) =>
    rows.length === 0
      ? Promise.resolve()
      : tx
          .updateTable('teaching_activity')
          .set({ status: to, updated_at: now, version: sql`version + 1` })
          .where(
            'id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
  return inEachTenant(
    tenancy,
    (tx) =>
      tx
        .selectFrom('teaching_activity')
        .select('tenant_id')
        .distinct()
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'published'), eb('start_at', '<=', now)]),
            eb.and([eb('status', '=', 'ongoing'), over]),
          ]),
        )
        .execute(),
    async (tx, tenantId) => {
      const changes: { id: string; title: string; from: ActivityStatus; to: ActivityStatus }[] = [];
      const done = await due(tx, ['published', 'ongoing'], over);
      await moved(tx, done, 'completed');
      for (const row of done) {
        const id = String(row.id);
        await markAbsent(tx, id, now, null);
        await recount(tx, id);
        changes.push({ id, title: row.title, from: row.status, to: 'completed' });
      }
      const started = await due(tx, ['published'], sql<boolean>`teaching_activity.start_at <= ${now}`);
      await moved(tx, started, 'ongoing');
      for (const row of started)
        changes.push({ id: String(row.id), title: row.title, from: row.status, to: 'ongoing' });
      await insertAuditLogs(tx, { tenantId, actorId: null, ip: null, userAgent: null, at: now }, changes, (c) => ({
        action: `teaching:activity:${c.to === 'completed' ? 'complete' : 'start'}`,
        resourceType: 'teaching_activity',
        resourceId: c.id,
        // the action names the move and before/after its statuses: the console labels them
        summary: c.title,
        before: { status: c.from },
        after: { status: c.to },
      }));
      return changes.length;
    },
  );
}

/** The longest reminder window a tenant may set (the setting's maximum): what the run looks for in every tenant. */
const REMINDER_MAX_HOURS = 168;
const HOUR = 3_600_000;

function remindStarting(tenancy: Tenancy, settings: SettingsService, jobs: Jobs, now: Date): Promise<number> {
  const due = (tx: Tx, hours: number) =>
    tx
      .selectFrom('teaching_activity')
      .where('status', '=', 'published')
      .where('reminded_at', 'is', null)
      .where('start_at', '>', now)
      .where('start_at', '<=', new Date(now.getTime() + hours * HOUR));
  return inEachTenant(
    tenancy,
    (tx) => due(tx, REMINDER_MAX_HOURS).select('tenant_id').distinct().execute(),
    async (tx) => {
      const { [REMINDER_SETTING]: hours } = await settings.numbers(tx, { [REMINDER_SETTING]: REMINDER_HOURS });
      const rows = await tx
        .updateTable('teaching_activity')
        .set({ reminded_at: now })
        .where('id', 'in', due(tx, hours).select('id'))
        .where('reminded_at', 'is', null)
        .returning(['id', 'title', 'start_at', 'location', 'online_url'])
        .execute();
      let sent = 0;
      for (const row of rows) {
        const id = String(row.id);
        const trainees = await tx
          .selectFrom('activity_participant')
          .select('trainee_id')
          .where('activity_id', '=', id)
          .where('attendance', '!=', 'excused')
          .execute();
        sent += await notify(tx, jobs, {
          businessItemCode: 'activity.reminder',
          to: { type: 'trainee', ids: trainees.map((t) => String(t.trainee_id)) },
          params: {
            activityName: row.title,
            startAt: messageTime(row.start_at),
            place: placeOf(row.location, row.online_url),
          },
          bizRef: { type: 'teaching_activity', id },
        });
      }
      return sent;
    },
  );
}
