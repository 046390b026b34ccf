import type { Lang } from '../../../core/i18n';
import type { QuestionItem } from '../question/question.resource';
import { stageMost, weightOf } from '../question/question.rules';
import type { Paper, PaperPreview, PreviewQuestion } from './paper.resource';

/**
 * A paper as it is printed, whatever the format (Word, PDF): a list of lines, each of a kind the format styles. The
 * draw is the preview's; the teacher's copy puts each answer and analysis after its question.
 */
export type PrintedLine =
  | {
      kind:
        | 'title'
        | 'summary'
        | 'candidate'
        | 'instructions'
        | 'section'
        | 'sectionInstructions'
        | 'option'
        | 'analysis';
      text: string;
    }
  | { kind: 'stem'; number: string; text: string }
  | { kind: 'answer'; text: string }
  /** An image of the stem or (`indent`) of an option, in place: the file's bytes are read when the format is made. */
  | { kind: 'image'; fileId: string; indent?: boolean };

/** An image as a format embeds it: its bytes, type and size in pixels (an image a format cannot embed is named). */
export interface PrintedImage {
  data: Buffer;
  mime: string;
  width: number;
  height: number;
}
export type PrintedImages = Map<string, PrintedImage>;

export interface PrintedPaper {
  title: string;
  lines: PrintedLine[];
  /** What stands for an image a format cannot embed (a GIF or WebP, one too large, or gone from the store). */
  missingImage: string;
}

const texts = {
  'zh-CN': {
    total: '总分',
    pass: '及格分',
    minutes: '考试时间（分钟）',
    score: (n: number) => `（${n} 分）`,
    /** A label and its text: `答案：A`. */
    labelled: (label: string, text: string) => `${label}：${text}`,
    separator: '；',
    answer: '答案',
    analysis: '解析',
    key: '（含答案）',
    yes: '正确',
    no: '错误',
    blank: '第 {n} 空',
    weights: (list: string, most: number) => `分值 ${list}；本步满分 ${most}，错选扣分，最低 0 分`,
    opens: '开考',
    closes: '截止',
    window: (from: string, to: string) => `考试时间 ${from} 至 ${to}`,
    attempts: (n: number) => (n === 0 ? '作答次数不限' : `可作答 ${n} 次`),
    sequential: '按顺序作答，答过的题不能返回',
    sectionSequential: '本部分按顺序作答，答过的题不能返回',
    missingImage: '［图片未能嵌入，请在系统中查看］',
    candidate: '姓名：________________　　考号：________________',
  },
  'en-US': {
    total: 'Total',
    pass: 'Pass mark',
    minutes: 'Minutes',
    score: (n: number) => ` (${n} ${n === 1 ? 'point' : 'points'})`,
    labelled: (label: string, text: string) => `${label}: ${text}`,
    separator: '; ',
    answer: 'Answer',
    analysis: 'Analysis',
    key: ' (with answers)',
    yes: 'True',
    no: 'False',
    blank: 'blank {n}',
    weights: (list: string, most: number) => `weights ${list}; stage worth ${most}, wrong picks deduct, not below 0`,
    opens: 'Opens',
    closes: 'Closes',
    window: (from: string, to: string) => `Open from ${from} to ${to}`,
    attempts: (n: number) => (n === 0 ? 'Unlimited attempts' : `Attempts allowed: ${n}`),
    sequential: 'Answered in order: no going back to a question answered',
    sectionSequential: 'This section is answered in order: no going back',
    missingImage: '[image not embedded: see it online]',
    candidate: 'Name: ________________    Candidate No.: ________________',
  },
};

type Answer = QuestionItem['answer'];

/** An answer as a teacher reads it: the keys, true or false, each blank's accepted answers, the reference. */
function answerText(answer: Answer, lang: Lang): string {
  const t = texts[lang];
  if (answer === null || answer === undefined) return '-';
  if (typeof answer === 'boolean') return answer ? t.yes : t.no;
  if (Array.isArray(answer)) {
    if (answer.every((a) => typeof a === 'string')) return (answer as string[]).join('');
    return (answer as string[][])
      .map((accepted, i) => `${t.blank.replace('{n}', String(i + 1))}: ${accepted.join(' / ')}`)
      .join(t.separator);
  }
  return answer.reference;
}

/** A case analysis stage's weights, each option's that is not 0 (`A +2，C +1，E −1`), and what the stage is worth. */
function weightsText({ options, answer }: Pick<QuestionItem, 'options' | 'answer'>, lang: Lang): string {
  if (!options?.some((o) => o.weight !== undefined)) return '';
  const keys = Array.isArray(answer) ? (answer as string[]) : [];
  const list = options
    .filter((o) => weightOf(o, keys) !== 0)
    .map((o) => `${o.key} ${signed(weightOf(o, keys))}`)
    .join(lang === 'zh-CN' ? '，' : ', ');
  return lang === 'zh-CN'
    ? `（${texts[lang].weights(list, stageMost(options, keys))}）`
    : ` (${texts[lang].weights(list, stageMost(options, keys))})`;
}
const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

function item(
  number: string,
  question: Pick<QuestionItem, 'stem' | 'stemMediaFileIds' | 'options' | 'answer' | 'analysis'>,
  answers: boolean,
  lang: Lang,
  score?: number,
): PrintedLine[] {
  const t = texts[lang];
  // a fill-in stem's markers print as a line to write on
  const stem = question.stem.replace(/\{\{blank\}\}/g, '________');
  const lines: PrintedLine[] = [
    { kind: 'stem', number, text: score === undefined ? stem : `${stem}${t.score(score)}` },
    ...(question.stemMediaFileIds ?? []).map((fileId) => ({ kind: 'image' as const, fileId })),
    ...(question.options ?? []).flatMap((option) => [
      { kind: 'option' as const, text: `${option.key}. ${option.text}` },
      ...(option.mediaIds ?? []).map((fileId) => ({ kind: 'image' as const, fileId, indent: true })),
    ]),
  ];
  if (answers) {
    lines.push({
      kind: 'answer',
      text: t.labelled(t.answer, `${answerText(question.answer, lang)}${weightsText(question, lang)}`),
    });
    if (question.analysis) lines.push({ kind: 'analysis', text: t.labelled(t.analysis, question.analysis) });
  }
  return lines;
}

function question(n: number, q: PreviewQuestion, answers: boolean, lang: Lang): PrintedLine[] {
  const head = item(`${n}.`, q, answers && q.children.length === 0, lang, q.score);
  // a group's items each say what they score (the slot's score each, or their share of it)
  const children = q.children.flatMap((child, i) => item(`(${i + 1})`, child, answers, lang, q.itemScore ?? undefined));
  return [...head, ...children];
}

/** An instant as a candidate of `timeZone` reads it: 2026-12-01 08:00. */
function when(iso: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/** What a candidate must know before starting: when the paper is open, how many attempts, whether they may go back. */
function deliveryLine(paper: Paper, lang: Lang, timeZone: string): string {
  const t = texts[lang];
  const said: string[] = [];
  const [from, to] = [paper.openAt && when(paper.openAt, timeZone), paper.closeAt && when(paper.closeAt, timeZone)];
  if (from && to) said.push(t.window(from, to));
  else if (from) said.push(`${t.opens} ${from}`);
  else if (to) said.push(`${t.closes} ${to}`);
  said.push(t.attempts(paper.maxAttempts));
  if (paper.navigation === 'sequential') said.push(t.sequential);
  return said.join(' · ');
}

/** The paper as printed: as a candidate gets it (the preview's draw), or the teacher's copy with the answers. */
export function printedPaper(
  paper: Paper,
  preview: PaperPreview,
  answers: boolean,
  lang: Lang,
  timeZone = 'UTC',
): PrintedPaper {
  const t = texts[lang];
  const title = `${paper.title}${answers ? t.key : ''}`;
  const lines: PrintedLine[] = [
    { kind: 'title', text: title },
    {
      kind: 'summary',
      text: `${t.total} ${paper.totalScore} · ${t.pass} ${paper.passScore} · ${t.minutes} ${paper.durationMinutes}`,
    },
    { kind: 'summary', text: deliveryLine(paper, lang, timeZone) },
  ];
  // the candidate's copy has lines for their name and candidate number
  if (!answers) lines.push({ kind: 'candidate', text: t.candidate });
  if (paper.instructions) lines.push({ kind: 'instructions', text: paper.instructions });
  let n = 0;
  for (const [i, section] of preview.sections.entries()) {
    lines.push({ kind: 'section', text: `${i + 1}. ${section.title}` });
    if (section.instructions) lines.push({ kind: 'sectionInstructions', text: section.instructions });
    if (section.sequential) lines.push({ kind: 'sectionInstructions', text: t.sectionSequential });
    for (const q of section.questions) lines.push(...question(++n, q, answers, lang));
  }
  return { title: paper.title, lines, missingImage: t.missingImage };
}

/** The images the printed paper shows, once each. */
export const printedImageIds = (paper: PrintedPaper): string[] => [
  ...new Set(paper.lines.flatMap((line) => (line.kind === 'image' ? [line.fileId] : []))),
];

/** The ids of every image a preview shows (stems and options, a group's items'), once each. */
export const previewImageIds = (preview: PaperPreview): string[] => [
  ...new Set(
    preview.sections.flatMap((section) =>
      section.questions.flatMap((q) =>
        [q, ...q.children].flatMap((i) => [
          ...(i.stemMediaFileIds ?? []),
          ...(i.options ?? []).flatMap((o) => o.mediaIds ?? []),
        ]),
      ),
    ),
  ),
];
