import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import type { Lang } from '../../../core/i18n';
import type { QuestionItem } from '../question/question.resource';
import type { Paper, PaperPreview, PreviewQuestion } from './paper.resource';

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
  question: Pick<QuestionItem, 'stem' | 'options' | 'answer' | 'analysis'>,
  answers: boolean,
  lang: Lang,
  score?: number,
): Paragraph[] {
  const t = texts[lang];
  // a fill-in stem's markers print as a line to write on
  const stem = question.stem.replace(/\{\{blank\}\}/g, '________');
  const out = [
    new Paragraph({
      spacing: { before: 120 },
      children: [
        new TextRun({ text: `${number} `, bold: true }),
        new TextRun(score === undefined ? stem : `${stem}（${score} ${t.points}）`),
      ],
    }),
    ...(question.options ?? []).map(
      (option) => new Paragraph({ indent: { left: 360 }, children: [new TextRun(`${option.key}. ${option.text}`)] }),
    ),
  ];
  if (answers) {
    out.push(
      new Paragraph({
        indent: { left: 360 },
        children: [new TextRun({ text: `${t.answer}：${answerText(question.answer, lang)}`, bold: true })],
      }),
    );
    if (question.analysis)
      out.push(
        new Paragraph({ indent: { left: 360 }, children: [new TextRun(`${t.analysis}：${question.analysis}`)] }),
      );
  }
  return out;
}

function question(n: number, q: PreviewQuestion, answers: boolean, lang: Lang): Paragraph[] {
  const head = item(`${n}.`, q, answers && q.children.length === 0, lang, q.score);
  const children = q.children.flatMap((child, i) => item(`(${i + 1})`, child, answers, lang));
  return [...head, ...children];
}

/**
 * The paper as a Word document, as a candidate gets it (the preview's draw), or as the teacher's copy with each
 * answer and analysis after its question.
 */
export async function paperDocx(paper: Paper, preview: PaperPreview, answers: boolean, lang: Lang): Promise<Buffer> {
  const t = texts[lang];
  let n = 0;
  const body: Paragraph[] = [
    new Paragraph({
      heading: HeadingLevel.TITLE,
      alignment: AlignmentType.CENTER,
      children: [new TextRun(`${paper.title}${answers ? t.key : ''}`)],
    }),
    new Paragraph({
      alignment: AlignmentType.CENTER,
      children: [
        new TextRun(
          `${t.total} ${paper.totalScore} · ${t.pass} ${paper.passScore} · ${t.minutes} ${paper.durationMinutes}`,
        ),
      ],
    }),
    ...(paper.instructions ? [new Paragraph({ children: [new TextRun(paper.instructions)] })] : []),
  ];
  for (const [i, section] of preview.sections.entries()) {
    body.push(
      new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun(`${i + 1}. ${section.title}`)] }),
    );
    if (section.instructions)
      body.push(new Paragraph({ children: [new TextRun({ text: section.instructions, italics: true })] }));
    for (const q of section.questions) body.push(...question(++n, q, answers, lang));
  }
  return Packer.toBuffer(new Document({ creator: 'MedEdu', title: paper.title, sections: [{ children: body }] }));
}
