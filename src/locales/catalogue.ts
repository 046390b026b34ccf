/**
 * The console's texts live in one bilingual catalogue per area, as data: `base.json` (the shell, the sign-in screen
 * and what every screen shares: menus, tabs, tables, forms, the request layer's errors; part of the first download)
 * and one per area of screens (`system.json`, `dictionary.json`, `dashboard.json`; added to the console's messages
 * when one of the area's screens loads), each message id with its zh-CN and its en-US text side by side, so a new
 * entity's texts are lines in one file. The server reads the same catalogues for its spreadsheet headers
 * (server/src/core/labels.ts). The generic form validation texts (`form.validate.*`) are spec.md §5's English ones
 * in en-US, and their Chinese in zh-CN.
 *
 * `zh-CN.ts` and `en-US.ts` are what Umi's locale plugin finds: the base catalogue in each language. An area's
 * catalogue is added to both when its screens load (`addCatalogue` in src/utils/i18n.ts).
 */
export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Message id → its text in each language, in the order of LANGUAGES (tests/unit/locales.test.ts checks both). */
export type Catalogue = Record<string, readonly string[]>;

/** A catalogue's texts in one language, as react-intl reads them. */
export function messagesOf<C extends Catalogue>(catalogue: C, language: Language): Record<keyof C & string, string> {
  const at = LANGUAGES.indexOf(language);
  return Object.fromEntries(Object.entries(catalogue).map(([id, texts]) => [id, texts[at]])) as Record<
    keyof C & string,
    string
  >;
}
