import type {
  Availability,
  CheckRules,
  ClonePaper,
  CreatePaper,
  Paper,
  PaperPreview,
  UpdatePaper,
} from '@server/modules/assess/paper/paper.resource';
import { getIntl, useIntl } from '@umijs/max';
import { Space, Tag } from 'antd';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import request, { type Options } from '@/utils/request';

export type { Availability, CreatePaper, Paper, PaperPreview, UpdatePaper };

export const papers = resourceService<Paper, CreatePaper, UpdatePaper>('assess/paper');

const path = '/api/assess/paper';
/** Where a refused field of a paper is ("第 1 部分第 1 条规则"), for the message of a publish, preview or export. */
export function paperPlace(field: string): string | undefined {
  const [, section, kind, n] = /^sections\.(\d+)(?:\.(rules|slots)\.(\d+))?/.exec(field) ?? [];
  if (section === undefined) return undefined;
  return getIntl().formatMessage(
    { id: `assess.paper.place.${kind ?? 'section'}` },
    { section: Number(section) + 1, n: Number(n) + 1 },
  );
}
export const publishPaper = (row: Paper, options?: Options) =>
  papers.action<Paper>(row.id, 'publish', { version: row.version }, { nameField: paperPlace, ...options });
export const closePaper = (row: Paper) => papers.action<Paper>(row.id, 'close', { version: row.version });
export const clonePaper = (id: string, body: ClonePaper, options?: Options) =>
  request.post<Paper>(`${path}/${id}/clone`, { ...options, data: body });
/** A draw the profile shows: a refusal (a rule its bank no longer meets) is its to say, in place. */
export const previewPaper = (id: string, seed: number) =>
  request.get<PaperPreview>(`${path}/${id}/preview`, { params: { seed: String(seed) }, shownByCaller: [400] });
/** "可用 12 道", or "可用 1000+ 道" when counting stopped at its cap. */
export const availableText = (intl: ReturnType<typeof useIntl>, answer: Availability) =>
  intl.formatMessage(
    { id: 'assess.paper.rule.available' },
    { available: answer.available, more: answer.availableCapped ? 'true' : 'false' },
  );
export const checkRules = (body: CheckRules) =>
  request.post<(Availability & { requested: number })[]>(`${path}/check-rules`, { data: body });

export const PURPOSES: Paper['purpose'][] = [
  'practice',
  'unit_test',
  'department_exit',
  'annual',
  'mock_completion',
  'entrance',
  'cme',
];
export const COMPOSE_MODES: Paper['composeMode'][] = ['manual', 'random_once', 'random_per_candidate'];
export const SCORINGS: Paper['multiAnswerScoring'][] = ['all_or_nothing', 'partial_no_wrong', 'weighted'];
export const GRADE_METHODS: Paper['gradeMethod'][] = ['highest', 'latest', 'first', 'average'];
export const OVERDUE_HANDLINGS: Paper['overdueHandling'][] = ['auto_submit', 'grace_period', 'abandon'];
export const SHOW_RESULTS: Paper['showResult'][] = ['immediately', 'after_close', 'manual', 'never'];
export const GROUP_SCORINGS: Paper['groupScoring'][] = ['per_item', 'split'];
const REVIEW_OPTIONS = ['answers', 'analysis', 'scores'] as const;
const ANTI_CHEAT = ['fullscreen', 'disableCopyPaste', 'randomizePerCandidate'] as const;
const choices = (values: readonly string[], prefix: string) =>
  values.map((value) => ({ value, labelId: `${prefix}.${value}` }));
/** "不限" for 0, else the number of attempts. */
function AttemptsText({ n }: { n: number }) {
  const intl = useIntl();
  return <>{n === 0 ? intl.formatMessage({ id: 'assess.paper.maxAttempts.unlimited' }) : n}</>;
}

/** The switches that are on, by their names (a dash when none is). */
function Switches({ ids, prefix, on, blur }: { ids: readonly string[]; prefix: string; on: object; blur?: number }) {
  const intl = useIntl();
  const named = ids
    .filter((id) => (on as Record<string, unknown>)[id] === true)
    .map((id) => intl.formatMessage({ id: `${prefix}.${id}` }));
  if (blur) named.push(intl.formatMessage({ id: 'assess.paper.antiCheat.blurs' }, { n: blur }));
  return (
    <Space size={4} wrap data-testid={`paper-${prefix.split('.').at(-1)}`}>
      {named.length ? named.map((name) => <Tag key={name}>{name}</Tag>) : '-'}
    </Space>
  );
}

const STATUS_COLOURS: Record<Paper['status'], string> = {
  draft: 'default',
  published: 'success',
  closed: 'warning',
  archived: 'default',
};

/**
 * Exam papers (docs/domain.md §9.2): /exam-paper/list, composed on their own screen (/exam-paper/add,
 * /exam-paper/edit/:id), read and previewed on /exam-paper/:id/profile; API assess/paper, permission prefix
 * assess:paper. A published paper is frozen: it is cloned to be changed.
 */
export const paperDescriptor = describeResource<Paper, CreatePaper, UpdatePaper>('assess/paper', (column) => ({
  auditType: 'exam_paper',
  profile: (row) => `/exam-paper/${row.id}/profile`,
  formPage: (row) => (row ? `/exam-paper/edit/${row.id}` : '/exam-paper/add'),
  recordName: (row) => row.title,
  allows: (row) => row.status === 'draft',
  lockReasonId: 'assess.paper.locked',
  form: { create: [], update: [] },
  columns: [
    column('keyword', { searchOnly: true }),
    column('code', { hideInSearch: true, sorter: true, copyable: true }),
    column('title', { hideInSearch: true, sorter: true }),
    column('purpose', { options: PURPOSES.map((value) => ({ value, labelId: `assess.paper.purpose.${value}` })) }),
    column('composeMode', {
      options: COMPOSE_MODES.map((value) => ({ value, labelId: `assess.paper.composeMode.${value}` })),
    }),
    column('totalScore', { hideInSearch: true }),
    column('passScore', { hideInSearch: true }),
    column('durationMinutes', { hideInSearch: true }),
    column('questionCount', { hideInSearch: true }),
    column('status', {
      options: (Object.keys(STATUS_COLOURS) as Paper['status'][]).map((value) => ({
        value,
        labelId: `assess.paper.status.${value}`,
        color: STATUS_COLOURS[value],
      })),
    }),
    column('publishedAt', { valueType: 'dateTime', hideInSearch: true, hideInTable: true }),
    column('instructions', { hideInSearch: true, hideInTable: true }),
    // the delivery settings, as the profile summarises them
    column('openAt', { valueType: 'dateTime', hideInSearch: true, hideInTable: true }),
    column('closeAt', { valueType: 'dateTime', hideInSearch: true, hideInTable: true }),
    column('maxAttempts', {
      hideInSearch: true,
      hideInTable: true,
      render: (_d, row) => <AttemptsText n={row.maxAttempts} />,
    }),
    column('gradeMethod', {
      hideInSearch: true,
      hideInTable: true,
      options: choices(GRADE_METHODS, 'assess.paper.gradeMethod'),
    }),
    column('navigation', {
      hideInSearch: true,
      hideInTable: true,
      options: choices(['free', 'sequential'], 'assess.paper.navigation'),
    }),
    column('overdueHandling', {
      hideInSearch: true,
      hideInTable: true,
      options: choices(OVERDUE_HANDLINGS, 'assess.paper.overdueHandling'),
    }),
    column('graceSeconds', { hideInSearch: true, hideInTable: true }),
    column('showResult', {
      hideInSearch: true,
      hideInTable: true,
      options: choices(SHOW_RESULTS, 'assess.paper.showResult'),
    }),
    column('reviewOptions', {
      hideInSearch: true,
      hideInTable: true,
      render: (_d, row) => <Switches ids={REVIEW_OPTIONS} prefix="assess.paper.reviewOptions" on={row.reviewOptions} />,
    }),
    column('antiCheat', {
      hideInSearch: true,
      hideInTable: true,
      render: (_d, row) => (
        <Switches
          ids={ANTI_CHEAT}
          prefix="assess.paper.antiCheat"
          on={row.antiCheat}
          blur={row.antiCheat.maxBlurCount}
        />
      ),
    }),
    column('multiAnswerScoring', {
      hideInSearch: true,
      hideInTable: true,
      options: choices(SCORINGS, 'assess.paper.multiAnswerScoring'),
    }),
    column('groupScoring', {
      hideInSearch: true,
      hideInTable: true,
      options: choices(GROUP_SCORINGS, 'assess.paper.groupScoring'),
    }),
    column('createdAt', { valueType: 'dateTime', hideInSearch: true, sorter: true }),
  ],
}));
