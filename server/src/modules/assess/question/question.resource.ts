import { z } from '@hono/zod-openapi';
import type { ColumnType } from 'kysely';
import { type RawBuilder, sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { ID_PATTERN, Id } from '../../../core/resource/id-param';
import { createdAtFilter } from '../../../core/resource/list-query';
import { columnsOf, tableRepository } from '../../../core/resource/table.repository';
import { requestBody } from '../../../core/schema-kit';
import type { Audited, Id as IdColumn, Json, Nullable, NullableJson, NullableTimestamp, Ref } from '../../../db/types';
import {
  QuestionImportRow,
  questionImportColumns,
  questionImportExamples,
  questionImportGroups,
} from './question.import';
import {
  MEDICAL_FORMATS,
  type MedicalFormat,
  QUESTION_STATUSES,
  QUESTION_TYPES,
  type QuestionStatus,
  type QuestionType,
} from './question.rules';
import {
  CreateQuestion,
  itemFields,
  Question,
  QuestionItem,
  QuestionItemInput,
  questionFields,
  tag,
  UpdateQuestion,
} from './question.schema';

export { CreateQuestion, Question, QuestionItem, QuestionItemInput, UpdateQuestion };

/** The question bank (docs/domain.md §9.1): the table, the schemas and the definition of a question. */
interface QuestionTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  parent_id: Nullable<Ref>;
  sub_order: ColumnType<number, number | undefined, number>;
  code: string;
  category_id: Ref;
  question_type: QuestionType;
  medical_format: Nullable<MedicalFormat>;
  stem: string;
  stem_media_file_ids: ColumnType<string[], string[] | undefined, string[]>;
  options: NullableJson;
  answer: NullableJson;
  analysis: Nullable<string>;
  difficulty: ColumnType<number, number | undefined, number>;
  knowledge_point_ids: ColumnType<string[], string[] | undefined, string[]>;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  source: Nullable<string>;
  source_year: Nullable<number>;
  specialty_code: Nullable<string>;
  syllabus_ref: Nullable<string>;
  estimated_seconds: Nullable<number>;
  suggested_score: Nullable<number>;
  status: ColumnType<QuestionStatus, QuestionStatus | undefined, QuestionStatus>;
  current_version: ColumnType<number, number | undefined, number>;
  submitted_by: Nullable<Ref>;
  reviewed_by: Nullable<Ref>;
  reviewed_at: NullableTimestamp;
  review_comment: Nullable<string>;
  content_hash: string;
  usage_count: ColumnType<number, number | undefined, number>;
  last_used_at: NullableTimestamp;
}
interface QuestionVersionTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  question_id: Ref;
  number: number;
  snapshot: Json;
  change_note: Nullable<string>;
}
declare module '../../../db/types' {
  interface DB {
    question: QuestionTable;
    question_version: QuestionVersionTable;
  }
}

const comment = z.string().trim().max(500);
export const SubmitQuestion = requestBody('SubmitQuestion', { version: Version });
export const ReviewQuestion = requestBody('ReviewQuestion', {
  decision: z.enum(['approve', 'reject']),
  comment: comment.optional().openapi({ description: 'Required to reject' }),
  version: Version,
});
export type ReviewQuestion = z.infer<typeof ReviewQuestion>;

/** The statuses a bulk change may set (a draft becomes ready only through review). */
export const BULK_STATUSES = ['ready', 'hidden', 'retired'] as const;
export const BulkUpdateQuestions = requestBody('BulkUpdateQuestions', {
  ids: z.array(Id).min(1).max(500),
  categoryId: ref('question_category').optional(),
  difficulty: z.number().int().min(1).max(5).optional(),
  addTags: z.array(tag).max(20).optional(),
  removeTags: z.array(tag).max(20).optional(),
  addKnowledgePointIds: z.array(ref('knowledge_point')).max(20).optional(),
  removeKnowledgePointIds: z.array(ref('knowledge_point')).max(20).optional(),
  status: z.enum(BULK_STATUSES).optional(),
});
export type BulkUpdateQuestions = z.infer<typeof BulkUpdateQuestions>;

export const QuestionTagQuery = z.object({
  keyword: z.string().max(30).optional().openapi({ description: 'A part of the tag' }),
});

export const FindDuplicates = requestBody('FindDuplicates', {
  stem: itemFields.stem,
  options: itemFields.options,
  children: questionFields.children,
  excludeId: ref('question').optional().openapi({ description: 'The question being edited' }),
});
export type FindDuplicates = z.infer<typeof FindDuplicates>;
export const Duplicate = z
  .object({
    id: z.string(),
    code: z.string(),
    stem: z.string(),
    status: z.enum(QUESTION_STATUSES),
    exact: z.boolean().openapi({ description: 'Same normalised text' }),
    similarity: z.number().openapi({ description: '0 to 1, by trigrams of the stem' }),
  })
  .openapi('QuestionDuplicate');
export type Duplicate = z.infer<typeof Duplicate>;

export const QuestionVersion = z
  .object({
    number: z.number().int(),
    changeNote: z.string().nullable(),
    createdAt: z.string(),
    createdByName: z.string().nullable(),
    snapshot: z.record(z.string(), z.unknown()).openapi({ description: 'The question (and its items) as it was' }),
  })
  .openapi('QuestionVersion');
export type QuestionVersion = z.infer<typeof QuestionVersion>;

/** A paper that holds the question, and the version it pins (none while the paper is a draft). */
export const QuestionUse = z
  .object({
    paperId: z.string(),
    code: z.string(),
    title: z.string(),
    status: z.enum(['draft', 'published', 'closed', 'archived']),
    questionVersion: z.number().int().nullable(),
  })
  .openapi('QuestionUse');
export type QuestionUse = z.infer<typeof QuestionUse>;

export const QuestionStatistics = z
  .object({
    usageCount: z.number().int().openapi({ description: 'Times a published paper took the question' }),
    versionCount: z.number().int(),
    papers: z
      .object({ draft: z.number().int(), published: z.number().int(), closed: z.number().int() })
      .openapi({ description: 'The papers that hold it, by status (archived ones left out)' }),
    lastUsedAt: z
      .string()
      .nullable()
      .openapi({ description: 'When a paper holding it (or drawing from a pool holding it) was last published' }),
    drawableBy: z
      .array(z.object({ paperId: z.string(), code: z.string(), title: z.string() }))
      .openapi({ description: 'Draft papers whose random rules may draw it when they are published' }),
  })
  .openapi('QuestionStatistics');
export type QuestionStatistics = z.infer<typeof QuestionStatistics>;

/** Question `q` (an alias) was not used by a paper published in the last `days` days (`question.last_used_at`). */
export const notUsedWithin = (q: RawBuilder<unknown>, days: number | RawBuilder<unknown>) =>
  sql<boolean>`(${q}.last_used_at IS NULL OR ${q}.last_used_at < now() - make_interval(days => ${days}::int))`;

const isoTime = (column: string) =>
  sql`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const questionTable = tableRepository<'question', Question>({
  name: 'question',
  columns: columnsOf(Question, {
    except: [
      'categoryName',
      'knowledgePointNames',
      'reviewedByName',
      'reviewedAt',
      'childCount',
      'children',
      'suggestedScore',
    ],
  }),
  writeOnly: {
    suggestedScore: 'suggested_score',
    parentId: 'parent_id',
    subOrder: 'sub_order',
    contentHash: 'content_hash',
    reviewedBy: 'reviewed_by',
    reviewedAt: 'reviewed_at',
  },
  json: ['options', 'answer'],
  tenantOwned: true,
  computed: {
    categoryName: sql`(SELECT c.name FROM question_category c WHERE c.id = question.category_id)`,
    knowledgePointNames: sql`ARRAY(SELECT k.name FROM knowledge_point k
      WHERE k.id = ANY(question.knowledge_point_ids) ORDER BY k.path)`,
    reviewedByName: sql`(SELECT u.display_name FROM admin_user u WHERE u.id = question.reviewed_by)`,
    reviewedAt: isoTime('question.reviewed_at'),
    childCount: sql`(SELECT count(*)::int FROM question c WHERE c.parent_id = question.id)`,
    suggestedScore: sql`question.suggested_score::float8`,
  },
});

export const questionResource = defineResource({
  path: 'assess/question',
  type: 'question',
  permission: 'assess:question',
  schemas: { row: Question, create: CreateQuestion, update: UpdateQuestion, importRow: QuestionImportRow },
  // a question (a group with its items) is found in the bank by its content: an exact duplicate
  importKey: 'contentHash',
  importGroups: questionImportGroups,
  // a question names categories and knowledge points, never another question of the sheet
  importIndependent: true,
  importExamples: questionImportExamples,
  list: {
    sort: {
      code: 'code',
      difficulty: 'difficulty',
      usageCount: 'usage_count',
      createdAt: 'created_at',
      updatedAt: 'updated_at',
    },
    defaultSort: '-createdAt',
    filters: {
      // the stem (trigrams) or a code (the store's)
      keyword: { kind: 'keyword', columns: [] },
      // the category and its sub-categories, a knowledge point and those below it, a tag (the store's)
      categoryId: { kind: 'eq', pattern: ID_PATTERN },
      knowledgePointId: { kind: 'eq', pattern: ID_PATTERN },
      tag: { kind: 'eq', pattern: /^[^,]{1,30}$/ },
      // one or more specialties (dictionary training_specialty)
      specialtyCode: { kind: 'in', column: 'specialty_code', pattern: /^[\w.-]{1,50}$/ },
      // not used by a paper published in the last N days (the store's)
      notUsedWithinDays: { kind: 'eq', pattern: /^[1-9]\d{0,3}$/ },
      questionType: { kind: 'in', column: 'question_type', values: QUESTION_TYPES },
      medicalFormat: { kind: 'in', column: 'medical_format', values: MEDICAL_FORMATS },
      difficulty: { kind: 'in', column: 'difficulty', values: ['1', '2', '3', '4', '5'] },
      status: { kind: 'in', column: 'status', values: QUESTION_STATUSES },
      // the chosen questions (an export of the selection): the tenant's only, as every filter
      ids: { kind: 'in', column: 'id', pattern: ID_PATTERN },
      createdAt: createdAtFilter,
    },
  },
  label: (row) => `${row.code} ${row.stem.slice(0, 30)}`,
  // the export writes the import's columns (the service's `exportRows`): an exported file imports again
  columns: questionImportColumns,
});
