import { z } from '@hono/zod-openapi';
import type { ColumnType, RawBuilder } from 'kysely';
import { sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { ID_PATTERN, Id } from '../../../core/resource/id-param';
import { createdAtFilter } from '../../../core/resource/list-query';
import { columnsOf, tableRepository } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import type { Audited, Defaulted, Id as IdColumn, Nullable, NullableTimestamp, Ref } from '../../../db/types';
import { Attachment } from '../../file/file/file.resource';

/** Teaching activities (docs/domain.md §8.3): the tables, the schemas and the definition of an activity. */
export const MODES = ['onsite', 'online', 'hybrid'] as const;
export const SIGN_IN_MODES = ['qr', 'qr_geo', 'manual', 'none'] as const;
/** Sign-in by code: `qr_geo` also takes the trainee's position, within the radius of the place. */
export const BY_CODE: readonly (typeof SIGN_IN_MODES)[number][] = ['qr', 'qr_geo'];
/** A `qr_geo` sign-in's radius around the place, in metres: its default and bounds. */
export const GEO_RADIUS = { default: 300, min: 50, max: 5000 } as const;
/** Trainees named one by one in an audience, at most. */
export const MAX_NAMED_TRAINEES = 500;
export const ACTIVITY_STATUSES = ['draft', 'published', 'ongoing', 'completed', 'cancelled'] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];
/** Published, before or after its start (the clock moves it on): what is open to sign-in, walk-ins and changes. */
export const LIVE: readonly ActivityStatus[] = ['published', 'ongoing'];
/** Who holds an activity's files: its slides, its evidence photos. */
export const MATERIAL = 'teaching-activity.material';
export const PHOTO = 'teaching-activity.photo';
export const MAX_FILES = 20;
export const ATTENDANCES = ['registered', 'present', 'late', 'absent', 'excused'] as const;
export type Attendance = (typeof ATTENDANCES)[number];
/** Those who came: the attendance rate counts them. */
export const ATTENDED: readonly Attendance[] = ['present', 'late'];

interface TeachingActivityTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  title: string;
  activity_type: string;
  org_id: Ref;
  specialty_base_id: Nullable<string>;
  host_doctor_id: Ref;
  co_host_ids: Defaulted<string[]>;
  start_at: ColumnType<Date, Date | string, Date | string>;
  end_at: ColumnType<Date, Date | string, Date | string>;
  mode: Defaulted<(typeof MODES)[number]>;
  location: Nullable<string>;
  online_url: Nullable<string>;
  audience_trainee_type_ids: Defaulted<string[]>;
  audience_org_ids: Defaulted<string[]>;
  audience_cohort_years: Defaulted<number[]>;
  audience_trainee_ids: Defaulted<string[]>;
  geo_latitude: Nullable<number>;
  geo_longitude: Nullable<number>;
  geo_radius_m: Defaulted<number>;
  capacity: Nullable<number>;
  sign_in_mode: Defaulted<(typeof SIGN_IN_MODES)[number]>;
  late_after_minutes: Defaulted<number>;
  evaluation_enabled: Defaulted<boolean>;
  description: Nullable<string>;
  status: Defaulted<ActivityStatus>;
  cancel_reason: Nullable<string>;
  published_at: NullableTimestamp;
  reminded_at: NullableTimestamp;
  participant_count: Defaulted<number>;
  present_count: Defaulted<number>;
  rating_count: Defaulted<number>;
  avg_rating: ColumnType<string | null, number | null | undefined, number | null>;
  remark: Nullable<string>;
  sign_in_open_at: NullableTimestamp;
  sign_in_close_at: NullableTimestamp;
  material_file_ids: Defaulted<string[]>;
  photo_file_ids: Defaulted<string[]>;
}
interface ActivityParticipantTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  activity_id: Ref;
  trainee_id: Ref;
  role: Defaulted<'attendee' | 'presenter'>;
  attendance: Defaulted<Attendance>;
  signed_in_at: NullableTimestamp;
  sign_in_method: Nullable<'qr' | 'qr_geo' | 'manual'>;
  sign_in_distance_m: Nullable<number>;
  note: Nullable<string>;
  rating: Nullable<number>;
  comment: Nullable<string>;
  rated_at: NullableTimestamp;
}
declare module '../../../db/types' {
  interface DB {
    teaching_activity: TeachingActivityTable;
    activity_participant: ActivityParticipantTable;
  }
}

export const Activity = recordRow({
  title: z.string(),
  activityType: z.string().openapi({ description: 'Dictionary `activity_type`' }),
  orgId: z.string().openapi({ description: 'The department that holds it' }),
  orgName: z.string(),
  specialtyBaseId: z.string().nullable().openapi({ description: 'The specialty base it belongs to' }),
  specialtyBaseName: z.string().nullable(),
  hostDoctorId: z.string(),
  hostName: z.string(),
  coHostIds: z.array(z.string()).openapi({ description: 'Doctors who host it with its host' }),
  coHostNames: z.array(z.string()),
  startAt: z.string(),
  endAt: z.string(),
  signInOpenAt: z
    .string()
    .nullable()
    .openapi({ description: 'When sign-in opens, as set (null: 30 minutes before the start)' }),
  signInCloseAt: z.string().nullable().openapi({ description: 'When sign-in closes, as set (null: at the end)' }),
  signInOpensAt: z.string().openapi({ description: 'When sign-in opens (as set, or 30 minutes before the start)' }),
  signInClosesAt: z.string().openapi({ description: 'When sign-in closes (as set, or at the end)' }),
  hostOverlaps: z
    .array(z.object({ id: z.string(), title: z.string(), startAt: z.string(), endAt: z.string() }))
    .openapi({
      description:
        'Other activities (not cancelled) its host hosts or co-hosts at an overlapping time: a warning, not a refusal',
    }),
  materialFileIds: z.array(z.string()).openapi({ description: 'Its slides: files it holds' }),
  photoFileIds: z.array(z.string()).openapi({ description: 'Its evidence photos: files it holds' }),
  mode: z.enum(MODES),
  location: z.string().nullable(),
  onlineUrl: z.string().nullable(),
  audienceTraineeTypeIds: z.array(z.string()),
  audienceTraineeTypeNames: z.array(z.string()),
  audienceOrgIds: z.array(z.string()).openapi({ description: 'Trainees of these training or specialty bases' }),
  audienceOrgNames: z.array(z.string()),
  audienceCohortYears: z.array(z.number().int()),
  audienceTraineeIds: z.array(z.string()).openapi({ description: 'Trainees named one by one' }),
  audienceTraineeNames: z.array(z.string()),
  capacity: z.number().int().nullable(),
  signInMode: z.enum(SIGN_IN_MODES),
  geoLatitude: z.number().nullable().openapi({ description: 'The place (WGS 84), for sign-in mode `qr_geo`' }),
  geoLongitude: z.number().nullable(),
  geoRadiusM: z.number().int().openapi({ description: 'How far from the place a `qr_geo` sign-in is taken, metres' }),
  lateAfterMinutes: z.number().int().openapi({ description: 'A sign-in this long after the start is late' }),
  evaluationEnabled: z.boolean(),
  description: z.string().nullable(),
  status: z.enum(ACTIVITY_STATUSES),
  cancelReason: z.string().nullable(),
  publishedAt: z.string().nullable(),
  remindedAt: z.string().nullable().openapi({ description: 'When its participants were reminded of its start' }),
  participantCount: z.number().int(),
  presentCount: z.number().int().openapi({ description: 'Present or late' }),
  ratingCount: z.number().int(),
  avgRating: z.number().nullable(),
  remark: z.string().nullable(),
}).openapi('TeachingActivity');
export type Activity = z.infer<typeof Activity>;

/** Co-hosts at most: a teaching activity is a department's, not a conference. */
export const MAX_CO_HOSTS = 10;
/** The setting of how long before its start an activity's participants are reminded of it, and its default. */
export const REMINDER_SETTING = 'teaching.activity.reminderHours';
export const REMINDER_HOURS = 24;
const instant = z.iso.datetime({ offset: true }).openapi({ example: '2026-12-01T08:00:00+08:00' });
const ids = (table: 'organization' | 'trainee_type') => z.array(ref(table)).max(100);
const fields = {
  title: field.requiredText(200),
  activityType: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .openapi({ description: 'Dictionary `activity_type`', example: 'ward_round' }),
  orgId: ref('organization').openapi({ description: 'The department (within your data scope)' }),
  specialtyBaseId: ref('organization')
    .nullable()
    .optional()
    .openapi({ description: 'A specialty base (within your data scope)' }),
  hostDoctorId: ref('doctor'),
  coHostIds: z
    .array(ref('doctor'))
    .max(MAX_CO_HOSTS)
    .optional()
    .openapi({ description: `Doctors who host it with its host: distinct, not the host, ${MAX_CO_HOSTS} at most` }),
  startAt: instant,
  endAt: instant.openapi({ description: 'After `startAt`' }),
  mode: z.enum(MODES).optional(),
  location: field.optionalText(200),
  onlineUrl: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .nullable()
    .optional(),
  audienceTraineeTypeIds: ids('trainee_type').optional(),
  audienceOrgIds: ids('organization').optional(),
  audienceCohortYears: z.array(z.number().int().min(1950).max(2100)).max(20).optional(),
  audienceTraineeIds: z
    .array(ref('trainee'))
    .max(MAX_NAMED_TRAINEES)
    .optional()
    .openapi({ description: 'Trainees named one by one (within your data scope), with those the criteria take' }),
  capacity: z.number().int().min(1).max(100_000).nullable().optional(),
  signInMode: z.enum(SIGN_IN_MODES).optional(),
  lateAfterMinutes: z.number().int().min(0).max(240).optional(),
  geoLatitude: z.number().min(-90).max(90).nullable().optional().openapi({ example: 31.2304 }),
  geoLongitude: z.number().min(-180).max(180).nullable().optional().openapi({ example: 121.4737 }),
  geoRadiusM: z
    .number()
    .int()
    .min(GEO_RADIUS.min)
    .max(GEO_RADIUS.max)
    .optional()
    .openapi({ description: `Metres (default ${GEO_RADIUS.default})` }),
  signInOpenAt: instant
    .nullable()
    .optional()
    .openapi({ description: 'When sign-in opens (null: 30 minutes before the start)' }),
  signInCloseAt: instant
    .nullable()
    .optional()
    .openapi({ description: 'When sign-in closes, after it opens (null: at the end)' }),
  evaluationEnabled: z.boolean().optional(),
  description: field.optionalText(5000),
  remark: field.remark,
};
export const CreateActivity = requestBody('CreateTeachingActivity', fields);
export type CreateActivity = z.infer<typeof CreateActivity>;
export const UpdateActivity = updateBody('UpdateTeachingActivity', {
  ...fields,
  title: fields.title.optional(),
  activityType: fields.activityType.optional(),
  orgId: fields.orgId.optional(),
  hostDoctorId: fields.hostDoctorId.optional(),
  startAt: fields.startAt.optional(),
  endAt: fields.endAt.optional(),
});
export type UpdateActivity = z.infer<typeof UpdateActivity>;

export const ActivityAction = requestBody('TeachingActivityAction', { version: Version });
const fileIds = z.array(ref('file')).max(MAX_FILES);
export const ActivityFiles = requestBody('TeachingActivityFiles', {
  materialFileIds: fileIds.optional().openapi({
    description: 'Slides: files uploaded as attachments (or already its own); left out: kept; the rest let go',
  }),
  photoFileIds: fileIds
    .optional()
    .openapi({ description: 'Evidence photos: files uploaded as attachments (or already its own); left out: kept' }),
  version: Version,
});
export type ActivityFiles = z.infer<typeof ActivityFiles>;
export const ActivityFileLinks = z
  .object({ materials: z.array(Attachment), photos: z.array(Attachment) })
  .openapi('TeachingActivityFileLinks');
export const CancelActivity = requestBody('CancelTeachingActivity', {
  reason: field.requiredText(500),
  version: Version,
});
export type CancelActivity = z.infer<typeof CancelActivity>;
export const AddParticipants = requestBody('AddActivityParticipants', {
  traineeIds: z.array(ref('trainee')).min(1).max(500),
});
export type AddParticipants = z.infer<typeof AddParticipants>;
export const CorrectAttendance = requestBody('CorrectActivityAttendance', {
  items: z
    .array(
      z
        .object({
          traineeId: ref('trainee'),
          attendance: z.enum(ATTENDANCES),
          note: field
            .optionalText(200)
            .openapi({ description: 'Why; left out, the note written before stays (null clears it)' }),
        })
        .strict(),
    )
    .min(1)
    .max(500),
});
export type CorrectAttendance = z.infer<typeof CorrectAttendance>;

export const Participant = z
  .object({
    id: z.string(),
    traineeId: z.string(),
    traineeName: z.string(),
    traineeNo: z.string(),
    traineeTypeName: z.string().nullable(),
    baseName: z.string().nullable(),
    role: z.enum(['attendee', 'presenter']),
    attendance: z.enum(ATTENDANCES),
    signedInAt: z.string().nullable(),
    signInMethod: z
      .enum(['qr', 'qr_geo', 'manual'])
      .nullable()
      .openapi({ description: 'By the code, by the code with the position checked, or set by hand' }),
    signInDistanceM: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'How far from the place they signed in (sign-in mode `qr_geo`), metres' }),
    note: z.string().nullable(),
    rating: z.number().int().nullable(),
    comment: z.string().nullable(),
  })
  .openapi('ActivityParticipant');
export type Participant = z.infer<typeof Participant>;

export const SignInCode = z
  .object({
    code: z.string().openapi({ description: 'What the QR code holds (in a link to the sign-in page)' }),
    expiresAt: z.string().openapi({ description: 'When it stops being accepted' }),
    refreshInSeconds: z.number().int().openapi({ description: 'When the next code is shown' }),
  })
  .openapi('ActivitySignInCode');
export type SignInCode = z.infer<typeof SignInCode>;

export const SignIn = requestBody('ActivitySignIn', {
  code: z.string().trim().min(1).max(200),
  traineeNo: z.string().trim().toUpperCase().min(1).max(30),
  name: field.requiredText(50),
  latitude: z
    .number()
    .min(-90)
    .max(90)
    .optional()
    .openapi({ description: "Where the trainee is (the browser's position): needed by sign-in mode `qr_geo`" }),
  longitude: z.number().min(-180).max(180).optional(),
});
export type SignIn = z.infer<typeof SignIn>;
export const SignedIn = z
  .object({
    activityTitle: z.string(),
    traineeName: z.string(),
    attendance: z.enum(ATTENDANCES),
    signedInAt: z.string(),
    already: z.boolean().openapi({ description: 'They had signed in before' }),
    evaluationEnabled: z
      .boolean()
      .openapi({ description: 'It is rated (from its start: by the token, or the rating code)' }),
    rated: z.boolean().openapi({ description: 'They have rated it' }),
    ratingToken: z
      .string()
      .nullable()
      .openapi({ description: 'To rate the activity (when it is evaluated, has started and is not rated yet)' }),
  })
  .openapi('ActivitySignedIn');
export type SignedIn = z.infer<typeof SignedIn>;

export const RatingCode = z
  .object({
    code: z.string().openapi({ description: 'What the rating QR code holds (in a link to the sign-in page)' }),
    opensAt: z.string().openapi({ description: 'The start of the activity' }),
    closesAt: z.string().openapi({ description: 'The end of the rating window' }),
  })
  .openapi('ActivityRatingCode');
export type RatingCode = z.infer<typeof RatingCode>;
export const RatingAccess = requestBody('ActivityRatingAccess', {
  code: z.string().trim().min(1).max(200).openapi({ description: "The activity's rating code" }),
  traineeNo: z.string().trim().toUpperCase().min(1).max(30),
  name: field.requiredText(50),
});
export type RatingAccess = z.infer<typeof RatingAccess>;
export const RatingGranted = z
  .object({
    activityTitle: z.string(),
    traineeName: z.string(),
    ratingToken: z.string().openapi({ description: 'For `rate`' }),
  })
  .openapi('ActivityRatingGranted');
export type RatingGranted = z.infer<typeof RatingGranted>;
export const Rate = requestBody('ActivityRating', {
  token: z.string().trim().min(1).max(300),
  rating: z.number().int().min(1).max(5),
  comment: field.optionalText(500),
});
export type Rate = z.infer<typeof Rate>;

export const StatsQuery = z
  .object({
    from: z.iso.date().optional().openapi({ description: 'First day (default: a year ago)' }),
    to: z.iso.date().optional().openapi({ description: 'Last day (default: today, in the time zone asked)' }),
    orgId: Id.optional(),
    timeZone: field.timeZone
      .optional()
      .openapi({ description: 'Whose months (default UTC)', example: 'Asia/Shanghai' }),
  })
  .strict();
export type StatsQuery = z.infer<typeof StatsQuery>;
export const ActivityStats = z
  .object({
    month: z.string().openapi({ example: '2026-11' }),
    orgId: z.string(),
    orgName: z.string(),
    activityType: z.string(),
    activities: z.number().int(),
    participants: z.number().int(),
    attended: z.number().int(),
    attendanceRate: z.number().nullable().openapi({ description: 'Attended / participants, 0–1' }),
    avgRating: z.number().nullable(),
  })
  .openapi('ActivityStats');
export type ActivityStats = z.infer<typeof ActivityStats>;
export const HostStats = z
  .object({
    doctorId: z.string(),
    doctorName: z.string(),
    hosted: z.number().int().openapi({ description: 'Activities it hosted' }),
    coHosted: z.number().int().openapi({ description: 'Activities it co-hosted' }),
    participants: z.number().int(),
    attended: z.number().int(),
    attendanceRate: z.number().nullable().openapi({ description: 'Attended / participants, 0–1' }),
    ratingCount: z.number().int(),
    avgRating: z.number().nullable(),
  })
  .openapi('ActivityHostStats');
export type HostStats = z.infer<typeof HostStats>;

const iso = (instant: RawBuilder<unknown>) =>
  sql`to_char((${instant}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const column = (name: string) => sql.ref(`teaching_activity.${name}`);
/** How long before its start an activity's sign-in opens. */
const SIGN_IN_OPENS_BEFORE = '30 minutes';
export const activityTable = tableRepository<'teaching_activity', Activity>({
  name: 'teaching_activity',
  columns: columnsOf(Activity, {
    except: [
      'orgName',
      'specialtyBaseName',
      'audienceTraineeNames',
      'hostName',
      'coHostNames',
      'audienceTraineeTypeNames',
      'audienceOrgNames',
      'startAt',
      'endAt',
      'signInOpenAt',
      'signInCloseAt',
      'signInOpensAt',
      'signInClosesAt',
      'hostOverlaps',
      'materialFileIds',
      'photoFileIds',
      'audienceTraineeIds',
      'publishedAt',
      'remindedAt',
      'avgRating',
    ],
  }),
  writeOnly: {
    startAt: 'start_at',
    endAt: 'end_at',
    publishedAt: 'published_at',
    remindedAt: 'reminded_at',
    avgRating: 'avg_rating',
    signInOpenAt: 'sign_in_open_at',
    signInCloseAt: 'sign_in_close_at',
    materialFileIds: 'material_file_ids',
    photoFileIds: 'photo_file_ids',
    audienceTraineeIds: 'audience_trainee_ids',
  },
  tenantOwned: true,
  computed: {
    orgName: sql`(SELECT o.name FROM organization o WHERE o.id = teaching_activity.org_id)`,
    specialtyBaseName: sql`(SELECT o.name FROM organization o WHERE o.id = teaching_activity.specialty_base_id)`,
    audienceTraineeIds: sql`teaching_activity.audience_trainee_ids::text[]`,
    audienceTraineeNames: sql`ARRAY(SELECT p.name FROM unnest(teaching_activity.audience_trainee_ids)
      WITH ORDINALITY x (id, n) JOIN trainee t ON t.id = x.id JOIN person p ON p.id = t.person_id ORDER BY x.n)`,
    hostName: sql`(SELECT p.name FROM doctor d JOIN person p ON p.id = d.person_id
      WHERE d.id = teaching_activity.host_doctor_id)`,
    coHostNames: sql`ARRAY(SELECT p.name FROM unnest(teaching_activity.co_host_ids) WITH ORDINALITY h (id, n)
      JOIN doctor d ON d.id = h.id JOIN person p ON p.id = d.person_id ORDER BY h.n)`,
    audienceTraineeTypeNames: sql`ARRAY(SELECT tt.name FROM unnest(teaching_activity.audience_trainee_type_ids)
      WITH ORDINALITY x (id, n) JOIN trainee_type tt ON tt.id = x.id ORDER BY x.n)`,
    audienceOrgNames: sql`ARRAY(SELECT o.name FROM unnest(teaching_activity.audience_org_ids) WITH ORDINALITY x (id, n)
      JOIN organization o ON o.id = x.id ORDER BY x.n)`,
    startAt: iso(column('start_at')),
    endAt: iso(column('end_at')),
    signInOpenAt: iso(column('sign_in_open_at')),
    signInCloseAt: iso(column('sign_in_close_at')),
    signInOpensAt: iso(
      sql`coalesce(${column('sign_in_open_at')}, ${column('start_at')} - ${SIGN_IN_OPENS_BEFORE}::interval)`,
    ),
    signInClosesAt: iso(sql`coalesce(${column('sign_in_close_at')}, ${column('end_at')})`),
    hostOverlaps: sql`(SELECT coalesce(json_agg(json_build_object('id', o.id::text, 'title', o.title,
        'startAt', ${iso(sql`o.start_at`)}, 'endAt', ${iso(sql`o.end_at`)}) ORDER BY o.start_at, o.id), '[]'::json)
      FROM teaching_activity o
      WHERE o.id <> teaching_activity.id AND o.status <> 'cancelled'
        AND o.start_at < teaching_activity.end_at AND o.end_at > teaching_activity.start_at
        AND (o.host_doctor_id = teaching_activity.host_doctor_id
          OR teaching_activity.host_doctor_id = ANY(o.co_host_ids)))`,
    materialFileIds: sql`teaching_activity.material_file_ids::text[]`,
    photoFileIds: sql`teaching_activity.photo_file_ids::text[]`,
    publishedAt: iso(column('published_at')),
    remindedAt: iso(column('reminded_at')),
    avgRating: sql`teaching_activity.avg_rating::float8`,
  },
});

export const activityResource = defineResource({
  path: 'teaching/activity',
  type: 'teaching_activity',
  permission: 'teaching:activity',
  schemas: { row: Activity, create: CreateActivity, update: UpdateActivity },
  list: {
    sort: { startAt: 'start_at', title: 'title', createdAt: 'created_at', updatedAt: 'updated_at' },
    defaultSort: '-startAt',
    filters: {
      keyword: { kind: 'keyword', columns: ['title', 'location'] },
      activityType: { kind: 'in', column: 'activity_type', pattern: /^[\w-]{1,50}$/ },
      orgId: { kind: 'eq', column: 'org_id', pattern: ID_PATTERN },
      specialtyBaseId: { kind: 'eq', column: 'specialty_base_id', pattern: ID_PATTERN },
      hostDoctorId: { kind: 'eq', column: 'host_doctor_id', pattern: ID_PATTERN },
      mode: { kind: 'in', column: 'mode', values: MODES },
      status: { kind: 'in', column: 'status', values: ACTIVITY_STATUSES },
      startAt: { kind: 'dateRange', column: 'start_at' },
      createdAt: createdAtFilter,
    },
  },
  label: (row) => row.title,
  columns: [
    { key: 'title' },
    { key: 'activityType' },
    { key: 'orgName' },
    { key: 'specialtyBaseName' },
    { key: 'hostName' },
    { key: 'coHostNames', cell: (row) => row.coHostNames.join(', ') },
    { key: 'startAt' },
    { key: 'endAt' },
    { key: 'mode' },
    { key: 'location' },
    { key: 'status' },
    { key: 'participantCount' },
    { key: 'presentCount' },
    { key: 'avgRating' },
    { key: 'createdAt' },
  ],
});
