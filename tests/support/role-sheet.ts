import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';

/**
 * A generated role import file of `count` rows (codes `<prefix>_<n>`), written with exceljs' streaming writer so
 * that 100,000 rows do not sit in memory as cells. `bad` row numbers (1-based data rows) get an invalid status.
 */
export async function roleSheet(count: number, prefix: string, bad: number[] = []): Promise<Uint8Array> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const sheet = workbook.addWorksheet('roles');
  sheet.addRow(['角色编码', '角色名称', '排序', '状态', '备注']).commit();
  const invalid = new Set(bad);
  for (let n = 1; n <= count; n++) {
    sheet
      .addRow([
        `${prefix}_${n}`,
        `${prefix} ${n}`,
        n % 1000,
        invalid.has(n) ? 'sometimes' : 'enabled',
        `generated row ${n}`,
      ])
      .commit();
  }
  sheet.commit();
  await workbook.commit();
  return new Uint8Array(Buffer.concat(chunks));
}
