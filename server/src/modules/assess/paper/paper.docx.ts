import { AlignmentType, Document, HeadingLevel, ImageRun, Packer, Paragraph, TextRun } from 'docx';
import { fitted } from './paper.images';
import type { PrintedImages, PrintedLine, PrintedPaper } from './paper.print';

const indented = { indent: { left: 360 } };

/** An image in place (pixels at 96 dpi, fitted to the page's width and a third of its height), or what stands for it. */
function picture(line: Extract<PrintedLine, { kind: 'image' }>, paper: PrintedPaper, images: PrintedImages) {
  const image = images.get(line.fileId);
  const place = line.indent ? indented : {};
  if (!image) return new Paragraph({ ...place, children: [new TextRun({ text: paper.missingImage, italics: true })] });
  const size = fitted(image, 450, 260);
  return new Paragraph({
    ...place,
    children: [
      new ImageRun({
        type: image.mime === 'image/png' ? 'png' : 'jpg',
        data: image.data,
        transformation: { width: Math.round((size.width * 96) / 72), height: Math.round((size.height * 96) / 72) },
      }),
    ],
  });
}

function paragraph(line: PrintedLine, paper: PrintedPaper, images: PrintedImages): Paragraph {
  switch (line.kind) {
    case 'image':
      return picture(line, paper, images);
    case 'title':
      return new Paragraph({
        heading: HeadingLevel.TITLE,
        alignment: AlignmentType.CENTER,
        children: [new TextRun(line.text)],
      });
    case 'summary':
      return new Paragraph({ alignment: AlignmentType.CENTER, children: [new TextRun(line.text)] });
    case 'section':
      return new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun(line.text)] });
    case 'sectionInstructions':
      return new Paragraph({ children: [new TextRun({ text: line.text, italics: true })] });
    case 'stem':
      return new Paragraph({
        spacing: { before: 120 },
        children: [new TextRun({ text: `${line.number} `, bold: true }), new TextRun(line.text)],
      });
    case 'option':
    case 'analysis':
      return new Paragraph({ ...indented, children: [new TextRun(line.text)] });
    case 'answer':
      return new Paragraph({ ...indented, children: [new TextRun({ text: line.text, bold: true })] });
    default:
      return new Paragraph({ children: [new TextRun(line.text)] });
  }
}

/** The printed paper as a Word document, its images in place. */
export function paperDocx(paper: PrintedPaper, images: PrintedImages = new Map()): Promise<Buffer> {
  return Packer.toBuffer(
    new Document({
      creator: 'MedEdu',
      title: paper.title,
      sections: [{ children: paper.lines.map((line) => paragraph(line, paper, images)) }],
    }),
  );
}
