import type { ErrorCatalog } from '../error-catalog';
import { AppError, isUniqueViolation, versionConflict } from '../errors';
import type { Tenancy, Tx } from '../tenancy';
import { issuesToFields } from '../validation';
import type { ColumnSpec, ResourceDefinition, ResourceRow, ResourceStore, WriteContext } from './resource';
import { readSheet } from './spreadsheet';
import { withSavepoint } from './table.repository';

export interface ImportOptions {
  dryRun: boolean;
  mode: 'insert' | 'upsert';
}

export interface ImportFailure {
  /** The spreadsheet row (the header is row 1). */
  row: number;
  /** The column's label in the request language; empty when the whole row is refused. */
  column: string;
  message: string;
}

export interface ImportReport {
  dryRun: boolean;
  created: number;
  updated: number;
  failed: ImportFailure[];
}

const texts = {
  'zh-CN': { notXlsx: '不是有效的 xlsx 文件', unknownColumn: '无法识别的列', noHeader: '缺少表头行' },
  'en-US': { notXlsx: 'is not a readable xlsx file', unknownColumn: 'is not a column of this import', noHeader: 'the header row is missing' },
};

class Rollback extends Error {
  constructor(readonly report: ImportReport) {
    super('rollback');
  }
}

interface ImportArgs<Row extends ResourceRow, Create, Update extends { version: number }> {
  def: ResourceDefinition<Row, Create, Update>;
  store: ResourceStore<Row, Create, Update>;
  columns: ColumnSpec<Row>[];
  ctx: WriteContext;
  file: ArrayBuffer;
  options: ImportOptions;
  tenancy: Tenancy;
  catalog: ErrorCatalog;
  audit(tx: Tx, before: Row | undefined, after: Row): Promise<void>;
}

export async function importSheet<Row extends ResourceRow, Create, Update extends { version: number }>(
  a: ImportArgs<Row, Create, Update>,
): Promise<ImportReport> {
  const { lang } = a.ctx;
  const t = texts[lang];
  const sheet = await readSheet(a.file);
  if (!sheet) throw new AppError('common.validation', {}, [{ field: 'file', message: t.notXlsx }]);

  const report: ImportReport = { dryRun: a.options.dryRun, created: 0, updated: 0, failed: [] };
  const byLabel = (text: string) => a.columns.find((c) => c.key === text || c.label['zh-CN'] === text || c.label['en-US'] === text);
  const keys = sheet.header.map((h) => byLabel(h)?.key);
  sheet.header.forEach((h, i) => {
    if (h && !keys[i]) report.failed.push({ row: 1, column: h, message: t.unknownColumn });
  });
  if (!keys.some(Boolean)) report.failed.push({ row: 1, column: '', message: t.noHeader });
  if (report.failed.length > 0) return report;

  const labelOf = (field: string) => {
    const key = field.split('.')[0] ?? field;
    return a.columns.find((c) => c.key === key)?.label[lang] ?? key;
  };
  const failuresOf = (err: unknown, row: number): ImportFailure[] => {
    if (err instanceof AppError) {
      const message = a.catalog.message(err.code, lang, err.params);
      if (!err.fields?.length) return [{ row, column: '', message }];
      return err.fields.map((f) => ({ row, column: labelOf(f.field), message: f.message || message }));
    }
    if (isUniqueViolation(err)) return [{ row, column: '', message: a.catalog.message('common.duplicate', lang) }];
    throw err;
  };
  const schema = a.def.schemas.importRow ?? a.def.schemas.create;

  const writeRow = async (tx: Tx, record: Record<string, unknown>) => {
    const key = a.def.importKey && record[a.def.importKey] !== undefined ? String(record[a.def.importKey]) : undefined;
    const existing = key !== undefined && a.store.findByKey ? await a.store.findByKey(tx, key) : undefined;
    if (existing && a.options.mode === 'insert') throw new AppError('common.duplicate', {}, [{ field: a.def.importKey ?? '', message: '' }]);
    const input = a.store.fromImport
      ? await a.store.fromImport(tx, record, existing, a.ctx)
      : existing
        ? { ...record, version: existing.version }
        : record;
    if (existing) {
      const after = await a.store.update(tx, existing, input as Update, a.ctx);
      if (!after) throw versionConflict();
      await a.audit(tx, existing, after);
      report.updated += 1;
    } else {
      await a.audit(tx, undefined, await a.store.create(tx, input as Create, a.ctx));
      report.created += 1;
    }
  };

  try {
    return await a.tenancy.inTenant(a.ctx.tenantId, async (tx) => {
      for (const { row, cells } of sheet.rows) {
        const record: Record<string, unknown> = {};
        keys.forEach((k, i) => {
          if (k && cells[i] !== undefined) record[k] = cells[i];
        });
        const parsed = schema.safeParse(record);
        if (!parsed.success) {
          for (const f of issuesToFields(parsed.error.issues, lang)) report.failed.push({ row, column: labelOf(f.field), message: f.message });
          continue;
        }
        try {
          await withSavepoint(tx, () => writeRow(tx, parsed.data as Record<string, unknown>));
        } catch (err) {
          report.failed.push(...failuresOf(err, row));
        }
      }
      if (report.failed.length > 0 || a.options.dryRun) throw new Rollback(report);
      return report;
    });
  } catch (err) {
    if (err instanceof Rollback) return err.report;
    throw err;
  }
}
