import type { ErrorCatalog } from '../../../core/error-catalog';
import type { Tenancy } from '../../../core/tenancy';
import { findErrorCodes, findSysCodes } from './catalog.repository';
import type { ErrCode, SysCode } from './catalog.schema';

export function createDictService(deps: {
  tenancy: Tenancy;
  catalog: ErrorCatalog;
  /** Tells the other instances that the error messages changed (core/invalidation.ts). */
  publish: () => Promise<void>;
}) {
  const reloadErrorCatalog = async (): Promise<void> => {
    const rows = await deps.tenancy.inPlatformScope(findErrorCodes);
    deps.catalog.load(rows);
  };
  return {
    async sysCodes(tenantId: string): Promise<SysCode[]> {
      const rows = await deps.tenancy.inTenant(tenantId, findSysCodes);
      const merged = new Map<string, SysCode>();
      for (const pass of [false, true]) {
        for (const r of rows) {
          if ((r.tenantId !== null) !== pass) continue;
          merged.set(`${r.type}\u0000${r.value}`, {
            type: r.type,
            value: r.value,
            label: r.label,
            labelEn: r.labelEn,
            color: r.color,
            sort: r.sort,
          });
        }
      }
      return [...merged.values()].sort((a, b) => a.type.localeCompare(b.type) || a.sort - b.sort);
    },

    async errCodes(): Promise<ErrCode[]> {
      const rows = await deps.tenancy.inPlatformScope(findErrorCodes);
      return rows.map((r) => ({
        code: r.key,
        httpStatus: r.httpStatus,
        messageZh: r.messageZh,
        messageEn: r.messageEn,
      }));
    },

    /** Refreshes the messages the error handler answers with from the error_code table. */
    reloadErrorCatalog,

    /** After a write to error_code has committed: this instance reloads its messages, and so does every other. */
    async errorCatalogChanged(): Promise<void> {
      await reloadErrorCatalog();
      await deps.publish();
    },
  };
}

export type DictService = ReturnType<typeof createDictService>;
