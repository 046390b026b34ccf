import type { Attachment } from '@server/modules/file/file/file.resource';
import type {
  Activity,
  ActivityStats,
  CorrectAttendance,
  CreateActivity,
  HostStats,
  Participant,
  RatingCode,
  RatingGranted,
  SignedIn,
  SignInCode,
  UpdateActivity,
} from '@server/modules/teaching/activity/activity.resource';
import { describeResource } from '@/components/resource/types';
import { organizationPicker } from '@/pages/people/organization/pickers';
import { resourceService } from '@/services/resource';
import request, { type Options } from '@/utils/request';
import GeoText from './GeoText';
import HostSearch from './HostSearch';

export type {
  Activity,
  ActivityStats,
  CreateActivity,
  HostStats,
  Participant,
  RatingGranted,
  SignedIn,
  UpdateActivity,
};

export const activities = resourceService<Activity, CreateActivity, UpdateActivity>('teaching/activity');

const path = '/api/teaching/activity';
export const publishActivity = (row: Activity) =>
  activities.action<Activity>(row.id, 'publish', { version: row.version });
export const completeActivity = (row: Activity) =>
  activities.action<Activity>(row.id, 'complete', { version: row.version });
export const cancelActivity = (row: Activity, reason: string, options?: Options) =>
  activities.action<Activity>(row.id, 'cancel', { reason, version: row.version }, options);
export const fetchParticipants = (id: string) => request.get<Participant[]>(`${path}/${id}/participants`);
export const addParticipants = (id: string, traineeIds: string[], options?: Options) =>
  activities.action<Activity>(id, 'participants', { traineeIds }, options);
export const correctAttendance = (id: string, items: CorrectAttendance['items'], options?: Options) =>
  activities.action<Activity>(id, 'attendance', { items }, options);
/** Its slides and evidence photos with their links; set as a whole per list (a list left out is kept). */
export const fetchActivityFiles = (id: string) =>
  request.get<{ materials: Attachment[]; photos: Attachment[] }>(`${path}/${id}/files`);
export const setActivityFiles = (
  row: Activity,
  files: { materialFileIds?: string[]; photoFileIds?: string[] },
  options?: Options,
) => activities.action<Activity>(row.id, 'files', { ...files, version: row.version }, options);
/** Published, before or after its start (LIVE of activity.resource.ts): open to sign-in, walk-ins and changes. */
export const LIVE: Activity['status'][] = ['published', 'ongoing'];
export const fetchSignInCode = (id: string, options?: Options) =>
  request.get<SignInCode>(`${path}/${id}/sign-in-code`, options);
export const fetchRatingCode = (id: string, options?: Options) =>
  request.get<RatingCode>(`${path}/${id}/rating-code`, options);
export const fetchStats = (query: Record<string, string>) =>
  request.get<ActivityStats[]>(`${path}/stats`, { params: query });
export const fetchHostStats = (query: Record<string, string>) =>
  request.get<HostStats[]>(`${path}/host-stats`, { params: query });
/** The public sign-in and rating: no session, the code (or the sign-in's token) is the proof. */
export const signIn = (
  body: { code: string; traineeNo: string; name: string; latitude?: number; longitude?: number },
  options?: Options,
) => request.post<SignedIn>(`${path}/sign-in`, { ...options, data: body });
export const ratingAccess = (body: { code: string; traineeNo: string; name: string }, options?: Options) =>
  request.post<RatingGranted>(`${path}/rating-token`, { ...options, data: body });
export const rateActivity = (body: { token: string; rating: number; comment?: string }, options?: Options) =>
  request.post<{ avgRating: number | null; ratingCount: number }>(`${path}/rate`, { ...options, data: body });

/** The page a sign-in code opens (the QR code holds its full address; the console's routes are hashed, .umirc.ts). */
export const SIGN_IN_PATH = '/sign-in/activity';
/** With `geo`, the page asks the browser for the trainee's position and sends it (sign-in mode `qr_geo`). */
export const signInLink = (code: string, geo = false) =>
  `${window.location.origin}${window.location.pathname}#${SIGN_IN_PATH}?code=${encodeURIComponent(code)}${geo ? '&geo=1' : ''}`;
/** The same page in its rating mode: the trainee names themselves and rates. */
export const ratingLink = (code: string) =>
  `${window.location.origin}${window.location.pathname}#${SIGN_IN_PATH}?rate=${encodeURIComponent(code)}`;
/** Ratings are taken to this many days after the end (RATING_DAYS of activity.service.ts). */
export const RATING_DAYS = 14;

/** As many co-hosts as the API takes (MAX_CO_HOSTS of activity.resource.ts, which the console does not bundle). */
export const MAX_CO_HOSTS = 10;
export const MODES: Activity['mode'][] = ['onsite', 'online', 'hybrid'];
export const SIGN_IN_MODES: Activity['signInMode'][] = ['qr', 'qr_geo', 'manual', 'none'];
/** Sign-in by code (BY_CODE of activity.resource.ts): `qr_geo` also takes the trainee's position. */
export const BY_CODE: Activity['signInMode'][] = ['qr', 'qr_geo'];
/** A `qr_geo` sign-in's radius in metres (GEO_RADIUS of activity.resource.ts). */
export const GEO_RADIUS = { default: 300, min: 50, max: 5000 } as const;
/** Trainees named one by one in an audience, at most (MAX_NAMED_TRAINEES of activity.resource.ts). */
export const MAX_NAMED_TRAINEES = 500;
/** Trainees found by name, pinyin or number, as choices (an audience's named trainees). */
export const traineeChoices = (keyword?: string) =>
  request
    .get<{ data: { id: string; name: string; traineeNo: string }[] }>('/api/people/trainee', {
      params: { pageSize: '50', ...(keyword && { keyword }) },
    })
    .then(({ data }) => data.map((tr) => ({ value: tr.id, label: `${tr.name} (${tr.traineeNo})` })));
export const ATTENDANCES: Participant['attendance'][] = ['registered', 'present', 'late', 'absent', 'excused'];
/** Those who came (ATTENDED of activity.resource.ts). */
export const ATTENDED: Participant['attendance'][] = ['present', 'late'];
export const ATTENDANCE_COLOURS: Record<Participant['attendance'], string> = {
  registered: 'default',
  present: 'success',
  late: 'warning',
  absent: 'error',
  excused: 'processing',
};
/** Who it is for, in one line: trainee types, bases, cohorts, trainees named. */
const audienceOf = (row: Activity) =>
  [
    ...row.audienceTraineeTypeNames,
    ...row.audienceOrgNames,
    ...row.audienceCohortYears.map(String),
    ...row.audienceTraineeNames,
  ].join('、') || '-';
const names =
  (key: 'audienceTraineeTypeNames' | 'audienceOrgNames' | 'audienceTraineeNames') => (_dom: unknown, row: Activity) =>
    row[key].join('、') || '-';

const STATUS_COLOURS: Record<Activity['status'], string> = {
  draft: 'default',
  published: 'processing',
  ongoing: 'processing',
  completed: 'success',
  cancelled: 'warning',
};

/**
 * Teaching activities (docs/domain.md §8.3): /teach/teaching/list, API teaching/activity, permission prefix
 * teaching:activity; profile /teach/teaching/:id/profile. Edited while a draft or published (the audience is fixed once
 * published); its own form (a time range, the audience's pickers).
 */
export const activityDescriptor = describeResource<Activity, CreateActivity, UpdateActivity>(
  'teaching/activity',
  (column) => ({
    auditType: 'teaching_activity',
    profile: (row) => `/teach/teaching/${row.id}/profile`,
    recordName: (row) => row.title,
    allows: (row, action) =>
      action === 'delete' ? ['draft', 'cancelled'].includes(row.status) : ['draft', ...LIVE].includes(row.status),
    lockReasonId: { update: 'teaching.activity.locked', delete: 'teaching.activity.locked.delete' },
    formLayout: 'DrawerForm',
    form: { create: [], update: [] },
    columns: [
      column('keyword', { searchOnly: true }),
      column('title', { hideInSearch: true, sorter: true }),
      column('activityType', { dict: 'activity_type' }),
      column('orgId', {
        hideInTable: true,
        hideInDescriptions: true,
        searchField: (props) => organizationPicker({ fieldProps: { ...props, 'data-testid': 'search-orgId' } }),
      }),
      column('orgName', { hideInSearch: true }),
      column('specialtyBaseId', {
        hideInTable: true,
        hideInDescriptions: true,
        searchField: (props) =>
          organizationPicker({ fieldProps: { ...props, 'data-testid': 'search-specialtyBaseId' } }),
      }),
      column('specialtyBaseName', { hideInSearch: true, render: (_dom, row) => row.specialtyBaseName ?? '-' }),
      column('hostDoctorId', {
        hideInTable: true,
        hideInDescriptions: true,
        searchField: (props) => <HostSearch {...props} />,
      }),
      column('hostName', { hideInSearch: true }),
      column('coHostNames', {
        hideInSearch: true,
        ellipsis: true,
        render: (_dom, row) => row.coHostNames.join('、') || '-',
      }),
      column('startAt', { valueType: 'dateTime', hideInSearch: true, sorter: true }),
      column('startAt', { valueType: 'dateRange', searchOnly: true }),
      column('endAt', { valueType: 'dateTime', hideInSearch: true, hideInTable: true }),
      column('mode', {
        options: MODES.map((value) => ({ value, labelId: `teaching.activity.mode.${value}` })),
        hideInTable: true,
      }),
      column('location', { hideInSearch: true }),
      column('audience', {
        hideInSearch: true,
        hideInDescriptions: true,
        ellipsis: true,
        render: (_, row) => audienceOf(row),
      }),
      column('audienceTraineeTypeNames', {
        titleId: 'teaching.activity.audienceTraineeTypeIds',
        hideInSearch: true,
        hideInTable: true,
        render: names('audienceTraineeTypeNames'),
      }),
      column('audienceOrgNames', {
        titleId: 'teaching.activity.audienceOrgIds',
        hideInSearch: true,
        hideInTable: true,
        render: names('audienceOrgNames'),
      }),
      column('audienceCohortYears', {
        hideInSearch: true,
        hideInTable: true,
        render: (_, row) => row.audienceCohortYears.join('、') || '-',
      }),
      column('audienceTraineeNames', {
        titleId: 'teaching.activity.audienceTraineeIds',
        hideInSearch: true,
        hideInTable: true,
        render: names('audienceTraineeNames'),
      }),
      column('onlineUrl', { hideInSearch: true, hideInTable: true }),
      column('signInMode', {
        options: SIGN_IN_MODES.map((value) => ({ value, labelId: `teaching.activity.signInMode.${value}` })),
        hideInSearch: true,
        hideInTable: true,
      }),
      column('geo', {
        hideInSearch: true,
        hideInTable: true,
        render: (_dom, row) =>
          row.signInMode === 'qr_geo' && row.geoLatitude !== null && row.geoLongitude !== null ? (
            <span data-testid="activity-geo">
              <GeoText lat={row.geoLatitude} lng={row.geoLongitude} radius={row.geoRadiusM} />
            </span>
          ) : (
            '-'
          ),
      }),
      column('capacity', { hideInSearch: true, hideInTable: true }),
      column('lateAfterMinutes', { hideInSearch: true, hideInTable: true }),
      column('signInOpensAt', { valueType: 'dateTime', hideInSearch: true, hideInTable: true }),
      column('signInClosesAt', { valueType: 'dateTime', hideInSearch: true, hideInTable: true }),
      column('evaluationEnabled', { dict: 'yes_no', hideInSearch: true, hideInTable: true }),
      column('status', {
        options: (Object.keys(STATUS_COLOURS) as Activity['status'][]).map((value) => ({
          value,
          labelId: `teaching.activity.status.${value}`,
          color: STATUS_COLOURS[value],
        })),
      }),
      column('participantCount', { hideInSearch: true }),
      column('presentCount', { hideInSearch: true }),
      column('avgRating', { hideInSearch: true }),
      column('ratingCount', { hideInSearch: true, hideInTable: true }),
      column('cancelReason', { hideInSearch: true, hideInTable: true }),
      column('description', { hideInSearch: true, hideInTable: true }),
      column('publishedAt', { valueType: 'dateTime', hideInSearch: true, hideInTable: true }),
      column('remindedAt', { valueType: 'dateTime', hideInSearch: true, hideInTable: true }),
      column('createdAt', { valueType: 'dateTime', hideInSearch: true, hideInTable: true }),
    ],
  }),
);
