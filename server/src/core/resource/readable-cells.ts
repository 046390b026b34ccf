import { z } from '@hono/zod-openapi';
import type { Lang } from '../i18n';
import { findLabel } from '../labels';
import type { CellValue } from './spreadsheet';

/**
 * What a spreadsheet shows a reader, and reads back: a field's coded value by its label (`已发布`, not `published`), a
 * yes/no by its word, and an instant on the reader's clock (`2026-11-27 20:15:30`, not UTC's ISO text). An import
 * takes the label or the code, so that a file exported in either language imports again.
 */

/** The labels of a column's coded values, by value; looked up and read back by the same map. */
export type ValueLabels = ReadonlyMap<string, Record<Lang, string>>;

const LANGS: Lang[] = ['zh-CN', 'en-US'];

/** A field's rule without its optional, nullable and default wrappers. */
function bare(rule: unknown): unknown {
  let at = rule;
  while (at instanceof z.ZodOptional || at instanceof z.ZodNullable || at instanceof z.ZodDefault) at = at.unwrap();
  return at;
}

/**
 * The labels of an enum field's values, each `<the column's label key>.<value>` in the catalogue (the console's own
 * names for them: `teaching.activity.status.published`); undefined when the field is not an enum or none is named.
 */
export function valueLabels(labelKey: string, key: string, schemas: unknown[]): ValueLabels | undefined {
  const values = new Set<string>();
  for (const schema of schemas) {
    const rule = bare(schema instanceof z.ZodObject ? schema.shape[key] : undefined);
    if (rule instanceof z.ZodEnum) for (const value of rule.options) values.add(String(value));
  }
  const labels = new Map<string, Record<Lang, string>>();
  for (const value of values) {
    const [zh, en] = LANGS.map((lang) => findLabel(`${labelKey}.${value}`, lang));
    if (zh && en) labels.set(value, { 'zh-CN': zh, 'en-US': en });
  }
  return labels.size ? labels : undefined;
}

/** An instant as the API writes it (`Date#toISOString`). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

const clocks = new Map<string, Intl.DateTimeFormat>();
/** `2026-11-27 20:15:30` on `timeZone`'s clock. */
function onClock(iso: string, timeZone: string): string {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'medium', hourCycle: 'h23' });
    clocks.set(timeZone, clock);
  }
  return clock.format(new Date(iso));
}

export interface Reading {
  lang: Lang;
  /** The reader's IANA time zone; without it instants stay as the API writes them. */
  timeZone?: string;
}

/**
 * A cell as the reader reads it. `importable`: the column is one the import reads too, whose instants stay as they
 * are (an import reads an instant as the API does); its labels and yes/no are read back.
 */
export function readableCell(
  value: CellValue,
  column: { values?: ValueLabels },
  importable: boolean,
  { lang, timeZone }: Reading,
): CellValue {
  if (typeof value === 'boolean') return findLabel(value ? 'export.yes' : 'export.no', lang) ?? value;
  if (typeof value !== 'string') return value;
  const label = column.values?.get(value);
  if (label) return label[lang];
  return timeZone && !importable && INSTANT.test(value) ? onClock(value, timeZone) : value;
}

/** The words an import reads as yes and as no, beside true/false, yes/no, 1/0 and on/off. */
export const YES_NO = {
  truthy: ['true', '1', 'yes', 'y', 'on', ...LANGS.map((lang) => findLabel('export.yes', lang) ?? 'yes')],
  falsy: ['false', '0', 'no', 'n', 'off', ...LANGS.map((lang) => findLabel('export.no', lang) ?? 'no')],
};

/** An import cell's code: the value whose label (in either language) it is, else the cell as written. */
export function codeOf(text: string, values: ValueLabels | undefined): string {
  if (!values) return text;
  for (const [value, label] of values) if (label['zh-CN'] === text || label['en-US'] === text) return value;
  return text;
}
