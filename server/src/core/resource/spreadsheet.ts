import { PassThrough, Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';

export type CellValue = string | number | boolean | Date | null | undefined;

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A resource's sheet and file name: a worksheet name cannot hold the path's slashes (`system/admin` → `system-admin`). */
export const sheetNameOf = (resourcePath: string) => resourcePath.replaceAll('/', '-');

const columnWidth = (header: string | undefined) => Math.min(40, Math.max(12, (header?.length ?? 0) * 2 + 2));

export interface SheetData {
  name: string;
  header: string[];
  rows: CellValue[][];
}

/** The hidden sheet that holds the lists a template's coded columns pick from. */
export const PICK_LISTS_SHEET = 'lists';
/** The rows of a template's coded column that offer its list (the header's excepted). */
export const PICK_LIST_ROWS = 10_000;

interface RangeValidations {
  add(address: string, rule: ExcelJS.DataValidation): void;
}

/**
 * A workbook of one sheet, and `more` after it (an import template's instructions): an import reads the first.
 * `lists`, by column of the first sheet: the values its cells offer to pick from (a drop-down list of Excel's data
 * validation, which warns of another value without refusing it), kept in a hidden sheet after the others.
 */
export async function writeSheet(
  sheetName: string,
  header: string[],
  rows: CellValue[][],
  more: SheetData[] = [],
  lists: (string[] | undefined)[] = [],
): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheets = [{ name: sheetName, header, rows }, ...more].map((data) => {
    const sheet = workbook.addWorksheet(data.name.slice(0, 31));
    sheet.addRow(data.header).font = { bold: true };
    for (const row of data.rows) sheet.addRow(row.map((v) => v ?? null));
    sheet.columns.forEach((column, i) => {
      column.width = columnWidth(data.header[i]);
    });
    return sheet;
  });
  const [first] = sheets;
  // exceljs keeps a sheet's validations of whole ranges here (its typings name only a cell's)
  const validations = (first as unknown as { dataValidations?: RangeValidations } | undefined)?.dataValidations;
  if (first && validations && lists.some((l) => l?.length)) {
    const held = workbook.addWorksheet(PICK_LISTS_SHEET, { state: 'hidden' });
    lists.forEach((list, i) => {
      if (!list?.length) return;
      const letter = first.getColumn(i + 1).letter;
      list.forEach((value, r) => {
        held.getCell(r + 1, i + 1).value = value;
      });
      validations.add(`${letter}2:${letter}${PICK_LIST_ROWS + 1}`, {
        type: 'list',
        allowBlank: true,
        formulae: [`${PICK_LISTS_SHEET}!$${letter}$1:$${letter}$${list.length}`],
        showErrorMessage: true,
        errorStyle: 'warning',
      });
    });
  }
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** OWASP CSV injection: a text cell a spreadsheet would read as a formula is written with a leading quote. */
export function escapeFormula(value: CellValue): CellValue {
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Lets the event loop serve others (timers, sockets) before going on: the embedded database answers in this thread. */
export const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Until the reader has taken what was written (or is gone): a slow download must not pile the file up in memory. */
async function drained(out: PassThrough) {
  if (!out.writableNeedDrain || out.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

/**
 * A spreadsheet written row by row to a stream: `rows` is pulled one batch at a time, so the whole set is never in
 * memory, and only once the reader has taken the previous ones. Between batches the event loop serves other
 * requests. Text cells are escaped against formula injection.
 */
export function streamSheet(
  sheetName: string,
  header: string[],
  rows: AsyncIterable<CellValue[][]>,
): ReadableStream<Uint8Array> {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31));
  sheet.columns = header.map((h) => ({ width: columnWidth(h) }));
  const write = async () => {
    const head = sheet.addRow(header);
    head.font = { bold: true };
    head.commit();
    for await (const batch of rows) {
      if (out.destroyed) return;
      for (const row of batch) sheet.addRow(row.map((v) => escapeFormula(v) ?? null)).commit();
      await drained(out);
      await yieldToOthers();
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((err: unknown) => out.destroy(err as Error));
  return Readable.toWeb(out) as ReadableStream<Uint8Array>;
}

function cellText(cell: ExcelJS.Cell): string | undefined {
  const value = cell.value;
  if (value === null || value === undefined) return undefined;
  const text = value instanceof Date ? value.toISOString() : cell.text;
  return text.trim() === '' ? undefined : text.trim();
}

export interface SheetRow {
  /** The spreadsheet's own row number (the header is row 1). */
  row: number;
  cells: (string | undefined)[];
}

export interface SheetContent {
  header: string[];
  rows: SheetRow[];
}

export class NotXlsx extends Error {}

interface ZipEntry {
  name: string;
  /** Where its local header starts. */
  offset: number;
  /** 0: stored, 8: deflated. */
  method: number;
  compressedSize: number;
}

/** Where the zip's end-of-central-directory record starts (it may be followed by a comment), or -1. */
function endOfDirectory(view: DataView): number {
  const floor = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let i = view.byteLength - 22; i >= floor; i--) if (view.getUint32(i, true) === 0x06054b50) return i;
  return -1;
}

/** The zip's entries (from its central directory) and where that directory starts; undefined when not a zip. */
function zipEntries(data: Uint8Array): { entries: ZipEntry[]; directory: number } | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const end = endOfDirectory(view);
  if (end < 0) return undefined;
  const count = view.getUint16(end + 10, true);
  const directory = view.getUint32(end + 16, true);
  const entries: ZipEntry[] = [];
  let at = directory;
  for (let n = 0; n < count; n++) {
    if (at + 46 > data.byteLength || view.getUint32(at, true) !== 0x02014b50) return undefined;
    const nameLength = view.getUint16(at + 28, true);
    const name = Buffer.from(data.buffer, data.byteOffset + at + 46, nameLength).toString('utf8');
    entries.push({
      name,
      offset: view.getUint32(at + 42, true),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
    });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return { entries, directory };
}

const isWorksheet = (name: string) => /^xl\/worksheets\/sheet\d+\.xml$/.test(name);

/**
 * The same zip with its worksheets last. exceljs' streaming reader parses a worksheet as it arrives only when the
 * shared strings and the workbook's relations came before it; otherwise (the usual order, Excel's and exceljs' own)
 * it first copies the whole sheet to a temporary file. Entries are moved whole (local header, data, descriptor); the
 * reader never consults the central directory, copied as it was.
 */
function worksheetsLast(data: Uint8Array): Uint8Array {
  const zip = zipEntries(data);
  if (!zip) return data;
  const spans = [...zip.entries]
    .sort((a, b) => a.offset - b.offset)
    .map((entry, i, sorted) => ({ entry, end: sorted[i + 1]?.offset ?? zip.directory }));
  if (spans.some(({ entry, end }) => end <= entry.offset || end > data.byteLength)) return data;
  const ordered = [
    ...spans.filter((s) => !isWorksheet(s.entry.name)),
    ...spans.filter((s) => isWorksheet(s.entry.name)),
  ];
  return Buffer.concat([
    ...ordered.map(({ entry, end }) => data.subarray(entry.offset, end)),
    data.subarray(zip.directory),
  ]);
}

/** Text from chunks of UTF-8, a character split between two chunks made whole. */
async function* utf8Text(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/**
 * exceljs' streaming reader decodes each inflated chunk of an entry on its own, so that a character whose bytes two
 * chunks share (Chinese text, every 16 KB or so) becomes U+FFFD; given text instead of bytes it decodes nothing. Its
 * worksheets and shared strings are handed to it as text, decoded across chunks.
 */
function decodeAcrossChunks(reader: ExcelJS.stream.xlsx.WorkbookReader) {
  const internals = reader as unknown as {
    _parseWorksheet(iterator: AsyncIterable<Buffer | string>, sheetNo: string): unknown;
    _parseSharedStrings(entry: NodeJS.ReadableStream): unknown;
  };
  const worksheet = internals._parseWorksheet;
  const sharedStrings = internals._parseSharedStrings;
  internals._parseWorksheet = (iterator, sheetNo) => worksheet.call(reader, utf8Text(iterator), sheetNo);
  internals._parseSharedStrings = (entry) => sharedStrings.call(reader, entry.setEncoding('utf8'));
}

/**
 * The first worksheet of an xlsx as text, parsed as a stream: the header, then batches of non-empty rows.
 * Throws NotXlsx when the file cannot be read.
 */
export async function* streamSheetRows(
  data: Uint8Array,
  batchSize: number,
): AsyncGenerator<{ header: string[] } | { rows: SheetRow[] }> {
  const reordered = worksheetsLast(data);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(
    Readable.from([Buffer.from(reordered.buffer, reordered.byteOffset, reordered.byteLength)]),
    {
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      worksheets: 'emit',
      entries: 'emit',
    },
  );
  decodeAcrossChunks(reader);
  // A workbook without shared strings (exceljs' streaming writer makes them) has none to wait for.
  const zip = zipEntries(data);
  if (zip && !zip.entries.some((e) => e.name === 'xl/sharedStrings.xml'))
    (reader as unknown as { sharedStrings?: unknown[] }).sharedStrings = [];
  let header: string[] | undefined;
  let batch: SheetRow[] = [];
  try {
    for await (const worksheet of reader) {
      for await (const r of worksheet as AsyncIterable<ExcelJS.Row>) {
        if (!header) {
          if (r.number !== 1) header = [];
          else {
            header = Array.from({ length: r.cellCount }, (_, i) => cellText(r.getCell(i + 1)) ?? '');
            yield { header };
            continue;
          }
          yield { header };
        }
        const cells = header.map((_, i) => cellText(r.getCell(i + 1)));
        if (cells.some((c) => c !== undefined)) batch.push({ row: r.number, cells });
        if (batch.length >= batchSize) {
          yield { rows: batch };
          batch = [];
        }
      }
      break;
    }
  } catch (err) {
    if (err instanceof NotXlsx) throw err;
    if (!header) throw new NotXlsx('not an xlsx file');
    throw err;
  }
  if (!header) throw new NotXlsx('no worksheet');
  if (batch.length) yield { rows: batch };
}

/**
 * The rows the first worksheet holds (its `<row>` elements, the header's among them, empty ones too: what the
 * progress of a whole import counts on), or undefined when that cannot be told without parsing the sheet. Reads the
 * worksheet's XML once, inflated whole (its size is what `declaredUnpackedSize` declared and the limits allowed).
 */
export function sheetRowCount(data: Uint8Array): number | undefined {
  const zip = zipEntries(data);
  const entry = zip?.entries.filter((e) => isWorksheet(e.name)).sort((a, b) => a.offset - b.offset)[0];
  if (!entry || entry.offset + 30 > data.byteLength) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.getUint32(entry.offset, true) !== 0x04034b50) return undefined;
  const start = entry.offset + 30 + view.getUint16(entry.offset + 26, true) + view.getUint16(entry.offset + 28, true);
  const stored = data.subarray(start, start + entry.compressedSize);
  let xml: Buffer;
  try {
    if (entry.method === 0) xml = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
    else if (entry.method === 8) xml = inflateRawSync(stored);
    else return undefined;
  } catch {
    return undefined;
  }
  let rows = 0;
  for (let at = xml.indexOf('<row'); at >= 0; at = xml.indexOf('<row', at + 4)) {
    const next = xml[at + 4];
    if (next === 0x20 || next === 0x3e || next === 0x2f) rows += 1;
  }
  return rows || undefined;
}

/** The first worksheet as text; undefined when the file is not a readable xlsx. */
export async function readSheet(data: ArrayBuffer): Promise<SheetContent | undefined> {
  const content: SheetContent = { header: [], rows: [] };
  try {
    for await (const part of streamSheetRows(new Uint8Array(data), 1000)) {
      if ('header' in part) content.header = part.header;
      else content.rows.push(...part.rows);
    }
  } catch (err) {
    if (err instanceof NotXlsx) return undefined;
    throw err;
  }
  return content;
}

/**
 * The total uncompressed size the zip's central directory declares (what parsing would inflate), or undefined when
 * the data is not a zip. Entries in ZIP64 form count as infinite: no spreadsheet we accept needs them.
 */
export function declaredUnpackedSize(data: Uint8Array): number | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const end = endOfDirectory(view);
  if (end < 0) return undefined;
  const entries = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > data.byteLength || view.getUint32(at, true) !== 0x02014b50) return undefined;
    const size = view.getUint32(at + 24, true);
    if (size === 0xffffffff) return Number.POSITIVE_INFINITY;
    total += size;
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return total;
}
