import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { streamSheetRows } from '../../server/src/core/resource/spreadsheet';

/** A sheet of Chinese text, written by exceljs' streaming writer (text in the worksheet) or in shared strings. */
async function chineseSheet(rows: number, sharedStrings: boolean): Promise<Uint8Array> {
  const row = (n: number) => [`导入${n}：患者，乏力伴面色苍白。细菌性痢疾相关`, '对'];
  if (sharedStrings) {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('s');
    sheet.addRow(['题干', '答案']);
    for (let n = 0; n < rows; n++) sheet.addRow(row(n));
    return new Uint8Array(await book.xlsx.writeBuffer());
  }
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const sheet = book.addWorksheet('s');
  sheet.addRow(['题干', '答案']).commit();
  for (let n = 0; n < rows; n++) sheet.addRow(row(n)).commit();
  sheet.commit();
  await book.commit();
  return new Uint8Array(Buffer.concat(chunks));
}

describe('reading a sheet as a stream', () => {
  it.each([false, true])(
    'keeps every character whole where the inflated chunks split it (shared strings: %s)',
    async (shared) => {
      const texts: string[] = [];
      for await (const part of streamSheetRows(await chineseSheet(20_000, shared), 500))
        if (!('header' in part)) for (const r of part.rows) texts.push(...r.cells.map((c) => c ?? ''));
      expect(texts).toHaveLength(40_000);
      expect(texts.filter((t) => t.includes('\ufffd'))).toEqual([]);
      expect(texts.filter((t, i) => i % 2 === 1 && t !== '对')).toEqual([]);
    },
  );
});
