/**
 * The console's texts live in one bilingual catalogue per area: `base.ts` (the shell, the sign-in screen and what
 * every screen shares) and one per area of screens (`system.ts`, `dictionary.ts`, `dashboard.ts`), each message id
 * with its zh-CN and its en-US text side by side, so a new entity's texts are lines in one file. Plain objects: the
 * server reads the same catalogues for its spreadsheet headers (server/src/core/labels.ts).
 *
 * `zh-CN.ts` and `en-US.ts` are what Umi's locale plugin finds: the base catalogue in each language. An area's
 * catalogue is added to both when its screens load (`addCatalogue` in src/utils/i18n.ts).
 */
export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Message id → its text in each language, in the order of LANGUAGES. */
export type Catalogue = Record<string, readonly [zhCN: string, enUS: string]>;

/** Declares a catalogue, keeping its ids as a type. */
export const defineCatalogue = <C extends Catalogue>(catalogue: C): C => catalogue;

/** A catalogue's texts in one language, as react-intl reads them. */
export function messagesOf<C extends Catalogue>(catalogue: C, language: Language): Record<keyof C & string, string> {
  const at = LANGUAGES.indexOf(language);
  return Object.fromEntries(Object.entries(catalogue).map(([id, texts]) => [id, texts[at]])) as Record<
    keyof C & string,
    string
  >;
}
