import { createHash } from 'node:crypto';
import { invalidField } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';

/**
 * The question types and the medical exam formats (docs/domain.md §9.1): which format each type may carry, and the
 * structure and answer each must have. Pure rules, shared by the form's save, the import and the tests.
 */
export const QUESTION_TYPES = [
  'single_choice',
  'multiple_choice',
  'true_false',
  'fill_blank',
  'short_answer',
  'essay',
  'case_group',
  'option_group',
  'case_analysis',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const MEDICAL_FORMATS = ['A1', 'A2', 'A3', 'A4', 'B1', 'X', 'CASE'] as const;
export type MedicalFormat = (typeof MEDICAL_FORMATS)[number];
export const QUESTION_STATUSES = ['draft', 'pending_review', 'ready', 'rejected', 'hidden', 'retired'] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];

/** The dictionary of a question's specialty (the specialties training is organised by). */
export const SPECIALTY = 'training_specialty';

/** The formats a type may carry; `null` in the list: none is allowed too. */
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

/** Types whose question is a group: a parent with child items. */
export const GROUP_TYPES: readonly QuestionType[] = ['case_group', 'option_group', 'case_analysis'];
export const isGroup = (type: QuestionType) => GROUP_TYPES.includes(type);
/** The type a group's items have. */
export const CHILD_TYPE: Partial<Record<QuestionType, QuestionType>> = {
  case_group: 'single_choice',
  option_group: 'single_choice',
  case_analysis: 'multiple_choice',
};
/** How many items a group of each format holds. */
const CHILD_COUNT: Record<string, [number, number]> = {
  A3: [2, 3],
  A4: [3, 6],
  B1: [2, 10],
  CASE: [2, 10],
};

/** The marker of a blank in a fill-in-the-blanks stem. */
export const BLANK = '{{blank}}';
export const blanksIn = (stem: string) => stem.split(BLANK).length - 1;

export interface Option {
  key: string;
  text: string;
  /** A case analysis stage's option only: points a pick adds (a correct option) or deducts (a wrong one, negative). */
  weight?: number;
  /** The option's images (question.media). */
  mediaIds?: string[];
}
export interface ReferenceAnswer {
  reference: string;
  points?: { text: string; score: number }[];
}
/** Keys of the correct options, true/false, accepted answers per blank, or a reference answer. */
export type Answer = string[] | boolean | string[][] | ReferenceAnswer;

export interface ItemInput {
  stem: string;
  /** The stem's images (question.media): not part of the content hash, which is the text's. */
  stemMediaFileIds?: string[];
  options?: Option[] | null;
  answer?: Answer | null;
  analysis?: string | null;
}
export interface QuestionInput extends ItemInput {
  questionType: QuestionType;
  medicalFormat?: MedicalFormat | null;
  children?: ItemInput[] | null;
}

const texts = {
  'zh-CN': {
    format: (type: string, allowed: string) => `${type} 题只能标注为 ${allowed}`,
    none: '无',
    noChildren: '只有题组（A3/A4、B1、案例分析）才有子题',
    childCount: (format: string, min: number, max: number) => `${format} 题组须有 ${min}–${max} 道子题`,
    noOptions: '该题型不设选项',
    optionsRequired: '须填写选项',
    optionCount: (exact: number | undefined, min: number, max: number) =>
      exact ? `须正好 ${exact} 个选项（A–${String.fromCharCode(64 + exact)}）` : `须有 ${min}–${max} 个选项`,
    optionKeys: '选项须依次为 A、B、C…',
    noAnswer: '题组本身不设答案（答案在子题上）',
    answerKeys: '答案须为选项中的字母',
    single: '单选题须正好一个正确答案',
    multiple: (min: number) => `多选题须至少 ${min} 个正确答案`,
    atLeastOne: '须至少一个正确答案',
    trueFalse: '判断题的答案须为“对”或“错”',
    blanks: (n: number) => `题干有 ${n} 个空（${BLANK}），须为每个空给出可接受的答案`,
    noBlanks: `题干须含至少一个空（${BLANK}）`,
    reference: '须填写参考答案',
    sharedOption: '答案须为共用选项中的一个字母',
    weightCaseOnly: '只有案例分析题各步骤的选项设分值',
    weightCorrect: '正确选项的分值须大于 0',
    weightWrong: '错误选项的分值须为 0 或负数（错选扣分）',
    weightNone: '每一步须至少一个正分值的正确选项',
  },
  'en-US': {
    format: (type: string, allowed: string) => `a ${type} question may only be marked ${allowed}`,
    none: 'none',
    noChildren: 'only a group (A3/A4, B1, case analysis) has items',
    childCount: (format: string, min: number, max: number) => `an ${format} group holds ${min} to ${max} items`,
    noOptions: 'this type has no options',
    optionsRequired: 'are required',
    optionCount: (exact: number | undefined, min: number, max: number) =>
      exact
        ? `must be exactly ${exact} options (A–${String.fromCharCode(64 + exact)})`
        : `must be ${min} to ${max} options`,
    optionKeys: 'must be keyed A, B, C… in order',
    noAnswer: 'a group has no answer of its own (its items have)',
    answerKeys: "must name the options' letters",
    single: 'a single-choice question has exactly one correct option',
    multiple: (min: number) => `a multiple-choice question has at least ${min} correct options`,
    atLeastOne: 'needs one correct option at least',
    trueFalse: 'must be true or false',
    blanks: (n: number) => `the stem has ${n} blanks (${BLANK}); give the accepted answers of each`,
    noBlanks: `the stem needs one blank (${BLANK}) at least`,
    reference: 'a reference answer is required',
    sharedOption: 'must be one letter of the shared options',
    weightCaseOnly: "only the options of a case analysis' stages carry weights",
    weightCorrect: 'a correct option carries a positive weight',
    weightWrong: 'a wrong option weighs 0 or less (a wrong pick deducts)',
    weightNone: 'a stage needs a correct option with a positive weight',
  },
};

const KEYS = 'ABCDEFGH';

function checkOptions(
  options: Option[] | null | undefined,
  at: string,
  { exact, min = 2, max = 8 }: { exact?: number; min?: number; max?: number },
  lang: Lang,
): Option[] {
  const t = texts[lang];
  if (!options || options.length === 0) throw invalidField(`${at}options`, t.optionsRequired);
  const [lo, hi] = exact ? [exact, exact] : [min, max];
  if (options.length < lo || options.length > hi) throw invalidField(`${at}options`, t.optionCount(exact, min, max));
  options.forEach((option, i) => {
    if (option.key !== KEYS[i]) throw invalidField(`${at}options.${i}.key`, t.optionKeys);
  });
  return options;
}

function keysAnswer(answer: Answer | null | undefined, keys: readonly string[], at: string, lang: Lang): string[] {
  const t = texts[lang];
  if (!Array.isArray(answer) || answer.some((a) => typeof a !== 'string' || !keys.includes(a)))
    throw invalidField(`${at}answer`, t.answerKeys);
  const picked = answer as string[];
  if (new Set(picked).size !== picked.length) throw invalidField(`${at}answer`, t.answerKeys);
  return picked;
}

function noOptions(item: ItemInput, at: string, lang: Lang) {
  if (item.options && item.options.length > 0) throw invalidField(`${at}options`, texts[lang].noOptions);
}

/** Weights only on a case analysis stage's options (`noWeights` everywhere else). */
function noWeights(options: Option[] | null | undefined, at: string, lang: Lang) {
  const i = (options ?? []).findIndex((o) => o.weight !== undefined && o.weight !== null);
  if (i >= 0) throw invalidField(`${at}options.${i}.weight`, texts[lang].weightCaseOnly);
}

/**
 * A stage's weights agree with its answer: each correct option adds (a positive weight), each other option adds nothing
 * or deducts; an option without a weight takes its default (`weightOf`).
 */
function checkWeights(options: Option[], answer: string[], at: string, lang: Lang) {
  const t = texts[lang];
  if (!options.some((o) => answer.includes(o.key) && weightOf(o, answer) > 0)) {
    const first = options.findIndex((o) => answer.includes(o.key));
    throw invalidField(`${at}options.${Math.max(first, 0)}.weight`, t.weightNone);
  }
  options.forEach((option, i) => {
    const weight = weightOf(option, answer);
    if (answer.includes(option.key) && weight <= 0) throw invalidField(`${at}options.${i}.weight`, t.weightCorrect);
    if (!answer.includes(option.key) && weight > 0) throw invalidField(`${at}options.${i}.weight`, t.weightWrong);
  });
}

/** An option's weight: its own, or by default 1 when it is correct and 0 when not (a stage written before weights). */
export const weightOf = (option: Option, answer: readonly string[]) =>
  typeof option.weight === 'number' ? option.weight : answer.includes(option.key) ? 1 : 0;

/**
 * What a stage of a case analysis is worth: the sum of its positive weights. A candidate scores the weights of the
 * options picked, added (a wrong pick deducts), never below 0; a stage left is not answered again (no going back).
 */
export const stageMost = (options: readonly Option[], answer: readonly string[]) =>
  options.reduce((sum, o) => sum + Math.max(0, weightOf(o, answer)), 0);

/**
 * A question with every case analysis stage's options weighted (an option given none takes its default), as it is
 * stored; any other question as it is.
 */
export function withWeights<T extends QuestionInput>(input: T): T {
  if (input.questionType !== 'case_analysis' || !input.children) return input;
  return {
    ...input,
    children: input.children.map((child) => {
      const answer = Array.isArray(child.answer) ? (child.answer as string[]) : [];
      return child.options
        ? { ...child, options: child.options.map((o) => ({ ...o, weight: weightOf(o, answer) })) }
        : child;
    }),
  };
}

/** One item's structure and answer by its type (`at`: its place in the request, `children.1.`). */
function checkItem(item: ItemInput, type: QuestionType, format: MedicalFormat | null, at: string, lang: Lang) {
  const t = texts[lang];
  switch (type) {
    case 'single_choice': {
      const medical = format === 'A1' || format === 'A2' || format === 'A3' || format === 'A4';
      const options = checkOptions(item.options, at, medical ? { exact: 5 } : {}, lang);
      const answer = keysAnswer(
        item.answer,
        options.map((o) => o.key),
        at,
        lang,
      );
      if (answer.length !== 1) throw invalidField(`${at}answer`, t.single);
      return;
    }
    case 'multiple_choice': {
      const stage = format === 'CASE';
      const options = checkOptions(item.options, at, { min: format === 'X' ? 4 : 3 }, lang);
      const answer = keysAnswer(
        item.answer,
        options.map((o) => o.key),
        at,
        lang,
      );
      const least = stage ? 1 : 2;
      if (answer.length < least) throw invalidField(`${at}answer`, stage ? t.atLeastOne : t.multiple(least));
      if (stage) checkWeights(options, answer, at, lang);
      return;
    }
    case 'true_false':
      noOptions(item, at, lang);
      if (typeof item.answer !== 'boolean') throw invalidField(`${at}answer`, t.trueFalse);
      return;
    case 'fill_blank': {
      noOptions(item, at, lang);
      const blanks = blanksIn(item.stem);
      if (blanks === 0) throw invalidField(`${at}stem`, t.noBlanks);
      const answer = item.answer;
      if (
        !Array.isArray(answer) ||
        answer.length !== blanks ||
        answer.some((accepted) => !Array.isArray(accepted) || accepted.length === 0)
      )
        throw invalidField(`${at}answer`, t.blanks(blanks));
      return;
    }
    case 'short_answer':
    case 'essay': {
      noOptions(item, at, lang);
      const answer = item.answer as ReferenceAnswer | null | undefined;
      if (!answer || typeof answer !== 'object' || Array.isArray(answer) || !answer.reference?.trim())
        throw invalidField(`${at}answer`, t.reference);
      return;
    }
    default:
      return;
  }
}

/**
 * A question's structure and answer, by its type and format: refused with the field named (`answer`,
 * `children.0.answer`, `medicalFormat`...) in the request's language.
 */
export function checkQuestion(input: QuestionInput, lang: Lang): void {
  const t = texts[lang];
  const { questionType: type } = input;
  const format = input.medicalFormat ?? null;
  const allowed = FORMATS_OF[type];
  if (!allowed.includes(format))
    throw invalidField('medicalFormat', t.format(type, allowed.map((f) => f ?? t.none).join(' / ')));
  const children = input.children ?? [];
  noWeights(input.options, '', lang);
  if (type !== 'case_analysis')
    for (const [i, child] of children.entries()) noWeights(child.options, `children.${i}.`, lang);
  if (!isGroup(type)) {
    if (children.length > 0) throw invalidField('children', t.noChildren);
    checkItem(input, type, format, '', lang);
    return;
  }
  const [min, max] = CHILD_COUNT[format as string] ?? [2, 10];
  if (children.length < min || children.length > max)
    throw invalidField('children', t.childCount(format as string, min, max));
  if (input.answer !== undefined && input.answer !== null) throw invalidField('answer', t.noAnswer);
  if (type === 'option_group') {
    const shared = checkOptions(input.options, '', { exact: 5 }, lang).map((o) => o.key);
    children.forEach((child, i) => {
      noOptions(child, `children.${i}.`, lang);
      const answer = keysAnswer(child.answer, shared, `children.${i}.`, lang);
      if (answer.length !== 1) throw invalidField(`children.${i}.answer`, t.sharedOption);
    });
    return;
  }
  noOptions(input, '', lang);
  const childType = CHILD_TYPE[type] as QuestionType;
  for (const [i, child] of children.entries()) checkItem(child, childType, format, `children.${i}.`, lang);
}

/** From what trigram similarity of the stems (pg_trgm's `similarity`, 0 to 1) a question is a likely duplicate. */
export const SIMILAR = 0.5;

/** The text a duplicate is recognised by: lower case, without spaces, punctuation or symbols. */
export const normalised = (text: string) => text.toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, '');

/**
 * The hash of a question's normalised stem and options (a group's with its items'): equal for the same question. The
 * parts are joined by a control character, which normalising keeps, so the whole is normalised at once.
 */
export function contentHash(item: ItemInput & { children?: ItemInput[] | null }): string {
  const parts = [item.stem, ...(item.options ?? []).map((o) => `${o.key}${o.text}`)];
  for (const child of item.children ?? []) parts.push(child.stem, ...(child.options ?? []).map((o) => o.text));
  return createHash('sha256')
    .update(normalised(parts.join('\u0001')))
    .digest('hex');
}
