import type { Lang } from '../../../core/i18n';
import type { QuestionItem } from '../question/question.resource';
import type { Paper, PaperPreview, PreviewQuestion } from './paper.resource';

/**
 * A paper as it is printed, whatever the format (Word, PDF): a list of lines, each of a kind the format styles. The
 * draw is the preview's; the teacher's copy puts each answer and analysis after its question.
 */
export type PrintedLine =
  | {
      kind: 'title' | 'summary' | 'instructions' | 'section' | 'sectionInstructions' | 'option' | 'analysis';
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
    points: '分',
    answer: '答案',
    analysis: '解析',
    key: '（含答案）',
    yes: '正确',
    no: '错误',
    blank: '第 {n} 空',
    missingImage: '［图片未能嵌入，请在系统中查看］',
  },
  'en-US': {
    total: 'Total',
    pass: 'Pass mark',
    minutes: 'Minutes',
    points: 'points',
    answer: 'Answer',
    analysis: 'Analysis',
    key: ' (with answers)',
    yes: 'True',
    no: 'False',
    blank: 'blank {n}',
    missingImage: '[image not embedded: see it online]',
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
      .join('；');
  }
  return answer.reference;
}

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
    { kind: 'stem', number, text: score === undefined ? stem : `${stem}（${score} ${t.points}）` },
    ...(question.stemMediaFileIds ?? []).map((fileId) => ({ kind: 'image' as const, fileId })),
    ...(question.options ?? []).flatMap((option) => [
      { kind: 'option' as const, text: `${option.key}. ${option.text}` },
      ...(option.mediaIds ?? []).map((fileId) => ({ kind: 'image' as const, fileId, indent: true })),
    ]),
  ];
  if (answers) {
    lines.push({ kind: 'answer', text: `${t.answer}：${answerText(question.answer, lang)}` });
    if (question.analysis) lines.push({ kind: 'analysis', text: `${t.analysis}：${question.analysis}` });
  }
  return lines;
}

function question(n: number, q: PreviewQuestion, answers: boolean, lang: Lang): PrintedLine[] {
  const head = item(`${n}.`, q, answers && q.children.length === 0, lang, q.score);
  const children = q.children.flatMap((child, i) => item(`(${i + 1})`, child, answers, lang));
  return [...head, ...children];
}

/** The paper as printed: as a candidate gets it (the preview's draw), or the teacher's copy with the answers. */
export function printedPaper(paper: Paper, preview: PaperPreview, answers: boolean, lang: Lang): PrintedPaper {
  const t = texts[lang];
  const title = `${paper.title}${answers ? t.key : ''}`;
  const lines: PrintedLine[] = [
    { kind: 'title', text: title },
    {
      kind: 'summary',
      text: `${t.total} ${paper.totalScore} · ${t.pass} ${paper.passScore} · ${t.minutes} ${paper.durationMinutes}`,
    },
  ];
  if (paper.instructions) lines.push({ kind: 'instructions', text: paper.instructions });
  let n = 0;
  for (const [i, section] of preview.sections.entries()) {
    lines.push({ kind: 'section', text: `${i + 1}. ${section.title}` });
    if (section.instructions) lines.push({ kind: 'sectionInstructions', text: section.instructions });
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
