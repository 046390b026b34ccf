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

/** The label of `key` in `lang`, if the catalogue has one (a value named at run time: a record's status). */
export function findLabel(key: string, lang: Lang): string | undefined {
  const found = texts.get(key);
  return found && (lang === 'en-US' ? (found[1] ?? found[0]) : found[0]);
}
