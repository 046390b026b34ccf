import { useRef } from 'react';
import { type DistrictNode, fetchDistrictLevel } from '@/services/dictionary';
import type { District } from './descriptor';

const codesOf = (path: string) => path.split('/').filter(Boolean);

/**
 * The names along a district's path (`/110000/110100/110101/`), for search results: every level the tree has
 * loaded is remembered, and a missing ancestor is found by loading its parent's level.
 */
export function usePathNames() {
  const names = useRef(new Map<string, string>());
  const remember = (rows: Pick<District, 'code' | 'name'>[]) => {
    for (const r of rows) names.current.set(r.code, r.name);
  };

  const loadLevel = async (parentCode?: string): Promise<DistrictNode[]> => {
    const rows = await fetchDistrictLevel(parentCode);
    remember(rows);
    return rows;
  };

  const resolve = async (rows: District[]) => {
    remember(rows);
    const levels = new Set<string>();
    for (const row of rows) {
      const codes = codesOf(row.path);
      codes.forEach((code, i) => {
        if (!names.current.has(code)) levels.add(i === 0 ? '' : codes[i - 1]);
      });
    }
    // parents before children: a county's city is known only once its province's level is loaded
    for (const parent of [...levels].sort((a, b) => a.length - b.length || a.localeCompare(b))) {
      await loadLevel(parent || undefined);
    }
  };

  const fullPath = (row: District) =>
    codesOf(row.path)
      .map((code) => names.current.get(code) ?? code)
      .join(' / ');

  return { loadLevel, resolve, fullPath };
}
