import { z } from '@hono/zod-openapi';
import type { ColumnType } from 'kysely';
import { sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { createdAtFilter } from '../../../core/resource/list-query';
import { columnsOf, tableRepository } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import type { Audited, Id as IdColumn, Nullable, NullableTimestamp, Ref } from '../../../db/types';
import { Attachment } from '../../file/file/file.resource';
import { QuestionItem } from '../question/question.resource';
import { MEDICAL_FORMATS, QUESTION_STATUSES, QUESTION_TYPES } from '../question/question.rules';

/** Exam papers (docs/domain.md §9.2): the tables, the schemas and the definition of a paper. */
export const PURPOSES = [
  'practice',
  'unit_test',
  'department_exit',
  'annual',
  'mock_completion',
  'entrance',
  'cme',
] as const;
export const COMPOSE_MODES = ['manual', 'random_once', 'random_per_candidate'] as const;
export const PAPER_STATUSES = ['draft', 'published', 'closed', 'archived'] as const;
export type PaperStatus = (typeof PAPER_STATUSES)[number];
export const SCORINGS = ['all_or_nothing', 'partial_no_wrong', 'weighted'] as const;
export const GRADE_METHODS = ['highest', 'latest', 'first', 'average'] as const;
export const NAVIGATIONS = ['free', 'sequential'] as const;
export const OVERDUE_HANDLINGS = ['auto_submit', 'grace_period', 'abandon'] as const;
export const SHOW_RESULTS = ['immediately', 'after_close', 'manual', 'never'] as const;
/** How a group's slot scores: each item the slot's score, or the slot's score split evenly among its items. */
export const GROUP_SCORINGS = ['per_item', 'split'] as const;
export type GroupScoring = (typeof GROUP_SCORINGS)[number];

type Numeric = ColumnType<number, number | undefined, number>;
interface ExamPaperTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  code: string;
  title: string;
  purpose: ColumnType<(typeof PURPOSES)[number], (typeof PURPOSES)[number] | undefined, (typeof PURPOSES)[number]>;
  compose_mode: ColumnType<
    (typeof COMPOSE_MODES)[number],
    (typeof COMPOSE_MODES)[number] | undefined,
    (typeof COMPOSE_MODES)[number]
  >;
  total_score: Numeric;
  pass_score: number;
  duration_minutes: number;
  shuffle_questions: ColumnType<boolean, boolean | undefined, boolean>;
  shuffle_options: ColumnType<boolean, boolean | undefined, boolean>;
  multi_answer_scoring: ColumnType<string, string | undefined, string>;
  open_at: NullableTimestamp;
  close_at: NullableTimestamp;
  max_attempts: ColumnType<number, number | undefined, number>;
  grade_method: ColumnType<string, string | undefined, string>;
  navigation: ColumnType<string, string | undefined, string>;
  overdue_handling: ColumnType<string, string | undefined, string>;
  grace_seconds: Nullable<number>;
  show_result: ColumnType<string, string | undefined, string>;
  review_options: ColumnType<ReviewOptions, string | undefined, string>;
  anti_cheat: ColumnType<AntiCheat, string | undefined, string>;
  group_scoring: ColumnType<GroupScoring, GroupScoring | undefined, GroupScoring>;
  instructions: Nullable<string>;
  status: ColumnType<PaperStatus, PaperStatus | undefined, PaperStatus>;
  published_at: NullableTimestamp;
  question_count: Numeric;
  remark: Nullable<string>;
}
interface PaperSectionTable {
  id: IdColumn;
  tenant_id: Ref;
  paper_id: Ref;
  title: string;
  instructions: Nullable<string>;
  default_score: number;
  question_type: Nullable<string>;
  medical_format: Nullable<string>;
  shuffle_questions: Nullable<boolean>;
  sequential: ColumnType<boolean, boolean | undefined, boolean>;
  sort: number;
}
interface PaperSlotTable {
  id: IdColumn;
  tenant_id: Ref;
  paper_id: Ref;
  section_id: Ref;
  question_id: Ref;
  question_version: Nullable<number>;
  score: number;
  sort: number;
}
interface PaperRuleTable {
  id: IdColumn;
  tenant_id: Ref;
  paper_id: Ref;
  section_id: Ref;
  category_ids: ColumnType<string[], string[] | undefined, string[]>;
  include_subcategories: ColumnType<boolean, boolean | undefined, boolean>;
  knowledge_point_ids: ColumnType<string[], string[] | undefined, string[]>;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  tag_match: ColumnType<'any' | 'all', 'any' | 'all' | undefined, 'any' | 'all'>;
  question_type: Nullable<string>;
  medical_format: Nullable<string>;
  difficulty_min: number;
  difficulty_max: number;
  difficulty_mix: ColumnType<DifficultyMix | null, string | null | undefined, string | null>;
  count: number;
  score: number;
  exclude_used_within_days: Nullable<number>;
  sort: number;
}
/** The pool a published random paper's rule draws from: each question it matched then, at the version it had. */
interface PaperRulePoolTable {
  tenant_id: Ref;
  paper_id: Ref;
  rule_id: Ref;
  question_id: Ref;
  question_version: number;
  difficulty: number;
}
declare module '../../../db/types' {
  interface DB {
    exam_paper: ExamPaperTable;
    paper_section: PaperSectionTable;
    paper_slot: PaperSlotTable;
    paper_rule: PaperRuleTable;
    paper_rule_pool: PaperRulePoolTable;
  }
}

const score = z.number().min(0.5).max(999).multipleOf(0.5);
export const DIFFICULTY_LEVELS = ['1', '2', '3', '4', '5'] as const;
/** How many questions of each difficulty level a rule draws (they sum to its count). */
export const DifficultyMix = z
  .partialRecord(z.enum(DIFFICULTY_LEVELS), z.number().int().min(0).max(500))
  .openapi('PaperDifficultyMix', { description: 'How many questions of each difficulty level 1-5; sums to `count`' });
export type DifficultyMix = z.infer<typeof DifficultyMix>;

/** A random draw of a section: what the questions must match, how many, and the score of each. */
export const RuleInput = z
  .object({
    categoryIds: z
      .array(ref('question_category'))
      .max(20)
      .optional()
      .openapi({ description: 'Any of these categories (none: all)' }),
    includeSubcategories: z.boolean().optional().openapi({ description: 'Default true' }),
    knowledgePointIds: z
      .array(ref('knowledge_point'))
      .max(20)
      .optional()
      .openapi({ description: 'Any of these (and those below them)' }),
    tags: z.array(z.string().trim().min(1).max(30)).max(20).optional(),
    tagMatch: z.enum(['any', 'all']).optional(),
    questionType: z.enum(QUESTION_TYPES).nullable().optional(),
    medicalFormat: z.enum(MEDICAL_FORMATS).nullable().optional(),
    difficultyMin: z.number().int().min(1).max(5).optional(),
    difficultyMax: z.number().int().min(1).max(5).optional(),
    difficultyMix: DifficultyMix.nullable()
      .optional()
      .openapi({ description: 'A mix of difficulties instead of a range: how many of each level' }),
    count: z.number().int().min(1).max(500),
    score,
    excludeUsedWithinDays: z
      .number()
      .int()
      .min(1)
      .max(3650)
      .nullable()
      .optional()
      .openapi({ description: 'Leave out the questions a paper published in the last N days used' }),
  })
  .strict()
  .openapi('PaperRuleInput');
export type RuleInput = z.infer<typeof RuleInput>;

const SlotInput = z
  .object({ questionId: ref('question'), score })
  .strict()
  .openapi('PaperSlotInput');
const SectionInput = z
  .object({
    title: field.requiredText(100),
    instructions: field.optionalText(1000),
    defaultScore: score.optional(),
    questionType: z
      .enum(QUESTION_TYPES)
      .nullable()
      .optional()
      .openapi({ description: 'Only questions of this type (its slots and rules)' }),
    medicalFormat: z
      .enum(MEDICAL_FORMATS)
      .nullable()
      .optional()
      .openapi({ description: 'Only questions of this format' }),
    shuffleQuestions: z
      .boolean()
      .nullable()
      .optional()
      .openapi({ description: "Shuffle this section's questions (none: as the paper says)" }),
    sequential: z.boolean().optional().openapi({ description: 'No going back within the section' }),
    slots: z.array(SlotInput).max(300).optional(),
    rules: z.array(RuleInput).max(20).optional(),
  })
  .strict()
  .openapi('PaperSectionInput');
export type SectionInput = z.infer<typeof SectionInput>;

const availability = {
  available: z.number().int().openapi({ description: 'How many questions match now' }),
  availableCapped: z
    .boolean()
    .optional()
    .openapi({ description: 'Present and true when counting stopped at `available`: more match' }),
  caseAnalysis: z
    .boolean()
    .optional()
    .openapi({
      description:
        'Present and true when the rule may draw case-analysis questions (it asks them, or asks no type and ready ones ' +
        'match now): the paper is then sequential',
    }),
};
export const PaperRule = RuleInput.required().extend({
  excludeUsedWithinDays: z.number().int().nullable(),
  available: availability.available.optional().openapi({ description: 'How many questions match now (get only)' }),
  availableCapped: availability.availableCapped,
  caseAnalysis: availability.caseAnalysis,
  levels: z
    .record(z.string(), z.number().int())
    .optional()
    .openapi({ description: 'A mix: how many questions match now at each level it asks (get only)' }),
  together: z
    .object({ rules: z.array(z.number().int()), available: z.number().int(), requested: z.number().int() })
    .optional()
    .openapi({
      description:
        "Present when this rule and others of the paper (indexes among the paper's rules) together ask more questions than they share now (get only)",
    }),
});
export type PaperRule = z.infer<typeof PaperRule>;
export const PaperSlot = z
  .object({
    questionId: z.string(),
    questionVersion: z.number().int().nullable().openapi({ description: 'Pinned when the paper is published' }),
    score: z.number(),
    code: z.string(),
    stem: z.string(),
    questionType: z.enum(QUESTION_TYPES),
    medicalFormat: z.enum(MEDICAL_FORMATS).nullable(),
    difficulty: z.number().int(),
    status: z.enum(QUESTION_STATUSES),
    childCount: z.number().int(),
    points: z.number().openapi({
      description: "What the slot is worth in all: a group's items each score `score` (per_item), or share it",
    }),
  })
  .openapi('PaperSlot');
export type PaperSlot = z.infer<typeof PaperSlot>;
export const PaperSection = z
  .object({
    id: z.string(),
    title: z.string(),
    instructions: z.string().nullable(),
    defaultScore: z.number(),
    questionType: z.enum(QUESTION_TYPES).nullable(),
    medicalFormat: z.enum(MEDICAL_FORMATS).nullable(),
    shuffleQuestions: z.boolean().nullable(),
    sequential: z.boolean(),
    slots: z.array(PaperSlot),
    rules: z.array(PaperRule),
  })
  .openapi('PaperSection');
export type PaperSection = z.infer<typeof PaperSection>;

/** What candidates see of their attempt once the paper shows results. */
export const ReviewOptions = z
  .object({ answers: z.boolean(), analysis: z.boolean(), scores: z.boolean() })
  .strict()
  .openapi('PaperReviewOptions');
export type ReviewOptions = z.infer<typeof ReviewOptions>;
export const AntiCheat = z
  .object({
    fullscreen: z.boolean(),
    maxBlurCount: z.number().int().min(0).max(99).openapi({ description: 'Leaving the page allowed; 0: no limit' }),
    disableCopyPaste: z.boolean(),
    randomizePerCandidate: z.boolean(),
  })
  .strict()
  .openapi('PaperAntiCheat');
export type AntiCheat = z.infer<typeof AntiCheat>;
const instant = z.iso.datetime({ offset: true }).openapi({ example: '2026-12-01T08:00:00+08:00' });

export const Paper = recordRow({
  code: z.string(),
  title: z.string(),
  purpose: z.enum(PURPOSES),
  composeMode: z.enum(COMPOSE_MODES),
  totalScore: z.number(),
  passScore: z.number(),
  durationMinutes: z.number().int(),
  shuffleQuestions: z.boolean(),
  shuffleOptions: z.boolean(),
  multiAnswerScoring: z.enum(SCORINGS),
  openAt: z.string().nullable(),
  closeAt: z.string().nullable(),
  maxAttempts: z.number().int(),
  gradeMethod: z.enum(GRADE_METHODS),
  navigation: z.enum(NAVIGATIONS),
  overdueHandling: z.enum(OVERDUE_HANDLINGS),
  graceSeconds: z.number().int().nullable(),
  showResult: z.enum(SHOW_RESULTS),
  reviewOptions: ReviewOptions,
  antiCheat: AntiCheat,
  groupScoring: z.enum(GROUP_SCORINGS),
  instructions: z.string().nullable(),
  status: z.enum(PAPER_STATUSES),
  publishedAt: z.string().nullable(),
  questionCount: z.number().int(),
  sectionCount: z.number().int(),
  remark: z.string().nullable(),
  /** Its sections with their slots and rules (get only). */
  sections: z.array(PaperSection).optional(),
}).openapi('Paper');
export type Paper = z.infer<typeof Paper>;

const code = field.code(30);
const fields = {
  code,
  title: field.requiredText(200),
  purpose: z.enum(PURPOSES).optional(),
  composeMode: z.enum(COMPOSE_MODES).optional().openapi({ description: 'Rules need a random mode' }),
  passScore: score.max(9999),
  durationMinutes: z.number().int().min(1).max(1440),
  shuffleQuestions: z.boolean().optional(),
  shuffleOptions: z.boolean().optional(),
  multiAnswerScoring: z.enum(SCORINGS).optional(),
  openAt: instant.nullable().optional(),
  closeAt: instant.nullable().optional().openapi({ description: 'After `openAt`' }),
  maxAttempts: z.number().int().min(0).max(100).optional().openapi({ description: '0: unlimited' }),
  gradeMethod: z.enum(GRADE_METHODS).optional(),
  navigation: z.enum(NAVIGATIONS).optional().openapi({
    description:
      'A paper holding case-analysis questions (or with a rule that may draw them) is sequential (the default then)',
  }),
  overdueHandling: z.enum(OVERDUE_HANDLINGS).optional(),
  graceSeconds: z
    .number()
    .int()
    .min(1)
    .max(86400)
    .nullable()
    .optional()
    .openapi({ description: 'Required with `grace_period`, dropped otherwise' }),
  showResult: z.enum(SHOW_RESULTS).optional(),
  reviewOptions: ReviewOptions.optional(),
  antiCheat: AntiCheat.optional(),
  groupScoring: z.enum(GROUP_SCORINGS).optional().openapi({ description: 'Default per_item' }),
  instructions: field.optionalText(5000),
  remark: field.remark,
  sections: z.array(SectionInput).max(20).optional().openapi({ description: 'They replace the sections it had' }),
};
export const CreatePaper = requestBody('CreatePaper', fields);
export type CreatePaper = z.infer<typeof CreatePaper>;
export const UpdatePaper = updateBody('UpdatePaper', {
  ...fields,
  code: code.optional(),
  title: fields.title.optional(),
  passScore: fields.passScore.optional(),
  durationMinutes: fields.durationMinutes.optional(),
});
export type UpdatePaper = z.infer<typeof UpdatePaper>;

export const PaperAction = requestBody('PaperAction', { version: Version });
export const ClonePaper = requestBody('ClonePaper', { code, title: field.requiredText(200) });
export type ClonePaper = z.infer<typeof ClonePaper>;
export const CheckRules = requestBody('CheckRules', {
  rules: z.array(RuleInput).min(1).max(20),
  excludeQuestionIds: z
    .array(ref('question'))
    .max(2000)
    .optional()
    .openapi({ description: 'Questions the paper already holds' }),
});
export type CheckRules = z.infer<typeof CheckRules>;
const Together = z
  .object({
    rules: z
      .array(z.number().int())
      .openapi({ description: 'The rules (indexes in the request) that share questions' }),
    available: z.number().int().openapi({ description: 'How many questions they share in all' }),
    requested: z.number().int().openapi({ description: 'How many they ask in all' }),
  })
  .openapi({ description: 'Present when this rule and others together ask more questions than they share' });
export const RuleAvailability = z
  .object({
    requested: z.number().int(),
    ...availability,
    levels: z
      .record(z.string(), z.number().int())
      .optional()
      .openapi({ description: 'A mix: how many questions match at each level it asks' }),
    together: Together.optional(),
  })
  .openapi('RuleAvailability');
/** What `available` answers: the count, said to be more when it stopped at its cap. */
export interface Availability {
  available: number;
  availableCapped?: boolean;
  caseAnalysis?: boolean;
  levels?: Record<string, number>;
  together?: z.infer<typeof Together>;
}

/** A question of a paper as a candidate reads it (its pinned version once published). */
export const PreviewQuestion = z
  .object({
    id: z.string(),
    code: z.string(),
    version: z.number().int(),
    score: z.number(),
    drawn: z.boolean().openapi({ description: 'Drawn by a random rule' }),
    itemScore: z.number().nullable().openapi({ description: 'A group: the score of each of its items' }),
    questionType: z.enum(QUESTION_TYPES),
    medicalFormat: z.enum(MEDICAL_FORMATS).nullable(),
    stem: z.string(),
    stemMediaFileIds: QuestionItem.shape.stemMediaFileIds,
    options: QuestionItem.shape.options,
    answer: QuestionItem.shape.answer,
    analysis: z.string().nullable(),
    children: z.array(QuestionItem),
  })
  .openapi('PaperPreviewQuestion');
export type PreviewQuestion = z.infer<typeof PreviewQuestion>;
export const PaperPreview = z
  .object({
    seed: z.number().int(),
    totalScore: z.number(),
    sections: z.array(
      z.object({
        title: z.string(),
        instructions: z.string().nullable(),
        sequential: z.boolean().openapi({ description: 'No going back within the section' }),
        questions: z.array(PreviewQuestion),
      }),
    ),
    media: z
      .array(Attachment)
      .optional()
      .openapi({ description: 'The images the questions show (by `stemMediaFileIds`, `mediaIds`), with signed links' }),
  })
  .openapi('PaperPreview');
export type PaperPreview = z.infer<typeof PaperPreview>;
const seed = z.coerce.number().int().min(0).max(2_147_483_647).optional().openapi({ description: 'Default 1' });
export const PreviewQuery = z.object({ seed }).strict();
export const PrintQuery = z
  .object({
    seed,
    answers: z.enum(['true', 'false']).optional().openapi({ description: "`true`: the teacher's copy, with answers" }),
    timeZone: field.timeZone
      .optional()
      .openapi({ description: "Whose clock the paper's window is printed in (default UTC)", example: 'Asia/Shanghai' }),
  })
  .strict();
export type PrintQuery = z.infer<typeof PrintQuery>;

const isoTime = (column: string) =>
  sql`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const paperTable = tableRepository<'exam_paper', Paper>({
  name: 'exam_paper',
  columns: columnsOf(Paper, {
    except: ['sections', 'sectionCount', 'totalScore', 'passScore', 'publishedAt', 'openAt', 'closeAt'],
  }),
  writeOnly: {
    totalScore: 'total_score',
    passScore: 'pass_score',
    publishedAt: 'published_at',
    openAt: 'open_at',
    closeAt: 'close_at',
  },
  json: ['reviewOptions', 'antiCheat'],
  tenantOwned: true,
  computed: {
    openAt: isoTime('exam_paper.open_at'),
    closeAt: isoTime('exam_paper.close_at'),
    totalScore: sql`exam_paper.total_score::float8`,
    passScore: sql`exam_paper.pass_score::float8`,
    publishedAt: isoTime('exam_paper.published_at'),
    sectionCount: sql`(SELECT count(*)::int FROM paper_section s WHERE s.paper_id = exam_paper.id)`,
  },
});

export const paperResource = defineResource({
  path: 'assess/paper',
  type: 'exam_paper',
  permission: 'assess:paper',
  schemas: { row: Paper, create: CreatePaper, update: UpdatePaper },
  list: {
    sort: { code: 'code', title: 'title', createdAt: 'created_at', updatedAt: 'updated_at' },
    defaultSort: '-createdAt',
    filters: {
      keyword: { kind: 'keyword', columns: ['code', 'title'] },
      purpose: { kind: 'in', column: 'purpose', values: PURPOSES },
      composeMode: { kind: 'in', column: 'compose_mode', values: COMPOSE_MODES },
      status: { kind: 'in', column: 'status', values: PAPER_STATUSES },
      createdAt: createdAtFilter,
    },
  },
  label: (row) => `${row.code} ${row.title}`,
  columns: [
    { key: 'code' },
    { key: 'title' },
    { key: 'purpose' },
    { key: 'composeMode' },
    { key: 'totalScore' },
    { key: 'passScore' },
    { key: 'durationMinutes' },
    { key: 'questionCount' },
    { key: 'status' },
    { key: 'publishedAt' },
    { key: 'createdAt' },
  ],
});
