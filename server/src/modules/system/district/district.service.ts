import type { ErrorCatalog } from '../../../core/error-catalog';
import { AppError, invalidField } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { PlatformScope } from '../../../core/platform-scope';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import { readSheet } from '../../../core/resource/spreadsheet';
import type { Tx } from '../../../core/tenancy';
import { issuesToFields } from '../../../core/validation';
import * as repo from './district.repository';
import { districtResource } from './district.resource';
import { deriveDistrict, pathOf } from './district.rules';
import {
  type CreateDistrict,
  type District,
  type DistrictImportReport,
  DistrictImportRow,
  type DistrictNode,
  type UpdateDistrict,
} from './district.schema';

const texts = {
  'zh-CN': {
    noParent: '上级区划不存在',
    noReplacement: '替代区划不存在',
    duplicate: '文件中重复的区划代码',
    notXlsx: '不是有效的 xlsx 文件',
    unknownColumn: '无法识别的列',
  },
  'en-US': {
    noParent: 'is not an existing district',
    noReplacement: 'is not an existing district',
    duplicate: 'appears more than once in the file',
    notXlsx: 'is not a readable xlsx file',
    unknownColumn: 'is not a column of this import',
  },
};

class Rollback extends Error {
  constructor(readonly report: DistrictImportReport) {
    super('rollback');
  }
}

export function createDistrictService(deps: ResourceDeps & { platform: PlatformScope; catalog: ErrorCatalog }) {
  const { tenancy, platform } = deps;

  const find = (tx: Tx, code: string) => repo.districts.findBy(tx, 'code', code);

  const store: ResourceStore<District, CreateDistrict, UpdateDistrict> = {
    list: (tx, query) => repo.districts.list(tx, query),
    find: (tx, id) => repo.districts.find(tx, id),
    findByKey: find,

    async create(tx, input, ctx) {
      await platform.assertPlatform(tx, ctx.tenantId);
      const derived = deriveDistrict(input.code);
      const parentCode = input.parentCode === undefined ? derived.parentCode : input.parentCode;
      const parent = parentCode ? await find(tx, parentCode) : undefined;
      if (parentCode && !parent) throw invalidField('parentCode', texts[ctx.lang].noParent);
      if (input.replacedByCode && !(await find(tx, input.replacedByCode)))
        throw invalidField('replacedByCode', texts[ctx.lang].noReplacement);
      const values = {
        ...input,
        level: input.level ?? derived.level,
        parentCode,
        path: pathOf(parent?.path ?? null, input.code),
      };
      return repo.districts.insert(tx, values, ctx);
    },

    async update(tx, current, { version, ...values }, ctx) {
      await platform.assertPlatform(tx, ctx.tenantId);
      if (values.replacedByCode && !(await find(tx, values.replacedByCode)))
        throw invalidField('replacedByCode', texts[ctx.lang].noReplacement);
      return repo.districts.update(tx, current.id, values, ctx, version);
    },

    async remove(tx, rows, ctx) {
      await platform.assertPlatform(tx, ctx.tenantId);
      const codes = new Set(rows.map((r) => r.code));
      const children = await repo.districts.childKeys(tx, [...codes]);
      if (children.some((c) => !codes.has(c))) throw new AppError('district.hasChildren');
      const leavesFirst = [...rows].sort((a, b) => b.path.length - a.path.length);
      for (const row of leavesFirst) await repo.districts.remove(tx, [row.id], ctx);
    },
  };

  const resource = createResourceService(districtResource, store, deps);

  /** Reads the sheet and compares it with the table: what would be added, renamed, retired; rows that cannot be used. */
  async function diff(tx: Tx, file: ArrayBuffer, retireMissing: boolean, lang: Lang) {
    const t = texts[lang];
    const report: DistrictImportReport = {
      dryRun: true,
      created: 0,
      updated: 0,
      failed: [],
      added: [],
      renamed: [],
      retired: [],
      counts: { added: 0, renamed: 0, retired: 0, updated: 0, unchanged: 0 },
    };
    const sheet = await readSheet(file);
    if (!sheet) throw invalidField('file', t.notXlsx);
    const columns = districtResource.columns;
    const keys = sheet.header.map(
      (h) => columns.find((c) => c.key === h || c.label['zh-CN'] === h || c.label['en-US'] === h)?.key,
    );
    sheet.header.forEach((h, i) => {
      if (h && !keys[i]) report.failed.push({ row: 1, column: h, message: t.unknownColumn });
    });
    const labelOf = (field: string) => columns.find((c) => c.key === field)?.label[lang] ?? field;

    const existing = await repo.snapshot(tx);
    const parsed: { row: number; record: DistrictImportRow }[] = [];
    const seen = new Set<string>();
    for (const { row, cells } of sheet.rows) {
      const raw: Record<string, unknown> = {};
      keys.forEach((k, i) => {
        if (k && cells[i] !== undefined) raw[k] = cells[i];
      });
      const result = DistrictImportRow.safeParse(raw);
      if (!result.success) {
        for (const f of issuesToFields(result.error.issues, lang))
          report.failed.push({ row, column: labelOf(f.field), message: f.message });
        continue;
      }
      if (seen.has(result.data.code)) {
        report.failed.push({ row, column: labelOf('code'), message: t.duplicate });
        continue;
      }
      seen.add(result.data.code);
      parsed.push({ row, record: result.data });
    }

    const known = (code: string) => existing.has(code) || seen.has(code);
    const next: repo.DistrictSnapshot[] = [];
    const inserts: repo.DistrictSnapshot[] = [];
    for (const { row, record: r } of parsed) {
      const derived = deriveDistrict(r.code);
      const parentCode = r.parentCode ?? derived.parentCode;
      if (parentCode && !known(parentCode))
        report.failed.push({ row, column: labelOf('parentCode'), message: t.noParent });
      if (r.replacedByCode && !known(r.replacedByCode))
        report.failed.push({ row, column: labelOf('replacedByCode'), message: t.noReplacement });
      const before = existing.get(r.code);
      const after: repo.DistrictSnapshot = {
        code: r.code,
        name: r.name,
        shortName: r.shortName ?? before?.shortName ?? null,
        level: before?.level ?? r.level ?? derived.level,
        parentCode: before ? before.parentCode : parentCode,
        path: before?.path ?? '',
        pinyin: r.pinyin ?? before?.pinyin ?? null,
        sort: r.sort ?? before?.sort ?? 0,
        status: r.status ?? 'enabled',
        replacedByCode: r.replacedByCode ?? before?.replacedByCode ?? null,
      };
      if (!before) {
        report.added.push({ code: r.code, name: r.name, level: after.level, parentCode: after.parentCode });
        inserts.push(after);
        continue;
      }
      let changed = false;
      if (before.name !== after.name) {
        report.renamed.push({ code: r.code, from: before.name, to: after.name });
        changed = true;
      }
      if (before.status === 'enabled' && after.status === 'disabled') {
        report.retired.push({ code: r.code, name: after.name, replacedByCode: after.replacedByCode });
        changed = true;
      } else if (
        before.status !== after.status ||
        before.shortName !== after.shortName ||
        before.pinyin !== after.pinyin ||
        before.sort !== after.sort ||
        before.replacedByCode !== after.replacedByCode
      ) {
        if (!changed) report.counts.updated += 1;
        changed = true;
      }
      if (changed) next.push(after);
      else report.counts.unchanged += 1;
    }

    if (retireMissing) {
      const levels = new Set([
        ...parsed.map(
          (p) => existing.get(p.record.code)?.level ?? p.record.level ?? deriveDistrict(p.record.code).level,
        ),
      ]);
      for (const d of existing.values()) {
        if (d.status === 'enabled' && levels.has(d.level) && !seen.has(d.code)) {
          report.retired.push({ code: d.code, name: d.name, replacedByCode: d.replacedByCode });
          next.push({ ...d, status: 'disabled' });
        }
      }
    }

    report.counts.added = report.added.length;
    report.counts.renamed = report.renamed.length;
    report.counts.retired = report.retired.length;
    report.created = report.added.length;
    report.updated = next.length;
    return { report, inserts, updates: next, existing };
  }

  return {
    resource,

    tree: (tenantId: string, parentCode?: string, status?: string): Promise<DistrictNode[]> =>
      tenancy.inTenant(tenantId, (tx) => repo.districts.children(tx, parentCode, status)),

    /**
     * Import from a spreadsheet with a preview: a dry run answers what would be added, renamed and retired; a real run
     * applies all of it in one transaction, or nothing when any row fails (422 with the same report).
     */
    async import(
      ctx: WriteContext,
      file: ArrayBuffer,
      options: { dryRun: boolean; retireMissing: boolean },
    ): Promise<DistrictImportReport> {
      try {
        return await tenancy.inTenant(ctx.tenantId, async (tx) => {
          await platform.assertPlatform(tx, ctx.tenantId);
          const { report, inserts, updates, existing } = await diff(tx, file, options.retireMissing, ctx.lang);
          report.dryRun = options.dryRun;
          if (report.failed.length > 0 || options.dryRun) throw new Rollback(report);
          const paths = new Map([...existing.values()].map((d) => [d.code, d.path]));
          const ordered = [...inserts].sort((a, b) => a.code.length - b.code.length || a.code.localeCompare(b.code));
          const depth = (d: repo.DistrictSnapshot) => ({ province: 0, city: 1, county: 2, township: 3 })[d.level];
          ordered.sort((a, b) => depth(a) - depth(b));
          for (const d of ordered) {
            d.path = pathOf(d.parentCode ? (paths.get(d.parentCode) ?? null) : null, d.code);
            paths.set(d.code, d.path);
          }
          await repo.insertDistricts(tx, ordered, ctx);
          for (const d of updates) await repo.updateDistrictByCode(tx, d, ctx);
          await deps.audit.record(tx, ctx, {
            action: 'system:district:import',
            resourceType: 'district',
            resourceId: null,
            summary: `import: ${report.counts.added} added, ${report.counts.renamed} renamed, ${report.counts.retired} retired, ${report.counts.updated} updated`,
            after: {
              added: report.added.map((a) => a.code),
              renamed: report.renamed,
              retired: report.retired.map((r) => r.code),
            },
          });
          return report;
        });
      } catch (err) {
        if (!(err instanceof Rollback)) throw err;
        if (err.report.failed.length > 0 && !options.dryRun) {
          throw new AppError(
            'common.importFailed',
            { count: new Set(err.report.failed.map((f) => f.row)).size },
            undefined,
            { ...err.report },
          );
        }
        return err.report;
      }
    },
  };
}

export type DistrictService = ReturnType<typeof createDistrictService>;
