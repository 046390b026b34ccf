/** A field's value as a reader compares it (one or more lines), or '' when it has none. */
type Show = (value: unknown, snapshot: Record<string, unknown>) => string;
type Translate = (id: string, values?: Record<string, string | number>) => string;

export interface VersionChange {
  key: string;
  label: string;
  was: string;
  now: string;
}

interface Option {
  key?: string;
  text?: string;
  weight?: number;
  mediaIds?: string[];
}
/** An image as a reader tells it from another: its file's name (or its id when its link is not at hand). */
type MediaName = (id: string) => string;

const keysOf = (answer: unknown): string[] =>
  Array.isArray(answer) && answer.every((a) => typeof a === 'string') ? (answer as string[]) : [];

/** Images as a line of their names, in order (a change of order is a change). */
const mediaLine = (ids: unknown, name: MediaName) => ((ids as string[] | null | undefined) ?? []).map(name).join('、');

/**
 * Options as lines `A. text`, each with its images' names, the correct ones marked (`answer`'s keys), a case analysis
 * stage's with its weights.
 */
const optionLines = (options: unknown, answer: unknown, name: MediaName) => {
  const correct = keysOf(answer);
  const weight = (o: Option) => (o.weight === undefined ? '' : ` (${o.weight > 0 ? '+' : ''}${o.weight})`);
  return ((options as Option[] | null) ?? [])
    .map((o) => {
      const images = o.mediaIds?.length ? ` [${mediaLine(o.mediaIds, name)}]` : '';
      return `${o.key}. ${o.text ?? ''}${images}${o.key && correct.includes(o.key) ? ' ✓' : ''}${weight(o)}`;
    })
    .join('\n');
};

/** An answer as it reads: the keys, true/false, each blank's accepted answers, a reference and its scoring points. */
function answerLine(answer: unknown, t: Translate): string {
  if (answer === null || answer === undefined) return '';
  if (typeof answer === 'boolean') return t(answer ? 'assess.question.true' : 'assess.question.false');
  if (Array.isArray(answer))
    return answer.every((a) => Array.isArray(a))
      ? (answer as string[][]).map((accepted, i) => `${i + 1}. ${accepted.join(' / ')}`).join('\n')
      : (answer as string[]).join(', ');
  const { reference = '', points = [] } = answer as { reference?: string; points?: { text: string; score: number }[] };
  return [reference, ...points.map((p) => `· ${p.text} (${p.score})`)].filter(Boolean).join('\n');
}

const list = (value: unknown) => ((value as string[] | null) ?? []).join('、');
const plain = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/**
 * What changed from one version of a question to the next, field by field and as a reader reads each (a type, format
 * and difficulty by their names, options as lines with the correct ones marked, an answer as its keys or text), and a
 * group's items by their place and content: an edit that writes the items again (with new ids) changes none that read
 * the same. A field in neither snapshot (an older snapshot's) is left out.
 */
export function versionChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  t: Translate,
  /** A specialty's name by its code (the dictionary's). */
  specialty?: (code: string) => string | undefined,
  mediaName: MediaName = (id) => `#${id}`,
): VersionChange[] {
  const named =
    (prefix: string): Show =>
    (value) =>
      value ? t(`${prefix}.${value}`) : '';
  const fields: [string, string, Show][] = [
    ['categoryName', 'assess.question.categoryId', plain],
    ['questionType', 'assess.question.questionType', named('assess.question.type')],
    ['medicalFormat', 'assess.question.medicalFormat', named('assess.question.format')],
    ['stem', 'assess.question.stem', plain],
    ['stemMediaFileIds', 'assess.question.stemMedia', (value) => mediaLine(value, mediaName)],
    ['options', 'assess.question.options', (value, q) => optionLines(value, q.answer, mediaName)],
    // a choice's keys show with its options; another type's answer shows here
    ['answer', 'assess.question.answer', (value, q) => (Array.isArray(q.options) ? '' : answerLine(value, t))],
    ['analysis', 'assess.question.analysis', plain],
    ['difficulty', 'assess.question.difficulty', named('assess.question.difficulty')],
    ['suggestedScore', 'assess.question.suggestedScore', plain],
    ['source', 'assess.question.source', plain],
    ['sourceYear', 'assess.question.sourceYear', plain],
    [
      'specialtyCode',
      'assess.question.specialtyCode',
      (value) => (value ? (specialty?.(String(value)) ?? String(value)) : ''),
    ],
    ['syllabusRef', 'assess.question.syllabusRef', plain],
    ['estimatedSeconds', 'assess.question.estimatedSeconds', plain],
    ['knowledgePointNames', 'assess.question.knowledgePointNames', list],
    ['tags', 'assess.question.tags', list],
  ];
  const changes: VersionChange[] = [];
  for (const [key, label, show] of fields) {
    if (!(key in before) && !(key in after)) continue;
    const was = show(before[key], before);
    const now = show(after[key], after);
    if (was !== now) changes.push({ key, label: t(label), was, now });
  }
  const itemsOf = (q: Record<string, unknown>) => (q.children as Record<string, unknown>[] | undefined) ?? [];
  const [was, now] = [itemsOf(before), itemsOf(after)];
  const itemFields: [string, string, Show][] = [
    ['stem', 'assess.question.stem', plain],
    ['stemMediaFileIds', 'assess.question.stemMedia', (value) => mediaLine(value, mediaName)],
    ['options', 'assess.question.options', (value, item) => optionLines(value, item.answer, mediaName)],
    ['answer', 'assess.question.answer', (value, item) => (Array.isArray(item.options) ? '' : answerLine(value, t))],
    ['analysis', 'assess.question.analysis', plain],
  ];
  for (let i = 0; i < Math.max(was.length, now.length); i++) {
    const [a, b] = [was[i] ?? {}, now[i] ?? {}];
    for (const [key, label, show] of itemFields) {
      const from = was[i] ? show(a[key], a) : '';
      const to = now[i] ? show(b[key], b) : '';
      if (from !== to)
        changes.push({
          key: `children.${i}.${key}`,
          label: t('assess.question.versions.item', { n: i + 1, field: t(label) }),
          was: from,
          now: to,
        });
    }
  }
  return changes;
}
