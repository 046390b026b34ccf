import { createHash } from 'node:crypto';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { QuestionItem } from '../question/question.resource';
import type { PaperPreview, PreviewQuestion } from './paper.resource';

/**
 * A paper's shuffling as a candidate of `seed` gets it (Moodle's section shuffle and shuffleanswers): the questions of
 * each section in another order (when the paper says so, or the section its own way: `sections`), and the options of each choice question in another order, relabelled A, B, C… in
 * their new places, the answer following its options to their new letters. A group's items keep their order (an A4
 * case discloses in order, a case analysis goes stage by stage); each item of an A3/A4 case or a case analysis
 * shuffles its own options; a B1 group shuffles its shared options once, and every item's answer follows them. The
 * same seed gives the same order, question by question (a question's options do not depend on the others drawn).
 */
export function shuffledPreview(
  preview: PaperPreview,
  seed: number,
  settings: { shuffleQuestions: boolean; shuffleOptions: boolean; sections?: readonly boolean[] },
): PaperPreview {
  const shuffles = (i: number) => settings.sections?.[i] ?? settings.shuffleQuestions;
  if (!preview.sections.some((_, i) => shuffles(i)) && !settings.shuffleOptions) return preview;
  return {
    ...preview,
    sections: preview.sections.map((section, i) => {
      const questions = settings.shuffleOptions
        ? section.questions.map((q) => shuffledOptions(q, `${seed}:${q.id}`))
        : section.questions;
      return {
        ...section,
        questions: shuffles(i) ? shuffled(questions, random(`${seed}:section:${i}`)) : questions,
      };
    }),
  };
}

type Options = NonNullable<QuestionItem['options']>;
type Answer = QuestionItem['answer'];

/** The options in the order of `rng`, relabelled in their new places, and the old key → new key map. */
function relabel(options: Options, rng: Rng): { options: Options; keys: Map<string, string> } {
  const order = shuffled(options, rng);
  const keys = new Map<string, string>();
  const out = order.map((option, k) => {
    const key = String.fromCharCode(65 + k);
    keys.set(option.key, key);
    return { ...option, key };
  });
  return { options: out, keys };
}

/** A choice answer (its keys) at the options' new letters, in order; any other answer as it is. */
function remapped(answer: Answer, keys: Map<string, string>): Answer {
  if (!Array.isArray(answer) || !answer.every((a) => typeof a === 'string' && keys.has(a))) return answer;
  return (answer as string[]).map((a) => keys.get(a) as string).sort();
}

function shuffledOptions(q: PreviewQuestion, salt: string): PreviewQuestion {
  const rng = random(salt);
  if (q.questionType === 'option_group' && q.options?.length) {
    // B1: the shared options once, each item's answer after them
    const { options, keys } = relabel(q.options, rng);
    return { ...q, options, children: q.children.map((child) => ({ ...child, answer: remapped(child.answer, keys) })) };
  }
  const own = <T extends Pick<QuestionItem, 'options' | 'answer'>>(item: T): T => {
    if (!item.options?.length) return item;
    const { options, keys } = relabel(item.options, rng);
    return { ...item, options, answer: remapped(item.answer, keys) };
  };
  return { ...own(q), children: q.children.map(own) };
}

type Rng = ReturnType<typeof xoroshiro128plus>;

/** A copy of `list` in the order of `rng` (Fisher–Yates, each place drawn uniformly). */
function shuffled<T>(list: readonly T[], rng: Rng): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = uniformInt(rng, 0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** A generator fixed by `salt`: xoroshiro128+ seeded with the first 32 bits of the salt's SHA-256. */
function random(salt: string): Rng {
  return xoroshiro128plus(createHash('sha256').update(salt).digest().readInt32LE(0));
}
