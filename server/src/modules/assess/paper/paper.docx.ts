import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import type { PrintedLine, PrintedPaper } from './paper.print';

const indented = { indent: { left: 360 } };

function paragraph(line: PrintedLine): Paragraph {
  switch (line.kind) {
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

/** The printed paper as a Word document. */
export function paperDocx(paper: PrintedPaper): Promise<Buffer> {
  return Packer.toBuffer(
    new Document({ creator: 'MedEdu', title: paper.title, sections: [{ children: paper.lines.map(paragraph) }] }),
  );
}
