import { catalogues } from '../../../src/locales/all';
import type { Lang } from './i18n';

/**
 * The one catalogue of labels: the console's bilingual catalogues (data, src/locales/*.json). A spreadsheet's
 * header is the label the console shows for the same field, so a file exported from a screen reads like that screen.
 */
const texts = new Map(Object.values(catalogues).flatMap((catalogue) => Object.entries(catalogue)));

/** The label of `key` in every language; a key the catalogue lacks is a mistake in a declaration, found at start. */
export function labelOf(key: string): Record<Lang, string> {
  const found = texts.get(key);
  if (!found) throw new Error(`No label ${key} in src/locales`);
  const [zhCN = key, enUS = zhCN] = found;
  return { 'zh-CN': zhCN, 'en-US': enUS };
}
