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
});
