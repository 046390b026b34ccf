import { describe, expect, it } from 'vitest';
import { paperPdf } from '../../server/src/modules/assess/paper/paper.pdf';
import type { PrintedLine } from '../../server/src/modules/assess/paper/paper.print';
import { pdfText } from '../support/pdf-text';

const stem = (n: number, text: string): PrintedLine => ({ kind: 'stem', number: `${n}.`, text });

describe("a paper's PDF", () => {
  it('never leaves a section heading alone at the foot of a page: it starts the next one with its first question', async () => {
    // as many questions before it as put the heading, one run or another, at each height near the page's foot
    for (let count = 20; count <= 52; count += 1) {
      const lines: PrintedLine[] = [
        { kind: 'section', text: 'SECTION-ONE' },
        ...Array.from({ length: count }, (_, i) => stem(i + 1, `Filler question ${i + 1}`)),
        { kind: 'section', text: 'SECTION-TWO' },
        stem(count + 1, 'FIRST-OF-TWO'),
      ];
      const { text } = await pdfText(
        new Uint8Array(await paperPdf({ title: 'T', lines, missingImage: '?' })).buffer as ArrayBuffer,
      );
      const page = text.split('\n').find((p) => p.includes('SECTION-TWO'));
      expect(page, `${count} questions before it`).toContain('FIRST-OF-TWO');
    }
  }, 60_000);

  it("never splits a question's options across pages: a question that does not fit below starts the next page", async () => {
    const long = (n: number) => ' words to fill the line'.repeat(n);
    const lines: PrintedLine[] = [
      { kind: 'title', text: 'Paper' },
      { kind: 'candidate', text: 'Name: ____ Candidate No.: ____' },
      { kind: 'section', text: 'SECTION-ONE' },
    ];
    for (let q = 1; q <= 60; q++) {
      lines.push(stem(q, `Q${q}-STEM${long(q % 4)}`));
      for (const key of ['A', 'B', 'C', 'D', 'E'].slice(0, 3 + (q % 3)))
        lines.push({ kind: 'option', text: `${key}. Q${q}-OPT-${key}${long(q % 5 === 0 ? 3 : 0)}` });
      if (q % 7 === 0) lines.push({ kind: 'answer', text: `Q${q}-ANSWER` });
    }
    const { pages, text } = await pdfText(
      new Uint8Array(await paperPdf({ title: 'T', lines, missingImage: '?' })).buffer as ArrayBuffer,
    );
    expect(pages).toBeGreaterThan(3);
    const pageTexts = text.split('\n');
    const pageOf = (marker: string) => pageTexts.findIndex((p) => p.includes(marker));
    for (let q = 1; q <= 60; q++) {
      const own = lines.flatMap((l) =>
        l.kind === 'stem' && l.number === `${q}.`
          ? [`Q${q}-STEM`]
          : l.kind === 'option' && l.text.includes(`Q${q}-OPT`)
            ? [`Q${q}-OPT-${l.text[0]}`]
            : [],
      );
      const where = new Set(own.map(pageOf));
      expect(where.has(-1), `question ${q} printed`).toBe(false);
      expect([...where], `question ${q}: its stem and options on one page`).toHaveLength(1);
    }
  }, 60_000);
});
