import type {
  Availability,
  CheckRules,
  ClonePaper,
  CreatePaper,
  Paper,
  PaperPreview,
  UpdatePaper,
} from '@server/modules/assess/paper/paper.resource';
import type { useIntl } from '@umijs/max';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import request, { type Options } from '@/utils/request';

export type { Availability, CreatePaper, Paper, PaperPreview, UpdatePaper };

export const papers = resourceService<Paper, CreatePaper, UpdatePaper>('assess/paper');

const path = '/api/assess/paper';
export const publishPaper = (row: Paper, options?: Options) =>
  papers.action<Paper>(row.id, 'publish', { version: row.version }, options);
export const closePaper = (row: Paper) => papers.action<Paper>(row.id, 'close', { version: row.version });
export const clonePaper = (id: string, body: ClonePaper, options?: Options) =>
  request.post<Paper>(`${path}/${id}/clone`, { ...options, data: body });
export const previewPaper = (id: string, seed: number) =>
  request.get<PaperPreview>(`${path}/${id}/preview`, { params: { seed: String(seed) } });
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
    column('createdAt', { valueType: 'dateTime', hideInSearch: true, sorter: true }),
  ],
}));
