import type { DistrictLevel } from './district.schema';

/** Level and parent as GB/T 2260 codes imply them: 110000 province, 110100 city, 110101 county, 9 digits township. */
export function deriveDistrict(code: string): { level: DistrictLevel; parentCode: string | null } {
  if (code.length === 9) return { level: 'township', parentCode: code.slice(0, 6) };
  if (code.endsWith('0000')) return { level: 'province', parentCode: null };
  if (code.endsWith('00')) return { level: 'city', parentCode: `${code.slice(0, 2)}0000` };
  return { level: 'county', parentCode: `${code.slice(0, 4)}00` };
}

export const pathOf = (parentPath: string | null, code: string) => `${parentPath ?? '/'}${code}/`;
