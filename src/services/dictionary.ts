import type { IndustryNode } from '@server/modules/dictionary/industry/industry.schema';
import type { DistrictImportReport, DistrictNode } from '@server/modules/system/district/district.schema';
import type { ErrCode, SysCode } from '@/models/root';
import { resourceService } from '@/services/resource';
import request from '@/utils/request';
import { dispatchRoot } from '@/utils/store';

export type { DistrictImportReport, DistrictNode, IndustryNode };

let sysCodesTag: string | undefined;

/**
 * Re-reads the console's `sysCodes` after a dictionary edit, so labels and tag colours change without a reload.
 * API answers are never stored by the browser (`no-store`), so the ETag is compared here: an unchanged one skips
 * the dispatch. Resolves whether the dictionary changed.
 */
export async function refreshSysCodes(): Promise<boolean> {
  const { data, response } = await request.get<{ data: SysCode[]; response: Response }>(
    '/api/dictionary/catalog/syscodes',
    {
      getResponse: true,
    },
  );
  const tag = response.headers.get('etag') ?? undefined;
  if (tag && tag === sysCodesTag) return false;
  sysCodesTag = tag;
  dispatchRoot('SET_SYSCODE', data);
  return true;
}

/** Re-reads the persisted `errCodes` after an error message was edited. */
export async function refreshErrCodes(): Promise<void> {
  dispatchRoot('SET_ERRCODE', await request.get<ErrCode[]>('/api/dictionary/catalog/errcodes'));
}

/** One level of the industry classification: the sections, or the children of a code. */
export const fetchIndustryLevel = (parentCode?: string) =>
  request.get<IndustryNode[]>('/api/dictionary/industry/tree', { params: parentCode ? { parentCode } : {} });

/** One level of the division tree: the provinces, or the children of a code. */
export const fetchDistrictLevel = (parentCode?: string) =>
  request.get<DistrictNode[]>('/api/system/district/tree', { params: parentCode ? { parentCode } : {} });

/** The district import: a dry run answers what would be added, renamed and retired; a real run applies it all or nothing. */
export const importDistricts = (file: Blob, options: { dryRun: boolean; retireMissing: boolean }) =>
  resourceService('system/district').importFile<DistrictImportReport>(file, options);
