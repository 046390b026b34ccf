import type { CreateQuestion, Question } from '@server/modules/assess/question/question.resource';
import type { MedicalFormat, QuestionStatus, QuestionType } from '@server/modules/assess/question/question.rules';

export type { MedicalFormat, QuestionStatus, QuestionType };

/**
 * The formats each type may carry (the server's rule, question.rules.ts: the console may not import its values); a
 * type or format added there and not here fails the type check.
 */
export const FORMATS_OF: Record<QuestionType, readonly (MedicalFormat | null)[]> = {
  single_choice: [null, 'A1', 'A2'],
  multiple_choice: [null, 'X'],
  true_false: [null],
  fill_blank: [null],
  short_answer: [null],
  essay: [null],
  case_group: ['A3', 'A4'],
  option_group: ['B1'],
  case_analysis: ['CASE'],
};
export const QUESTION_TYPES = Object.keys(FORMATS_OF) as QuestionType[];
/** The dictionary of a question's specialty (the server's rule). */
export const SPECIALTY = 'training_specialty';
const FORMAT_NAMES: Record<MedicalFormat, true> = {
  A1: true,
  A2: true,
  A3: true,
  A4: true,
  B1: true,
  X: true,
  CASE: true,
};
export const MEDICAL_FORMATS = Object.keys(FORMAT_NAMES) as MedicalFormat[];
export const STATUS_COLOURS: Record<QuestionStatus, string> = {
  draft: 'default',
  pending_review: 'processing',
  ready: 'success',
  rejected: 'error',
  hidden: 'warning',
  retired: 'default',
};
export const QUESTION_STATUSES = Object.keys(STATUS_COLOURS) as QuestionStatus[];

/** Types whose question is a group of items. */
export const isGroup = (type: QuestionType | undefined) =>
  type === 'case_group' || type === 'option_group' || type === 'case_analysis';
/** How many items a group of each format holds (the server's rule). */
export const CHILD_COUNT: Partial<Record<MedicalFormat, [number, number]>> = {
  A3: [2, 3],
  A4: [3, 6],
  B1: [2, 10],
  CASE: [2, 10],
};
/** The marker of a blank in a fill-in-the-blanks stem. */
export const BLANK = '{{blank}}';
export const blanksIn = (stem: string | undefined) => (stem ?? '').split(BLANK).length - 1;
/** A stem on one line of a list: its blanks as lines to fill in, not as their marker. */
export const stemLine = (stem: string) => stem.split(BLANK).join('____');

/** An option as the form edits it: its key is its place (A, B, C…), `correct` marks the answer. */
export interface OptionValue {
  text?: string;
  correct?: boolean;
  /** A case analysis stage's option: the points a pick adds (correct, > 0) or deducts (< 0); it marks the answer. */
  weight?: number | null;
  /** The option's images (file ids, in order). */
  mediaIds?: string[];
}
export interface ChildValue {
  stem?: string;
  stemMediaFileIds?: string[];
  options?: OptionValue[];
  /** A B1 item's key among the shared options. */
  answerKey?: string;
  analysis?: string;
}
/** The step form's values: one form across the steps. */
export interface QuestionFormValues {
  questionType?: QuestionType;
  medicalFormat?: MedicalFormat | null;
  categoryId?: string;
  stem?: string;
  /** The stem's images (file ids, in order). */
  stemMediaFileIds?: string[];
  options?: OptionValue[];
  judgement?: boolean;
  blanks?: string[][];
  reference?: string;
  points?: { text?: string; score?: number }[];
  children?: ChildValue[];
  analysis?: string;
  difficulty?: number;
  knowledgePointIds?: string[];
  tags?: string[];
  suggestedScore?: number | null;
  source?: string;
  specialtyCode?: string | null;
  syllabusRef?: string;
  sourceYear?: number | null;
  estimatedSeconds?: number | null;
  changeNote?: string;
  allowDuplicate?: boolean;
}

export const KEYS = 'ABCDEFGH';
export const CHOICE: readonly QuestionType[] = ['single_choice', 'multiple_choice'];
/** How many options a new item starts with: five for the medical formats, four otherwise. */
export const optionCount = (format: MedicalFormat | null | undefined) => (format ? 5 : 4);
export const emptyOptions = (n: number): OptionValue[] =>
  Array.from({ length: n }, () => ({ text: '', correct: false }));

/** How many options an item has, and how many of them it marks correct (none said: its answer is not marked). */
export interface OptionRule {
  min: number;
  max: number;
  correct?: { min: number; max: number };
}
/**
 * How many options an item of `type` in `format` has and marks correct (the server's rule, question.rules.ts
 * `checkItem`, domain §9.1): exactly five for A1–A4 single choice and B1's shared options; at least four for X, three
 * for another multiple choice (a case analysis's stage too, weighed rather than marked), two for a plain single choice;
 * at most eight (A–H). A single choice marks exactly one, a multiple choice two or more.
 */
export function optionRule(type: QuestionType | undefined, format: MedicalFormat | null | undefined): OptionRule {
  if (type === 'option_group') return { min: 5, max: 5 };
  if (type === 'single_choice' || type === 'case_group')
    return { ...(format ? { min: 5, max: 5 } : { min: 2, max: 8 }), correct: { min: 1, max: 1 } };
  if (type === 'case_analysis') return { min: 3, max: 8 };
  if (type === 'multiple_choice') return { min: format === 'X' ? 4 : 3, max: 8, correct: { min: 2, max: 8 } };
  return { min: 0, max: 8 };
}

/** `list` made to fit `rule`: the options already written kept in their places, empty ones added, the extra dropped. */
export const fitOptions = (list: OptionValue[], { min, max }: { min: number; max: number }): OptionValue[] => [
  ...list.slice(0, max),
  ...emptyOptions(Math.max(0, min - list.length)),
];

/** The steps and the fields each holds (a server error on a field opens its step). */
export const STEPS = ['type', 'stem', 'answer', 'details', 'preview'] as const;
export type Step = (typeof STEPS)[number];
const STEP_OF: Record<string, Step> = {
  questionType: 'type',
  medicalFormat: 'type',
  categoryId: 'type',
  stem: 'stem',
  stemMediaFileIds: 'stem',
  children: 'stem',
  options: 'answer',
  judgement: 'answer',
  blanks: 'answer',
  reference: 'answer',
  points: 'answer',
  allowDuplicate: 'preview',
};
export const stepOf = (name: (string | number)[]): Step => {
  const [head, , inner] = name;
  if (head === 'children' && (inner === 'options' || inner === 'answerKey')) return 'answer';
  if (head === 'children' && inner === 'analysis') return 'details';
  return STEP_OF[String(head)] ?? 'details';
};

const options = (list: OptionValue[] | undefined) =>
  (list ?? []).map((option, i) => ({
    key: KEYS[i] as string,
    text: (option.text ?? '').trim(),
    ...(option.mediaIds?.length && { mediaIds: option.mediaIds }),
  }));
const correctKeys = (list: OptionValue[] | undefined) =>
  (list ?? []).flatMap((option, i) => (option.correct ? [KEYS[i] as string] : []));
/** A case analysis stage's options with their weights; the answer is those that add. */
const weighed = (list: OptionValue[] | undefined) =>
  options(list).map((option, i) => ({ ...option, weight: Number(list?.[i]?.weight ?? 0) }));
export const addingKeys = (list: OptionValue[] | undefined) =>
  (list ?? []).flatMap((option, i) => (Number(option.weight ?? 0) > 0 ? [KEYS[i] as string] : []));

/** The body the API takes, from the form's values. */
export function toBody(values: QuestionFormValues): CreateQuestion {
  const type = values.questionType as QuestionType;
  const group = isGroup(type);
  let answer: CreateQuestion['answer'] = null;
  let opts: CreateQuestion['options'] = null;
  if (CHOICE.includes(type)) {
    opts = options(values.options);
    answer = correctKeys(values.options);
  } else if (type === 'true_false') answer = values.judgement ?? null;
  else if (type === 'fill_blank')
    // as many answers as the stem has blanks (a blank taken out of the stem leaves its answers behind)
    answer = Array.from({ length: blanksIn(values.stem) }, (_, i) => values.blanks?.[i] ?? []);
  else if (type === 'short_answer' || type === 'essay')
    answer = {
      reference: values.reference ?? '',
      points: (values.points ?? [])
        .filter((p) => p.text)
        .map((p) => ({ text: p.text as string, score: Number(p.score ?? 0) })),
    };
  else if (type === 'option_group') opts = options(values.options);
  const children = group
    ? (values.children ?? []).map((child) => ({
        stem: (child.stem ?? '').trim(),
        stemMediaFileIds: child.stemMediaFileIds ?? [],
        ...(type === 'option_group'
          ? { answer: child.answerKey ? [child.answerKey] : [] }
          : type === 'case_analysis'
            ? { options: weighed(child.options), answer: addingKeys(child.options) }
            : { options: options(child.options), answer: correctKeys(child.options) }),
        analysis: child.analysis?.trim() || null,
      }))
    : undefined;
  return {
    categoryId: values.categoryId as string,
    questionType: type,
    medicalFormat: values.medicalFormat ?? null,
    stem: (values.stem ?? '').trim(),
    stemMediaFileIds: values.stemMediaFileIds ?? [],
    options: opts,
    answer,
    ...(children && { children }),
    analysis: values.analysis?.trim() || null,
    difficulty: values.difficulty ?? 3,
    knowledgePointIds: values.knowledgePointIds ?? [],
    tags: values.tags ?? [],
    suggestedScore: values.suggestedScore ?? null,
    source: values.source?.trim() || null,
    specialtyCode: values.specialtyCode || null,
    syllabusRef: values.syllabusRef?.trim() || null,
    sourceYear: values.sourceYear ?? null,
    estimatedSeconds: values.estimatedSeconds ?? null,
    ...(values.allowDuplicate && { allowDuplicate: true }),
  };
}

const optionValues = (list: Question['options'], answer: Question['answer']): OptionValue[] => {
  const keys = Array.isArray(answer) && !Array.isArray(answer[0]) ? (answer as string[]) : [];
  return (list ?? []).map((o) => ({
    text: o.text,
    correct: keys.includes(o.key),
    mediaIds: o.mediaIds ?? [],
    ...(o.weight !== undefined && { weight: o.weight }),
  }));
};
/** A stage's options as the form weighs them: a stage written before weights, each correct option 1, each other 0. */
const stageValues = (list: Question['options'], answer: Question['answer']): OptionValue[] =>
  optionValues(list, answer).map((o) => ({ ...o, weight: o.weight ?? (o.correct ? 1 : 0) }));

/** The form's values for a saved question. */
export function toForm(q: Question): QuestionFormValues {
  const answer = q.answer;
  const reference = answer && typeof answer === 'object' && !Array.isArray(answer) ? answer : undefined;
  return {
    questionType: q.questionType,
    medicalFormat: q.medicalFormat,
    categoryId: q.categoryId,
    stem: q.stem,
    stemMediaFileIds: q.stemMediaFileIds ?? [],
    options: optionValues(q.options, answer),
    judgement: typeof answer === 'boolean' ? answer : undefined,
    blanks: q.questionType === 'fill_blank' && Array.isArray(answer) ? (answer as string[][]) : undefined,
    reference: reference?.reference,
    points: reference?.points,
    children: (q.children ?? []).map((child) => ({
      stem: child.stem,
      stemMediaFileIds: child.stemMediaFileIds ?? [],
      options: (q.questionType === 'case_analysis' ? stageValues : optionValues)(child.options, child.answer),
      answerKey: Array.isArray(child.answer) ? (child.answer[0] as string) : undefined,
      analysis: child.analysis ?? undefined,
    })),
    analysis: q.analysis ?? undefined,
    difficulty: q.difficulty,
    knowledgePointIds: q.knowledgePointIds,
    tags: q.tags,
    suggestedScore: q.suggestedScore,
    source: q.source ?? undefined,
    specialtyCode: q.specialtyCode,
    syllabusRef: q.syllabusRef ?? undefined,
    sourceYear: q.sourceYear,
    estimatedSeconds: q.estimatedSeconds,
  };
}

/**
 * The form field a server error names (`answer` of a choice is its options' marks; `children.1.answer` of a B1 group
 * is that item's key).
 */
export function formFieldOf(field: string, type: QuestionType | undefined): (string | number)[] {
  const parts = field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const [head, index, inner] = parts;
  if (head === 'children' && typeof index === 'number') {
    // a stage option's weight is its own field
    if (inner === 'options' && typeof parts[3] === 'number' && parts[4] === 'weight')
      return ['children', index, 'options', parts[3], 'weight'];
    if (inner === 'stemMediaFileIds') return ['children', index, 'stemMediaFileIds'];
    if (inner === 'options' && typeof parts[3] === 'number' && parts[4] === 'mediaIds')
      return ['children', index, 'options', parts[3], 'mediaIds'];
    if (inner === 'answer') return ['children', index, type === 'option_group' ? 'answerKey' : 'options'];
    return ['children', index, inner === 'options' || inner === 'analysis' ? inner : 'stem'];
  }
  if (head === 'answer') {
    if (type === 'true_false') return ['judgement'];
    if (type === 'fill_blank') return ['blanks'];
    if (type === 'short_answer' || type === 'essay') return ['reference'];
    return ['options'];
  }
  if (head === 'options' && typeof index === 'number' && inner === 'mediaIds') return ['options', index, 'mediaIds'];
  if (head === 'options') return ['options'];
  return [String(head)];
}
