/**
 * Message templates' placeholders (docs/domain.md §6.1): `{name}` in the title and the content, found by yudao's rule
 * `\{(.*?)\}`. Pure functions: the editor's preview and the sending pipeline render the same way.
 */
const PLACEHOLDER = /\{(.*?)\}/g;

/** What a variable's name may be: the business items' rule (a letter, then letters, digits or `_`). */
export const VARIABLE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,49}$/;

export interface TemplateText {
  titleTemplate?: string | null;
  contentTemplate: string;
}

export interface Rendered {
  /** null when the template has no title (SMS, WeChat). */
  title: string | null;
  content: string;
  /** The template's variables `params` gave no value for (their placeholders are left as written), in order. */
  missing: string[];
}

/** Every placeholder's text between the braces, in order of first appearance, each once (valid names or not). */
export function placeholdersOf(...texts: (string | null | undefined)[]): string[] {
  const found = new Set<string>();
  for (const text of texts) for (const match of (text ?? '').matchAll(PLACEHOLDER)) found.add(match[1] ?? '');
  return [...found];
}

/** The placeholders that are not variable names (`{user name}`, `{}`), which a template may not hold. */
export function invalidPlaceholders(text: string | null | undefined): string[] {
  return placeholdersOf(text).filter((name) => !VARIABLE_NAME.test(name));
}

/** The template's variables: its title's then its content's placeholders, each once. */
export const paramsOf = (template: TemplateText): string[] =>
  placeholdersOf(template.titleTemplate, template.contentTemplate);

const textOf = (params: Readonly<Record<string, unknown>>, name: string): string | undefined => {
  if (!Object.hasOwn(params, name)) return undefined;
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
};

/**
 * The template with each `{name}` replaced by `params[name]` (numbers and booleans as text); a variable without a
 * value keeps its placeholder and is listed in `missing`.
 */
export function renderTemplate(template: TemplateText, params: Readonly<Record<string, unknown>>): Rendered {
  const missing = new Set<string>();
  const fill = (text: string) =>
    text.replace(PLACEHOLDER, (whole, name: string) => {
      const value = textOf(params, name);
      if (value !== undefined) return value;
      missing.add(name);
      return whole;
    });
  const title = template.titleTemplate == null ? null : fill(template.titleTemplate);
  const content = fill(template.contentTemplate);
  return { title, content, missing: [...missing] };
}
