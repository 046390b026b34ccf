import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { fitted } from './paper.images';
import type { PrintedImages, PrintedLine, PrintedPaper } from './paper.print';

/**
 * Noto Sans (Simplified Chinese) from the npm registry, regular and bold, read once: pdfkit embeds in each PDF only
 * the glyphs it uses.
 */
let fonts: Promise<{ regular: Buffer; bold: Buffer }> | undefined;
const loadFonts = () => {
  fonts ??= (async () => {
    const dir = path.join(path.dirname(createRequire(__filename).resolve('@embedpdf/fonts-sc')), '..', 'fonts');
    const [regular, bold] = await Promise.all([
      readFile(path.join(dir, 'NotoSansHans-Regular.otf')),
      readFile(path.join(dir, 'NotoSansHans-Bold.otf')),
    ]);
    return { regular, bold };
  })();
  fonts.catch(() => {
    fonts = undefined;
  });
  return fonts;
};

/** How each kind of line is set: its font, size, indent, alignment and the space before it (points). */
const styles: Record<
  PrintedLine['kind'],
  { bold?: boolean; size: number; indent?: number; align?: 'center'; before?: number; colour?: string }
> = {
  title: { bold: true, size: 18, align: 'center' },
  summary: { size: 10, align: 'center', before: 4, colour: '#555555' },
  candidate: { size: 11, before: 14 },
  instructions: { size: 10.5, before: 10 },
  section: { bold: true, size: 13, before: 14 },
  sectionInstructions: { size: 10, before: 2, colour: '#555555' },
  stem: { size: 11, before: 8 },
  option: { size: 11, indent: 18, before: 1 },
  answer: { bold: true, size: 10.5, indent: 18, before: 2, colour: '#1d39c4' },
  analysis: { size: 10, indent: 18, before: 1, colour: '#555555' },
  image: { size: 9, before: 4, colour: '#888888' },
};
/** The tallest an image is set (points), so that one never fills a page alone. */
const IMAGE_HEIGHT = 260;

/** Lines that follow a question's stem and belong to it: they go on the stem's page. */
const OF_QUESTION: readonly PrintedLine['kind'][] = ['option', 'image', 'answer', 'analysis'];

/**
 * The lines in runs kept on one page: a question (its stem, images, options, answer and analysis), a section's heading
 * with its instructions and first question, each other line alone.
 */
export function keptTogether(lines: PrintedLine[]): PrintedLine[][] {
  const runs: PrintedLine[][] = [];
  let open = false; // the last run is a section's heading still waiting for its first question
  for (const line of lines) {
    const last = runs.at(-1);
    const joins =
      last &&
      ((OF_QUESTION.includes(line.kind) && last.some((l) => l.kind === 'stem')) ||
        (open && (line.kind === 'sectionInstructions' || line.kind === 'stem')));
    if (joins) last.push(line);
    else runs.push([line]);
    if (line.kind === 'section') open = true;
    else if (line.kind === 'stem') open = false;
  }
  return runs;
}

/** The printed paper as an A4 PDF, page numbers at the foot of each page, its images in place. */
export async function paperPdf(paper: PrintedPaper, images: PrintedImages = new Map()): Promise<Buffer> {
  const { regular, bold } = await loadFonts();
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    bufferPages: true,
    info: { Title: paper.title, Creator: 'MedEdu' },
  });
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const bottom = doc.page.height - doc.page.margins.bottom;
  const styled = (line: PrintedLine) => {
    const style = styles[line.kind];
    doc
      .font(style.bold ? 'bold' : 'regular')
      .fontSize(style.size)
      .fillColor(style.colour ?? '#000000');
    const options = { width: width - (style.indent ?? 0), align: style.align ?? 'left' } as const;
    return { style, options, gap: (doc.currentLineHeight(true) * (style.before ?? 0)) / 12 };
  };
  /** The height a line takes (points), its space before included: a stem's number is measured in the bold font. */
  const heightOf = (line: PrintedLine) => {
    const { options, gap } = styled(line);
    if (line.kind !== 'image')
      return gap + doc.heightOfString(line.kind === 'stem' ? `${line.number}  ${line.text}` : line.text, options);
    const image = images.get(line.fileId);
    if (!image) return gap + doc.heightOfString(paper.missingImage, options);
    return gap + fitted(image, width - (line.indent ? 18 : 0), IMAGE_HEIGHT).height + 2;
  };
  const room = bottom - doc.page.margins.top;
  for (const run of keptTogether(paper.lines)) {
    // a run that does not fit below starts the next page, unless it would not fit on a whole one either
    const height = run.reduce((sum, line) => sum + heightOf(line), 0);
    if (doc.y + height > bottom && height <= room && doc.y > doc.page.margins.top) doc.addPage();
    for (const line of run) drawLine(line);
  }
  function drawLine(line: PrintedLine) {
    const { style, options } = styled(line);
    doc.moveDown((style.before ?? 0) / 12);
    const x = doc.page.margins.left + (style.indent ?? 0);
    if (line.kind === 'image') {
      const indent = line.indent ? 18 : 0;
      const image = images.get(line.fileId);
      if (!image) {
        doc.text(paper.missingImage, doc.page.margins.left + indent, doc.y, { width: width - indent });
        return;
      }
      const size = fitted(image, width - indent, IMAGE_HEIGHT);
      if (doc.y + size.height > doc.page.height - doc.page.margins.bottom) doc.addPage();
      try {
        doc.image(image.data, doc.page.margins.left + indent, doc.y, size);
        doc.y += size.height + 2;
      } catch {
        // bytes the PDF library cannot decode (a broken file) are named, not fatal to the paper
        doc.text(paper.missingImage, doc.page.margins.left + indent, doc.y, { width: width - indent });
      }
    } else if (line.kind === 'stem') {
      doc.font('bold').text(`${line.number} `, x, doc.y, { ...options, continued: true });
      doc.font('regular').text(line.text);
    } else doc.text(line.text, x, doc.y, options);
  }
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const kept = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('regular')
      .fontSize(9)
      .fillColor('#888888')
      .text(`${i + 1} / ${range.count}`, doc.page.margins.left, doc.page.height - 36, { width, align: 'center' });
    doc.page.margins.bottom = kept;
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
