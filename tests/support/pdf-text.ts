import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** A PDF's pages and their text, as a reader's viewer extracts it (lines joined, no layout). */
export async function pdfText(bytes: ArrayBuffer): Promise<{ pages: number; text: string }> {
  const doc = await getDocument({ data: new Uint8Array(bytes), disableFontFace: true, useSystemFonts: false }).promise;
  const texts: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  const pages = doc.numPages;
  await doc.destroy();
  return { pages, text: texts.join('\n') };
}
