import { z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { invalidField } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import { labelOf } from '../../../core/labels';
import type { SheetColumn } from '../../../core/resource/define-resource';
import type { ImportGroups, ImportWarner, WriteContext } from '../../../core/resource/resource';
import type { CellValue } from '../../../core/resource/spreadsheet';
import { currentTenant, readIndexed, type Tx } from '../../../core/tenancy';
import { onceIn } from '../../../core/tx-memo';
import { validationError } from '../../../core/validation';
import { authorsInScope } from '../../people/organization/data-scope';
import {
  type Answer,
  CHILD_TYPE,
  checkQuestion,
  contentHash,
  type ItemInput,
  MEDICAL_FORMATS,
  type Option,
  QUESTION_TYPES,
  type QuestionInput,
  type QuestionType,
  SIMILAR,
  SPECIALTY,
} from './question.rules';
import type { CreateQuestion, Question } from './question.schema';

/**
 * The question bank's xlsx import (docs/domain.md §9.1, behaviour 2): one template for every type and format. A row
 * is a question; consecutive rows with the same group number are one group, its first row the group itself (the case
 * of an A3/A4 or case analysis, the shared options of a B1) and the rows after it the group's items, in order. A
 * question (a group with its items) is found by its content hash: an exact duplicate of one in the bank or earlier in
 * the sheet is refused unless its row allows duplicates, as on the form.
 */

const KEYS = 'ABCDEFGH';
const OPTION_COLUMNS = [...KEYS].map((k) => `option${k}`);
/** The columns a group's first row gives for the whole group: its items' rows leave them empty (or repeat them). */
const GROUP_COLUMNS = [
  'questionType',
  'medicalFormat',
  'category',
  'difficulty',
  'knowledgePoints',
  'tags',
  'source',
  'suggestedScore',
  'allowDuplicate',
  'specialtyCode',
  'syllabusRef',
  'sourceYear',
  'estimatedSeconds',
] as const;

const texts = {
  'zh-CN': {
    typeRequired: '须填写题型（题组填在首行）',
    categoryRequired: '须填写分类（题组填在首行）',
    noCategory: (text: string) => `没有编码或路径为“${text}”的分类`,
    disabledCategory: (text: string) => `分类“${text}”已停用，不能放入新题`,
    noPoint: (text: string) => `没有编码或路径为“${text}”的知识点`,
    ambiguous: (text: string) => `“${text}”对应多个知识点，请填写编码或完整路径`,
    noSpecialty: (text: string) => `专业字典（培训专业）中没有编码或名称为“${text}”的专业`,
    groupOnly: '子题沿用题组首行的此列，须留空或与首行相同',
    pointsOnly: '只有简答题和论述题填写得分点',
    pointFormat: '得分点须写为“要点:分值”，多个以分号分隔',
    duplicate: (code: string) => `与已有题目 ${code} 内容相同（确认仍要导入请在“允许重复”列填“是”）`,
    similar: (named: string[]) => `与题库中的题目相似：${named.join('、')}，请确认不是重复题（仍会导入）`,
    similarRows: (named: string[]) => `与本表${named.join('、')}相似，请确认不是重复题（仍会导入）`,
    question: (code: string, percent: number) => `${code}（相似度 ${percent}%）`,
    row: (row: number, percent: number) => `第 ${row} 行（相似度 ${percent}%）`,
    checked: (checked: number, total: number) => `相似题只比对了本表前 ${checked} 道题（共 ${total} 道），其余未比对`,
  },
  'en-US': {
    typeRequired: "is required (a group's on its first row)",
    categoryRequired: "is required (a group's on its first row)",
    noCategory: (text: string) => `no category has the code or path "${text}"`,
    disabledCategory: (text: string) => `the category "${text}" is disabled and takes no new question`,
    noPoint: (text: string) => `no knowledge point has the code or path "${text}"`,
    ambiguous: (text: string) => `"${text}" names several knowledge points: give its code or full path`,
    noSpecialty: (text: string) => `no specialty of the dictionary "training specialty" has the code or name "${text}"`,
    groupOnly: "an item takes this from its group's first row: leave it empty or the same",
    pointsOnly: 'only short answer and essay questions have scoring points',
    pointFormat: 'write each point as "text:score", separated by semicolons',
    duplicate: (code: string) => `is the same as question ${code} (put yes in "allow duplicate" to import it anyway)`,
    similar: (named: string[]) =>
      `resembles questions of the bank: ${named.join(', ')}; check it is not a duplicate (it imports)`,
    similarRows: (named: string[]) =>
      `resembles ${named.join(', ')} of this sheet; check it is not a duplicate (it imports)`,
    question: (code: string, percent: number) => `${code} (${percent}% similar)`,
    row: (row: number, percent: number) => `row ${row} (${percent}% similar)`,
    checked: (checked: number, total: number) =>
      `only the first ${checked} of the sheet's ${total} questions were compared for similarity`,
  },
};

const note = (zh: string, en: string): Record<Lang, string> => ({ 'zh-CN': zh, 'en-US': en });

/** The import's columns (the export's are the list's); each with how to fill it in, on the template's second sheet. */
export const questionImportColumns: SheetColumn<Question>[] = [
  {
    key: 'groupNo',
    note: note(
      '题组（A3/A4、B1、案例分析）的各行填同一组号且相邻：首行是题组本身（病例或共用选项），其后各行是子题；单题留空',
      'The rows of a group (A3/A4, B1, case analysis) share a number and follow each other: the first is the group (its case or shared options), the next its items; empty for a question alone',
    ),
  },
  {
    key: 'questionType',
    note: note(
      `题型编码或名称：${QUESTION_TYPES.join(', ')}；子题留空`,
      `A type's code or name: ${QUESTION_TYPES.join(', ')}; empty on an item`,
    ),
  },
  {
    key: 'medicalFormat',
    note: note(
      `${MEDICAL_FORMATS.join(', ')} 或留空；单选题 A1/A2，多选题 X，病例组 A3/A4，共用选项 B1，案例分析 CASE`,
      `${MEDICAL_FORMATS.join(', ')} or empty; single choice A1/A2, multiple choice X, case group A3/A4, shared options B1, case analysis CASE`,
    ),
  },
  {
    key: 'category',
    label: 'assess.question.categoryId',
    note: note(
      '分类编码，或从根开始以 / 分隔的名称路径（内科学/心血管）',
      "A category's code, or its names from the root separated by / (Internal medicine/Cardiology)",
    ),
  },
  {
    key: 'stem',
    note: note(
      '题干；填空题以 {{blank}} 标出每个空；病例组、案例分析的首行是病例，共用选项题首行是说明。题干和选项的图片不随表格导出或导入：导入后在题目编辑中添加',
      "The stem; mark each blank of a fill-in with {{blank}}; a case group's or case analysis' first row holds the case, a B1's its instructions. The images of stems and options are not in the sheet (neither exported nor imported): add them on the question's form after an import",
    ),
  },
  ...OPTION_COLUMNS.map((key, i) => ({
    key,
    ...(i === 0 && {
      note: note(
        '选项 A–H 依次填写，不留空位；A1–A4 及 B1 共用选项须正好 A–E；B1 子题不填选项',
        'Options A to H in order, without gaps; A1–A4 and the shared options of a B1 have exactly A to E; a B1 item has none',
      ),
    }),
  })),
  {
    key: 'answer',
    note: note(
      '选择题：正确选项的字母（A 或 A,C）；案例分析的各步骤可写每个选项的分值“A:2,C:1,E:-1”（正分为正确选项，负分为错选扣分，未写的选项为 0；只写字母则正确选项各 1 分）；判断题：对/错；填空题：各空以 ; 分隔，同一空的多个可接受答案以 | 分隔；简答、论述题：参考答案；题组首行留空',
      "Choice: the correct letters (A or A,C); a case analysis stage may weigh each option, A:2,C:1,E:-1 (positive: a correct option, negative: a wrong pick deducts, an option left out: 0; letters alone: 1 for each correct option); true/false: true/false; fill-in: blanks separated by ;, a blank's accepted answers by |; short answer and essay: the reference answer; empty on a group's first row",
    ),
  },
  {
    key: 'points',
    label: 'assess.question.points',
    note: note(
      '简答、论述题的得分点：要点:分值，多个以 ; 分隔',
      'Short answer and essay: scoring points as text:score, separated by ;',
    ),
  },
  { key: 'analysis' },
  { key: 'difficulty', note: note('1–5，默认 3', '1 to 5, 3 when empty') },
  {
    key: 'knowledgePoints',
    label: 'assess.question.knowledgePointIds',
    note: note('知识点编码或名称路径，多个以 , 分隔', "Knowledge points' codes or name paths, separated by commas"),
  },
  { key: 'tags', note: note('多个以 , 分隔', 'Separated by commas') },
  { key: 'source' },
  { key: 'suggestedScore' },
  {
    key: 'allowDuplicate',
    label: 'assess.question.import.allowDuplicate',
    note: note(
      '填“是”则与题库或本表中内容相同的题目也导入',
      'yes: import it even when the bank or this sheet has the same question',
    ),
  },
  {
    key: 'specialtyCode',
    note: note(
      '专业：字典“培训专业”的编码或名称；可留空',
      'Specialty: a code or name of the dictionary "training specialty"; may be empty',
    ),
  },
  { key: 'syllabusRef', note: note('考试大纲条目；可留空', 'The exam-outline item; may be empty') },
  {
    key: 'sourceYear',
    note: note('来源年份（1950 至今）；可留空', 'The year it comes from (1950 to this year); may be empty'),
  },
  {
    key: 'estimatedSeconds',
    note: note('预计作答秒数；可留空', 'Seconds a candidate is expected to take; may be empty'),
  },
].map((c) => ({ ...c, only: 'import' as const }));

/** The template's example rows: a question of each type, an A3 group and a B1 group. */
const EXAMPLES: Record<string, CellValue>[] = [
  {
    questionType: 'single_choice',
    medicalFormat: 'A1',
    category: 'internal',
    stem: '急性心肌梗死最常见的心律失常是',
    optionA: '室性早搏',
    optionB: '房颤',
    optionC: '房室传导阻滞',
    optionD: '窦性心动过缓',
    optionE: '室上速',
    answer: 'A',
    analysis: '室性心律失常最多见，尤其是室性早搏',
    difficulty: 2,
    tags: '心内科',
  },
  {
    questionType: 'multiple_choice',
    medicalFormat: 'X',
    category: 'internal',
    stem: '急性心肌梗死的再灌注治疗包括',
    optionA: '溶栓',
    optionB: 'PCI',
    optionC: 'CABG',
    optionD: '口服硝酸甘油',
    answer: 'A,B,C',
  },
  { questionType: 'true_false', category: 'internal', stem: '阿司匹林可用于急性心肌梗死的二级预防', answer: '对' },
  {
    questionType: 'fill_blank',
    category: 'internal',
    stem: '急性心肌梗死首选的抗血小板药是{{blank}}，溶栓药可选{{blank}}',
    answer: '阿司匹林|ASA; 尿激酶|阿替普酶',
  },
  {
    questionType: 'short_answer',
    category: 'internal',
    stem: '简述急性心肌梗死的诊断标准',
    answer: '症状、心电图动态演变、心肌坏死标志物升高',
    points: '症状:2; 心电图:4; 标志物:4',
  },
  {
    groupNo: '1',
    questionType: 'case_group',
    medicalFormat: 'A3',
    category: 'internal',
    stem: '男，56岁，胸骨后压榨样疼痛3小时，含服硝酸甘油不缓解。',
  },
  {
    groupNo: '1',
    stem: '最可能的诊断是',
    optionA: '急性心肌梗死',
    optionB: '心绞痛',
    optionC: '主动脉夹层',
    optionD: '肺栓塞',
    optionE: '心包炎',
    answer: 'A',
  },
  {
    groupNo: '1',
    stem: '首选的检查是',
    optionA: '心电图',
    optionB: '胸片',
    optionC: '腹部B超',
    optionD: '头颅CT',
    optionE: '血常规',
    answer: 'A',
  },
  {
    groupNo: '2',
    questionType: 'option_group',
    medicalFormat: 'B1',
    category: 'internal',
    stem: '以下药物各用于',
    optionA: '阿司匹林',
    optionB: '肝素',
    optionC: '华法林',
    optionD: '尿激酶',
    optionE: '硝酸甘油',
  },
  { groupNo: '2', stem: '抗血小板', answer: 'A' },
  { groupNo: '2', stem: '溶栓', answer: 'D' },
  {
    groupNo: '3',
    questionType: 'case_analysis',
    medicalFormat: 'CASE',
    category: 'internal',
    stem: '男，62岁，突发胸痛2小时，大汗。',
    specialtyCode: 'internal_medicine',
    syllabusRef: '心血管系统-急性冠脉综合征',
    sourceYear: 2023,
    estimatedSeconds: 300,
  },
  {
    groupNo: '3',
    stem: '首先应进行的检查是',
    optionA: '心电图',
    optionB: '心肌标志物',
    optionC: '冠脉造影',
    optionD: '腹部CT',
    answer: 'A:2,B:1,D:-1',
  },
  {
    groupNo: '3',
    stem: '心电图示 V1–V4 导联 ST 段抬高，应给予',
    optionA: '阿司匹林',
    optionB: '急诊PCI',
    optionC: '溶栓后观察',
    optionD: '口服抗生素',
    answer: 'A:1,B:2,D:-1',
  },
];

/**
 * The template's example rows for a tenant: they name the first category of its bank (as its list orders them), so
 * that the template imports as it comes; `internal` when the bank has no category yet.
 */
export async function questionImportExamples(tx: Tx): Promise<Record<string, CellValue>[]> {
  const first = await tx
    .selectFrom('question_category')
    .select('code')
    .where('status', '=', 'enabled')
    .orderBy('depth')
    .orderBy('sort')
    .orderBy('code')
    .executeTakeFirst();
  const category = first?.code ?? 'internal';
  return EXAMPLES.map((row) => (row.category ? { ...row, category } : row));
}

const list = (text: string | undefined) => [
  ...new Set(
    (text ?? '')
      .split(/[,，、;；\n]+/)
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];

/** A type from its code or its name (either language). */
const typeByName = new Map<string, string>(
  QUESTION_TYPES.flatMap((type) => {
    const label = labelOf(`assess.question.type.${type}`);
    return [
      [type, type],
      [label['zh-CN'], type],
      [label['en-US'].toLowerCase(), type],
    ];
  }),
);
const cell = (max: number) => z.string().trim().max(max).optional();

/** One row of the sheet as its cells hold it; the group's record is checked as a create request. */
export const QuestionImportRow = z.object({
  groupNo: cell(30),
  questionType: z
    .preprocess(
      (v) => (typeof v === 'string' ? (typeByName.get(v.trim()) ?? typeByName.get(v.trim().toLowerCase()) ?? v) : v),
      z.enum(QUESTION_TYPES),
    )
    .optional(),
  medicalFormat: z
    .preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() : v), z.enum(MEDICAL_FORMATS))
    .optional(),
  category: cell(400),
  stem: z.string().trim().min(1).max(10_000),
  ...Object.fromEntries(OPTION_COLUMNS.map((key) => [key, cell(2000)])),
  answer: cell(10_000),
  points: cell(10_000),
  analysis: cell(10_000),
  difficulty: z.coerce.number().int().min(1).max(5).optional(),
  knowledgePoints: cell(2000),
  tags: cell(1000),
  source: cell(100),
  suggestedScore: z.coerce.number().min(0).max(999).multipleOf(0.5).optional(),
  allowDuplicate: z
    .stringbool({ truthy: ['true', '1', 'yes', 'y', '是', '允许'], falsy: ['false', '0', 'no', 'n', '否', ''] })
    .optional(),
  specialtyCode: cell(100),
  syllabusRef: cell(100),
  sourceYear: z.coerce.number().int().min(1950).max(2100).optional(),
  estimatedSeconds: z.coerce.number().int().min(1).max(36_000).optional(),
});
type Row = z.infer<typeof QuestionImportRow> & Record<string, unknown>;

const TRUE = ['对', '正确', '是', '√', 'true', 't', 'yes', '1'];
const FALSE = ['错', '错误', '否', '×', 'false', 'f', 'no', '0'];

/** An answer cell as the answer of its type: letters, true/false, the blanks' accepted answers, a reference. */
function answerOf(text: string | undefined, points: string | undefined, type: QuestionType | undefined): unknown {
  if (type === 'short_answer' || type === 'essay') return text || points ? { reference: text ?? '', points } : null;
  if (text === undefined) return null;
  switch (type) {
    case 'single_choice':
    case 'multiple_choice': {
      const letters = text.toUpperCase().replace(/[\s,，、;；]+/g, '');
      return /^[A-Z]+$/.test(letters) ? [...letters] : [text];
    }
    case 'true_false': {
      const word = text.toLowerCase();
      return TRUE.includes(word) ? true : FALSE.includes(word) ? false : text;
    }
    case 'fill_blank':
      return text.split(/[;；\n]+/).map((blank) =>
        blank
          .split('|')
          .map((a) => a.trim())
          .filter(Boolean),
      );
    default:
      return [text];
  }
}

const optionsOf = (row: Row): Option[] | undefined => {
  const options = [...KEYS].flatMap((key) => {
    const text = row[`option${key}`] as string | undefined;
    return text ? [{ key, text }] : [];
  });
  return options.length ? options : undefined;
};

/** An answer cell that weighs options (`A:2,C:1,E:-1`): each key's weight. */
const WEIGHT = /^([A-H])\s*[:：]\s*([+-]?\d+(?:\.\d+)?)$/i;
function weightsIn(text: string | undefined): Map<string, number> | undefined {
  const parts = (text ?? '')
    .split(/[,，、;；]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  const matched = parts.map((p) => WEIGHT.exec(p));
  if (parts.length === 0 || matched.some((m) => !m)) return undefined;
  return new Map(matched.map((m) => [(m?.[1] ?? '').toUpperCase(), Number(m?.[2])]));
}

/**
 * One row as an item of its type (its scoring points kept for the check of its type). Weighed options (a case
 * analysis stage's) carry their weights, an option left out of the cell 0; the answer is the options that add.
 */
const itemOf = (row: Row, type: QuestionType | undefined) => {
  const options = optionsOf(row);
  const weights = weightsIn(row.answer);
  if (!weights || !options) return { ...plainItem(row, type), options };
  const keys = options.map((o) => o.key);
  return {
    ...plainItem(row, type),
    options: options.map((o) => ({ ...o, weight: weights.get(o.key) ?? 0 })),
    // a key that is not an option's stays in the answer, which is refused naming it
    answer: [...weights].flatMap(([key, weight]) => (weight > 0 || !keys.includes(key) ? [key] : [])).sort(),
  };
};
const plainItem = (row: Row, type: QuestionType | undefined) => ({
  stem: row.stem,
  answer: answerOf(row.answer, row.points, type),
  analysis: row.analysis,
  points: row.points,
});

/** The rows of a group (or a question alone) as one record: the group's fields, its first row's item, its items. */
export const questionImportGroups: ImportGroups = {
  key: 'groupNo',
  combine(rows) {
    const [first, ...rest] = rows as Row[];
    if (!first) return {};
    const type = first.questionType;
    const childType = type && CHILD_TYPE[type];
    const children = rest.map((row) => ({
      ...itemOf(row, childType),
      /** The group's columns this row fills otherwise than the first. */
      differs: GROUP_COLUMNS.filter(
        (key) =>
          row[key] !== undefined && row[key] !== first[key] && !(key === 'questionType' && row[key] === childType),
      ),
    }));
    const record = {
      ...first,
      ...itemOf(first, type),
      knowledgePoints: list(first.knowledgePoints),
      tags: list(first.tags),
      children: rest.length ? children : undefined,
    };
    const hashed = { ...record, options: record.options ?? null, children: children.length ? children : null };
    return first.allowDuplicate ? record : { ...record, contentHash: contentHash(hashed as ItemInput) };
  },
  locate(field) {
    const [head = '', ...path] = field.split('.');
    if (head === 'children' && path.length > 0) {
      const [index = '0', ...inner] = path;
      return { index: Number(index) + 1, field: columnOf(inner.join('.')) };
    }
    return { index: 0, field: columnOf(field) };
  },
};

/** The column of a field of the record (`options.2.text` → `optionC`). */
function columnOf(field: string): string {
  const [head = '', at, inner] = field.split('.');
  // a weight is written in the answer cell
  if (head === 'options' && inner === 'weight') return 'answer';
  if (head === 'options') return `option${KEYS[Number(at ?? 0)] ?? 'A'}`;
  if (head === 'categoryId') return 'category';
  if (head === 'knowledgePointIds') return 'knowledgePoints';
  if (head === 'children') return 'groupNo';
  if (head === 'contentHash') return 'stem';
  if (head === 'answer' && at === 'points') return 'points';
  return head;
}

type TaxonomyName = 'question_category' | 'knowledge_point';

/**
 * A tree's nodes by code and by the path of their names (`内科学/心血管`), read once per import (its write context): a
 * node removed meanwhile is refused when the batch naming it is written, one added is not known to the import.
 */
function taxonomyIndex(tx: Tx, ctx: WriteContext, table: TaxonomyName) {
  return onceIn(ctx, `question-import:${table}`, async () => {
    const nodes = await tx.selectFrom(table).select(['id', 'parent_id', 'code', 'name', 'status']).execute();
    const disabled = new Set(nodes.filter((n) => n.status !== 'enabled').map((n) => String(n.id)));
    const byId = new Map(nodes.map((n) => [String(n.id), n]));
    const pathOf = (id: string): string => {
      const node = byId.get(id);
      if (!node) return '';
      const parent = node.parent_id === null ? '' : pathOf(String(node.parent_id));
      return parent ? `${parent}/${node.name}` : node.name;
    };
    const found = new Map<string, string[]>();
    const add = (key: string, id: string) => found.set(key, [...(found.get(key) ?? []), id]);
    for (const node of nodes) {
      const id = String(node.id);
      add(`code:${node.code}`, id);
      add(`path:${pathOf(id)}`, id);
      add(`name:${node.name}`, id);
    }
    /** The node a sheet names, by code, path or (when unique) name; several when the name is ambiguous. */
    const find = (text: string): string[] => {
      const path = text
        .split('/')
        .map((s) => s.trim())
        .join('/');
      return found.get(`code:${text}`) ?? found.get(`path:${path}`) ?? found.get(`name:${text}`) ?? [];
    };
    return { find, disabled };
  });
}

/**
 * The specialties (dictionary training_specialty, the platform's and the tenant's) by code and by name in either
 * language, lower case, read once per import: a sheet may name a specialty as people read it.
 */
function specialtyIndex(tx: Tx, ctx: WriteContext) {
  return onceIn(ctx, 'question-import:specialty', async () => {
    const items = await tx
      .selectFrom('dict_item')
      .select(['value', 'label', 'label_en'])
      .where('type_code', '=', SPECIALTY)
      .where('status', '=', 'enabled')
      .execute();
    const found = new Map<string, string>();
    for (const { value, label, label_en } of items)
      for (const name of [label_en, label, value]) if (name) found.set(name.toLowerCase(), value);
    return found;
  });
}

/** A sheet's question the same as `existing` of the bank (its content hash): refused, saying how to import it anyway. */
export const sameAsInBank = (existing: Pick<Question, 'code'>, ctx: WriteContext) =>
  invalidField('stem', texts[ctx.lang].duplicate(existing.code));

/**
 * A group's record as the create request it makes, checked by the request's `rule` and the type's rules (`checkQuestion`),
 * or refused naming the field (which `questionImportGroups.locate` finds in the sheet).
 */
export async function questionFromImport(
  tx: Tx,
  record: Record<string, unknown>,
  existing: Question | undefined,
  ctx: WriteContext,
  rule: z.ZodType<CreateQuestion>,
): Promise<CreateQuestion> {
  const { lang } = ctx;
  const t = texts[lang];
  if (existing) throw sameAsInBank(existing, ctx);
  const r = record as Row &
    ReturnType<typeof itemOf> & { children?: (ReturnType<typeof itemOf> & { differs: string[] })[] };
  if (!r.questionType) throw invalidField('questionType', t.typeRequired);
  const children = r.children ?? [];
  for (const [i, child] of children.entries())
    for (const key of child.differs) throw invalidField(`children.${i}.${key}`, t.groupOnly);
  const reference = (type: QuestionType | undefined) => type === 'short_answer' || type === 'essay';
  if (r.points && !reference(r.questionType)) throw invalidField('points', t.pointsOnly);
  const childType = CHILD_TYPE[r.questionType];
  for (const [i, child] of children.entries())
    if (child.points && !reference(childType)) throw invalidField(`children.${i}.points`, t.pointsOnly);

  if (!r.category) throw invalidField('category', t.categoryRequired);
  const categories = await taxonomyIndex(tx, ctx, 'question_category');
  const [categoryId, ...others] = categories.find(r.category);
  if (!categoryId || others.length) throw invalidField('category', t.noCategory(r.category));
  if (categories.disabled.has(categoryId)) throw invalidField('category', t.disabledCategory(r.category));
  const points = await taxonomyIndex(tx, ctx, 'knowledge_point');
  const knowledgePointIds = (r.knowledgePoints as unknown as string[]).map((text) => {
    const ids = points.find(text);
    if (ids.length !== 1) throw invalidField('knowledgePoints', ids.length ? t.ambiguous(text) : t.noPoint(text));
    return ids[0] as string;
  });

  const item = ({ stem, options, answer, analysis }: ReturnType<typeof itemOf>, i?: number) => ({
    stem,
    ...(options && { options }),
    ...(answer !== null && { answer: scoringPoints(answer, i === undefined ? '' : `children.${i}.`, lang) }),
    ...(analysis && { analysis }),
  });
  const specialtyCode = r.specialtyCode && (await specialtyIndex(tx, ctx)).get(r.specialtyCode.toLowerCase());
  if (r.specialtyCode && !specialtyCode) throw invalidField('specialtyCode', t.noSpecialty(r.specialtyCode));
  const input = {
    categoryId,
    questionType: r.questionType,
    ...(specialtyCode && { specialtyCode }),
    ...(r.syllabusRef && { syllabusRef: r.syllabusRef }),
    ...(r.sourceYear !== undefined && { sourceYear: r.sourceYear }),
    ...(r.estimatedSeconds !== undefined && { estimatedSeconds: r.estimatedSeconds }),
    ...(r.medicalFormat && { medicalFormat: r.medicalFormat }),
    ...item(r),
    ...(children.length && { children: children.map((child, i) => item(child, i)) }),
    ...(r.difficulty && { difficulty: r.difficulty }),
    knowledgePointIds,
    tags: r.tags as unknown as string[],
    ...(r.source && { source: r.source }),
    ...(r.suggestedScore !== undefined && { suggestedScore: r.suggestedScore }),
    ...(r.allowDuplicate && { allowDuplicate: true }),
  };
  const checked = rule.safeParse(input);
  if (!checked.success) throw validationError(checked.error.issues, lang, input);
  checkQuestion(checked.data as QuestionInput, lang);
  return checked.data;
}

/** A reference answer's points cell (`text:score; …`) as its points. */
function scoringPoints(answer: unknown, at: string, lang: Lang): Answer {
  const reference = answer as { reference?: string; points?: string };
  if (!reference || typeof reference !== 'object' || Array.isArray(reference) || reference.points === undefined)
    return answer as Answer;
  const points = list(reference.points.replace(/[,，、]/g, '\u0000')).map((part) => {
    const match = /^(.*)[:：]\s*(\d+(?:\.\d+)?)$/.exec(part.replaceAll('\u0000', ','));
    if (!match) throw invalidField(`${at}points`, texts[lang].pointFormat);
    return { text: (match[1] ?? '').trim(), score: Number(match[2]) };
  });
  return { reference: reference.reference ?? '', points };
}

/**
 * An answer as the import's cells read it: the `answer` cell and, for a reference answer, the `points` cell. Weighed
 * options (a case analysis stage's) write each weight that is not 0 (`A:2,C:1,E:-1`).
 */
function answerCells(answer: Question['answer'], options: Question['options']): { answer?: string; points?: string } {
  if (options?.some((o) => o.weight !== undefined))
    return {
      answer: options
        .filter((o) => o.weight)
        .map((o) => `${o.key}:${o.weight}`)
        .join(','),
    };
  if (answer === null || answer === undefined) return {};
  if (typeof answer === 'boolean') return { answer: String(answer) };
  if (!Array.isArray(answer))
    return {
      answer: answer.reference,
      ...(answer.points?.length && { points: answer.points.map((p) => `${p.text}:${p.score}`).join('; ') }),
    };
  return {
    answer: answer.map((a) => (Array.isArray(a) ? a.join('|') : a)).join(Array.isArray(answer[0]) ? '; ' : ','),
  };
}

/** An item's stem, options, answer and analysis as the import's cells. */
const itemCells = (item: Pick<Question, 'stem' | 'options' | 'answer' | 'analysis'>): Record<string, CellValue> => ({
  stem: item.stem,
  ...Object.fromEntries((item.options ?? []).map((o) => [`option${o.key}`, o.text])),
  ...answerCells(item.answer, item.options),
  analysis: item.analysis,
});

/**
 * A question as the import template's rows (the export's layout, so that an exported file imports again): a question
 * alone is one row; a group is its row and then its items', all with the group's code as their group number.
 * `categoryCode` and `pointCodes` name the category and knowledge points as an import finds them.
 */
export function questionSheetRows(
  question: Question,
  items: Pick<Question, 'stem' | 'options' | 'answer' | 'analysis'>[],
  categoryCode: string | undefined,
  pointCodes: string[],
): Record<string, CellValue>[] {
  const groupNo = items.length ? question.code : undefined;
  const head = {
    groupNo,
    questionType: question.questionType,
    medicalFormat: question.medicalFormat,
    category: categoryCode,
    ...itemCells(question),
    difficulty: question.difficulty,
    knowledgePoints: pointCodes.join(','),
    tags: question.tags.join(','),
    source: question.source,
    suggestedScore: question.suggestedScore,
    specialtyCode: question.specialtyCode,
    syllabusRef: question.syllabusRef,
    sourceYear: question.sourceYear,
    estimatedSeconds: question.estimatedSeconds,
  };
  return [head, ...items.map((item) => ({ groupNo, ...itemCells(item) }))];
}

/**
 * Makes pg_trgm's `%` in this transaction mean "at least SIMILAR alike": every likely-duplicate look-up (the form's
 * and the import's) reads that threshold, so that `%` finds the candidates through the trigram index.
 */
export const likeAtSimilar = (tx: Tx) =>
  sql`SELECT set_config('pg_trgm.similarity_threshold', ${String(SIMILAR)}, true)`.execute(tx);

/**
 * How many of a sheet's questions (a group: its first row) a dry run compares by similarity with the bank and with
 * each other. Each is a trigram look-up of the bank's stems: on PostgreSQL about 0.25 s in a bank of 1,000,000 alike
 * stems (0.1 to 0.7 s; 50 of them 12 s), a few ms where no stem is alike (tests/bench/questions.ts prints a dry run's).
 * A larger sheet has its first ones compared, and the report says how many.
 */
export const SIMILAR_CHECKED = 50;
/** How many similar questions (or rows) a warning names at most. */
const SIMILAR_NAMED = 3;
/**
 * Stems looked up per statement, each its own short transaction: the embedded database (one connection) answers
 * others between them, a look-up there costing tens of ms in a bank of 100,000.
 */
const SIMILAR_PER_READ = 1;

/**
 * The likely duplicates of an import's new questions, as warnings that stop no row (`ResourceStore.importWarnings`):
 * for each of the first SIMILAR_CHECKED questions of the sheet, the questions of the bank (not retired, within the
 * importer's data scope) whose stem is at least SIMILAR alike, and the earlier rows of the sheet that are. An exact
 * duplicate is refused before (its content hash), unless its row allows it.
 */
export function similarInImport(ctx: WriteContext): ImportWarner<CreateQuestion> {
  const t = texts[ctx.lang];
  const percent = (similarity: number) => Math.round(similarity * 100);
  let total = 0;
  /** The questions compared so far: their rows and stems. */
  const compared: { row: number; stem: string }[] = [];

  /** The bank's questions most like each stem: their codes and similarity, by the stem's index. */
  const inBank = async (tx: Tx, stems: string[]) => {
    const authors = await authorsInScope(tx, ctx.actorId);
    // `%` finds the similar stems through the trigram index, which only the system role may use (`readIndexed`):
    // the ids are found there, and their codes read again as the tenant
    await likeAtSimilar(tx);
    const found = await readIndexed(tx, async () => {
      const { rows } = await sql<{ i: number; id: string; similarity: number }>`SELECT s.i::int AS i,
          q.id::text AS id, q.similarity
        FROM unnest(${stems}::text[]) WITH ORDINALITY AS s(stem, i)
        CROSS JOIN LATERAL (
          SELECT question.id, similarity(question.stem, s.stem)::float8 AS similarity FROM question
          WHERE question.tenant_id = ${currentTenant} AND question.parent_id IS NULL
            AND question.status <> 'retired' AND question.stem % s.stem
            ${authors ? sql`AND question.created_by = ANY(${authors}::bigint[])` : sql``}
          ORDER BY similarity DESC, question.id LIMIT ${SIMILAR_NAMED}) q
        ORDER BY s.i, q.similarity DESC, q.id`.execute(tx);
      return rows;
    });
    const ids = [...new Set(found.map((f) => f.id))];
    const codes = new Map<string, string>();
    if (ids.length > 0) {
      const rows = await tx
        .selectFrom('question')
        .select(['id', 'code'])
        .where(sql<boolean>`id = ANY(${ids}::bigint[])`)
        .execute();
      for (const { id, code } of rows) codes.set(String(id), code);
    }
    const named = new Map<number, string[]>();
    for (const f of found) {
      const code = codes.get(f.id);
      if (code) named.set(f.i - 1, [...(named.get(f.i - 1) ?? []), t.question(code, percent(f.similarity))]);
    }
    return named;
  };

  /** The earlier compared rows like each of the compared from `from` on, by its index among them. */
  const inSheet = async (tx: Tx, from: number) => {
    await likeAtSimilar(tx);
    const all = compared.map((c) => c.stem);
    const { rows } = await sql<{ i: number; j: number; similarity: number }>`SELECT a.i::int AS i,
        b.i::int AS j, similarity(a.stem, b.stem)::float8 AS similarity
      FROM unnest(${all}::text[]) WITH ORDINALITY AS a(stem, i)
      JOIN unnest(${all}::text[]) WITH ORDINALITY AS b(stem, i) ON b.i < a.i
      WHERE a.i > ${from} AND a.stem % b.stem
      ORDER BY a.i, similarity DESC, b.i`.execute(tx);
    const alike = new Map<number, string[]>();
    for (const { i, j, similarity } of rows) {
      const named = alike.get(i - 1) ?? [];
      const other = compared[j - 1];
      if (other && named.length < SIMILAR_NAMED) alike.set(i - 1, [...named, t.row(other.row, percent(similarity))]);
    }
    return alike;
  };

  return {
    async check(read, records) {
      total += records.length;
      const taken = records.slice(0, Math.max(0, SIMILAR_CHECKED - compared.length));
      if (taken.length === 0) return [];
      const warnings: { index: number; field: string; message: string }[] = [];
      for (let from = 0; from < taken.length; from += SIMILAR_PER_READ) {
        const stems = taken.slice(from, from + SIMILAR_PER_READ).map((r) => r.input.stem);
        const named = await read((tx) => inBank(tx, stems));
        for (const [i, questions] of named)
          warnings.push({ index: from + i, field: 'stem', message: t.similar(questions) });
      }
      // the sheet's own rows: each compared question with those compared before it
      const earlier = compared.length;
      compared.push(...taken.map((r) => ({ row: r.row, stem: r.input.stem })));
      const alike = await read((tx) => inSheet(tx, earlier));
      for (const [i, rows] of alike) warnings.push({ index: i - earlier, field: 'stem', message: t.similarRows(rows) });
      return warnings;
    },
    partial: () =>
      total > compared.length
        ? { checked: compared.length, total, message: t.checked(compared.length, total) }
        : undefined,
  };
}
