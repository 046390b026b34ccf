import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';

/**
 * A generated trainee import file of `count` rows (names `<prefix><n>`, at the training base `base`, with the `custom`
 * values), written with exceljs' streaming writer; columns are named by their keys, which an import reads as well as
 * the labels. `bad` row numbers (1-based data rows) name a training base that does not exist.
 */
export async function traineeSheet(
  count: number,
  prefix: string,
  base: string,
  bad: number[] = [],
  custom: Record<string, string> = { school: '协和' },
): Promise<Uint8Array> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const sheet = workbook.addWorksheet('trainees');
  const keys = Object.keys(custom);
  sheet.addRow(['name', 'mobile', 'trainingBase', 'cohortYear', ...keys.map((k) => `customFields.${k}`)]).commit();
  const invalid = new Set(bad);
  for (let n = 1; n <= count; n++) {
    const cells = [`${prefix}${n}`, `137${String(n).padStart(8, '0')}`, invalid.has(n) ? '不存在的基地' : base, 2026];
    sheet.addRow([...cells, ...keys.map((k) => custom[k] ?? '')]).commit();
  }
  sheet.commit();
  await workbook.commit();
  return new Uint8Array(Buffer.concat(chunks));
}
