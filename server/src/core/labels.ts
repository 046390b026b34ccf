import enUS from '../../../src/locales/en-US';
import zhCN from '../../../src/locales/zh-CN';
import type { Lang } from './i18n';

/**
 * The one catalogue of labels: the console's locale files (plain objects). A spreadsheet's header is the label the
 * console shows for the same field, so a file exported from a screen reads like that screen.
 */
const catalogue: Record<Lang, Record<string, string>> = { 'zh-CN': zhCN, 'en-US': enUS };

export type LabelKey = keyof typeof zhCN;

/** The label of `key` in every language; a key the catalogue lacks is a mistake in a declaration, found at start. */
export function labelOf(key: string): Record<Lang, string> {
  const zh = catalogue['zh-CN'][key];
  const en = catalogue['en-US'][key];
  if (zh === undefined || en === undefined) throw new Error(`No label ${key} in src/locales`);
  return { 'zh-CN': zh, 'en-US': en };
}
