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
/** Room a section's heading keeps below it on its page (points): it is never left alone at the foot of one. */
const KEEP_WITH_NEXT = 72;

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
  for (const line of paper.lines) {
    const style = styles[line.kind];
    doc.moveDown((style.before ?? 0) / 12);
    doc
      .font(style.bold ? 'bold' : 'regular')
      .fontSize(style.size)
      .fillColor(style.colour ?? '#000000');
    const x = doc.page.margins.left + (style.indent ?? 0);
    const options = { width: width - (style.indent ?? 0), align: style.align ?? 'left' } as const;
    const bottom = doc.page.height - doc.page.margins.bottom;
    if (line.kind === 'section' && doc.y + doc.heightOfString(line.text, options) + KEEP_WITH_NEXT > bottom)
      doc.addPage();
    if (line.kind === 'image') {
      const indent = line.indent ? 18 : 0;
      const image = images.get(line.fileId);
      if (!image) {
        doc.text(paper.missingImage, doc.page.margins.left + indent, doc.y, { width: width - indent });
        continue;
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
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('regular')
      .fontSize(9)
      .fillColor('#888888')
      .text(`${i + 1} / ${range.count}`, doc.page.margins.left, doc.page.height - 36, { width, align: 'center' });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
