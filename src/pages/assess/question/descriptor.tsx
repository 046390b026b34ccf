import type {
  BulkUpdateQuestions,
  CreateQuestion,
  Duplicate,
  FindDuplicates,
  Question,
  QuestionStatistics,
  QuestionUse,
  QuestionVersion,
  UpdateQuestion,
} from '@server/modules/assess/question/question.resource';
import type { QuestionStatus } from '@server/modules/assess/question/question.rules';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import request, { type Options } from '@/utils/request';
import { TaxonomySelect } from '../taxonomy/TaxonomyPickers';
import QuestionTagSelect from './QuestionTagSelect';
import {
  MEDICAL_FORMATS,
  QUESTION_STATUSES,
  QUESTION_TYPES,
  SPECIALTY,
  STATUS_COLOURS,
  stemLine,
} from './questionForm';

export type { CreateQuestion, Duplicate, Question, QuestionStatistics, QuestionUse, QuestionVersion, UpdateQuestion };

export const questions = resourceService<Question, CreateQuestion, UpdateQuestion>('assess/question');

const path = '/api/assess/question';
export const submitQuestion = (row: Question) => questions.action<Question>(row.id, 'submit', { version: row.version });
export const reviewQuestion = (row: Question, body: { decision: 'approve' | 'reject'; comment?: string }) =>
  questions.action<Question>(row.id, 'review', { ...body, version: row.version });
export const bulkUpdateQuestions = (body: BulkUpdateQuestions, options?: Options) =>
  request.post<Question[]>(`${path}/bulk-update`, { ...options, data: body });
export const findDuplicates = (body: FindDuplicates) => request.post<Duplicate[]>(`${path}/duplicates`, { data: body });
export const fetchVersions = (id: string) => request.get<QuestionVersion[]>(`${path}/${id}/versions`);
export const fetchUses = (id: string) => request.get<QuestionUse[]>(`${path}/${id}/papers`);
export const fetchStatistics = (id: string) => request.get<QuestionStatistics>(`${path}/${id}/statistics`);

/** The statuses in which a question is edited (the server's rule; a ready one gets a new version). */
export const EDITABLE: QuestionStatus[] = ['draft', 'rejected', 'ready', 'hidden'];
/** The statuses from which it is submitted for review. */
export const SUBMITTABLE: QuestionStatus[] = ['draft', 'rejected'];

/**
 * The question bank (docs/domain.md §9.1): /question/list, written on its own step-form screen (/question/add,
 * /question/edit/:id), shown on /question/:id/profile; API assess/question, permission prefix assess:question.
 */
export const questionDescriptor = describeResource<Question, CreateQuestion, UpdateQuestion>(
  'assess/question',
  (column) => ({
    auditType: 'question',
    profile: (row) => `/question/${row.id}/profile`,
    formPage: (row) => (row ? `/question/edit/${row.id}` : '/question/add'),
    recordName: (row) => row.code,
    allows: (row, action) => (action === 'update' ? EDITABLE.includes(row.status) : row.usageCount === 0),
    form: { create: [], update: [] },
    importAddsOnly: true,
    columns: [
      column('keyword', { searchOnly: true }),
      column('code', { hideInSearch: true, copyable: true, sorter: true, width: 120 }),
      column('stem', {
        hideInSearch: true,
        ellipsis: true,
        width: 320,
        render: (_dom, row) => <span data-testid="question-stem">{stemLine(row.stem)}</span>,
      }),
      column('categoryId', {
        hideInTable: true,
        hideInDescriptions: true,
        searchField: (props) => <TaxonomySelect kind="category" testId="search-category" {...(props as object)} />,
      }),
      column('categoryName', { hideInSearch: true }),
      column('questionType', {
        options: QUESTION_TYPES.map((value) => ({ value, labelId: `assess.question.type.${value}` })),
      }),
      column('medicalFormat', {
        options: MEDICAL_FORMATS.map((value) => ({
          value,
          labelId: `assess.question.format.${value}`,
          color: 'purple',
        })),
      }),
      column('difficulty', {
        sorter: true,
        options: [1, 2, 3, 4, 5].map((value) => ({
          value: String(value),
          labelId: `assess.question.difficulty.${value}`,
        })),
      }),
      column('knowledgePointId', {
        hideInTable: true,
        hideInDescriptions: true,
        searchField: (props) => (
          <TaxonomySelect kind="knowledge" testId="search-knowledge-point" {...(props as object)} />
        ),
      }),
      column('knowledgePointNames', {
        hideInSearch: true,
        hideInTable: true,
        render: (_d, row) => row.knowledgePointNames.join('、') || '-',
      }),
      column('tag', {
        hideInTable: true,
        hideInDescriptions: true,
        searchField: (props) => <QuestionTagSelect testId="search-tag" {...(props as object)} />,
      }),
      column('notUsedWithinDays', {
        searchOnly: true,
        valueType: 'digit',
        fieldProps: { min: 1, max: 3650, precision: 0, 'data-testid': 'filter-not-used' },
      }),
      column('tags', { hideInSearch: true, render: (_d, row) => row.tags.join('、') || '-' }),
      column('specialtyCode', { dict: SPECIALTY }),
      column('syllabusRef', { hideInSearch: true, hideInTable: true }),
      column('sourceYear', { hideInSearch: true, hideInTable: true }),
      column('estimatedSeconds', { hideInSearch: true, hideInTable: true }),
      column('status', {
        options: QUESTION_STATUSES.map((value) => ({
          value,
          labelId: `assess.question.status.${value}`,
          color: STATUS_COLOURS[value],
        })),
      }),
      column('currentVersion', { hideInSearch: true, width: 70, render: (_d, row) => `v${row.currentVersion}` }),
      column('childCount', { hideInSearch: true, hideInTable: true }),
      column('suggestedScore', { hideInSearch: true, hideInTable: true }),
      column('source', { hideInSearch: true, hideInTable: true }),
      column('usageCount', { hideInSearch: true, hideInTable: true, sorter: true }),
      column('reviewedByName', { hideInSearch: true, hideInTable: true }),
      column('reviewComment', { hideInSearch: true, hideInTable: true }),
      column('createdAt', { valueType: 'dateTime', hideInSearch: true, sorter: true }),
    ],
  }),
);
