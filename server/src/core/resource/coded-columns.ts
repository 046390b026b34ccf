import type { z } from '@hono/zod-openapi';
import type { FieldError } from '../errors';
import type { Lang } from '../i18n';
import type { Tx } from '../tenancy';
import { issuesToFields } from '../validation';
import { dictionaryValues } from './dictionary-values.repository';
import { codeOf, type ValueLabels } from './readable-cells';

/**
 * A coded column (an enum's, a dictionary's) as a person fills it in: a template shows its values' labels, with a
 * list of them to pick from, and an import reads a label in either language, or the code, and keeps the code.
 */

interface Coded {
  key: string;
  values?: ValueLabels;
  dictionary?: string;
}

const texts = {
  'zh-CN': { oneOf: (labels: string[]) => `应为以下之一：${labels.join(' / ')}` },
  'en-US': { oneOf: (labels: string[]) => `must be one of: ${labels.join(' / ')}` },
};

/** The columns, those of a dictionary given its items' labels (read in `tx`; the others as they are). */
export async function withDictionaryValues<C extends Coded>(tx: Tx, columns: C[]): Promise<C[]> {
  return Promise.all(
    columns.map(async (c) =>
      c.dictionary && !c.values ? { ...c, values: await dictionaryValues(tx, c.dictionary) } : c,
    ),
  );
}

/** Whether any column's values are a dictionary's, not yet read. */
export const readsDictionaries = (columns: readonly Coded[]) => columns.some((c) => c.dictionary && !c.values);

/** What a template's cell of a coded column shows: its label in `lang` (a code it does not know, as it is). */
export const labelCell = <T>(column: Coded, value: T, lang: Lang): T | string =>
  (typeof value === 'string' && column.values?.get(value)?.[lang]) || value;

/** The labels a template's coded column offers to pick from, in `lang` (none: the column is not coded). */
export const pickList = (column: Coded, lang: Lang): string[] | undefined =>
  column.values?.size ? [...column.values.values()].map((label) => label[lang]) : undefined;

/** How an import reads a sheet's rows: cells by column key, coded ones as their codes, checked by the row rule. */
export function importRowReader(columns: readonly Coded[], schema: z.ZodType, lang: Lang) {
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const oneOf = (column: Coded | undefined) =>
    column?.values?.size ? texts[lang].oneOf(pickList(column, lang) ?? []) : undefined;
  return {
    /** A row's cells (text, by column key) as its record: a coded cell as its code when it is a label. */
    record(keys: (string | undefined)[], cells: (string | undefined)[]): Record<string, unknown> {
      const record: Record<string, unknown> = {};
      keys.forEach((k, i) => {
        const text = cells[i];
        if (k && text !== undefined) record[k] = codeOf(text, byKey.get(k)?.values);
      });
      return record;
    },
    /**
     * A record checked: its data when every cell is right, else every problem at once, each on its field, saying what
     * was written wrong (a dictionary's column takes one of its items; a value of another type is not called missing).
     */
    check(record: Record<string, unknown>): { data?: Record<string, unknown>; problems: FieldError[] } {
      const problems: FieldError[] = [];
      for (const [key, value] of Object.entries(record)) {
        const column = byKey.get(key);
        if (column?.dictionary && column.values && typeof value === 'string' && !column.values.has(value))
          problems.push({ field: key, message: oneOf(column) ?? '' });
      }
      const parsed = schema.safeParse(record);
      if (parsed.success && problems.length === 0) return { data: parsed.data as Record<string, unknown>, problems };
      const refused = new Set(problems.map((p) => p.field));
      for (const issue of parsed.error?.issues ?? []) {
        for (const f of issuesToFields([issue], lang, record)) {
          if (refused.has(f.field)) continue;
          const labels = issue.code === 'invalid_value' ? oneOf(byKey.get(f.field)) : undefined;
          problems.push(labels ? { ...f, message: labels } : f);
        }
      }
      return { problems };
    },
    /**
     * A refused record without its refused cells, checked again: what the rest of the record makes (so that its
     * store's own rules can be asked too, and every problem of the row be said at once), or undefined when the row
     * rule still refuses it (a required cell among the refused ones).
     */
    rest(record: Record<string, unknown>, problems: readonly FieldError[]): Record<string, unknown> | undefined {
      const rest = { ...record };
      for (const { field } of problems) {
        delete rest[field];
        delete rest[field.split('.')[0] ?? field];
      }
      const parsed = schema.safeParse(rest);
      return parsed.success ? (parsed.data as Record<string, unknown>) : undefined;
    },
  };
}
