import ExcelJS from 'exceljs';

export type CellValue = string | number | boolean | Date | null | undefined;

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export async function writeSheet(sheetName: string, header: string[], rows: CellValue[][]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31));
  sheet.addRow(header).font = { bold: true };
  for (const row of rows) sheet.addRow(row.map((v) => v ?? null));
  sheet.columns.forEach((column, i) => {
    column.width = Math.min(40, Math.max(12, (header[i]?.length ?? 0) * 2 + 2));
  });
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

function cellText(cell: ExcelJS.Cell): string | undefined {
  const value = cell.value;
  if (value === null || value === undefined) return undefined;
  const text = value instanceof Date ? value.toISOString() : cell.text;
  return text.trim() === '' ? undefined : text.trim();
}

export interface SheetContent {
  header: string[];
  /** `row` is the spreadsheet's own row number (the header is row 1). */
  rows: { row: number; cells: (string | undefined)[] }[];
}

/** The first worksheet as text; undefined when the file is not a readable xlsx. */
export async function readSheet(data: ArrayBuffer): Promise<SheetContent | undefined> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(data);
  } catch {
    return undefined;
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return undefined;
  const width = sheet.getRow(1).cellCount;
  const header = Array.from({ length: width }, (_, i) => cellText(sheet.getRow(1).getCell(i + 1)) ?? '');
  const rows: SheetContent['rows'] = [];
  sheet.eachRow((r, number) => {
    if (number === 1) return;
    const cells = header.map((_, i) => cellText(r.getCell(i + 1)));
    if (cells.some((c) => c !== undefined)) rows.push({ row: number, cells });
  });
  return { header, rows };
}
