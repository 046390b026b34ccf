import { getIntl } from '@umijs/max';
import { useSyncExternalStore } from 'react';
import type base from '@/locales/base.json';
import { type Catalogue, LANGUAGES, type Language, messagesOf } from '@/locales/catalogue';
import enUS from '@/locales/en-US';
import zhCN from '@/locales/zh-CN';

/** An id of the base catalogue: what the shell and the request layer say outside React. */
export type MessageId = keyof typeof base;

const catalogues: Record<Language, Record<MessageId, string>> = { 'zh-CN': zhCN, 'en-US': enUS };

/** A text as a title begins: its first letter a capital (an entity's English name is written for sentences). */
export const asTitle = (text: string): string => text.charAt(0).toLocaleUpperCase() + text.slice(1);

export const normalizeLocale = (locale?: string | null): Language => (locale === 'en-US' ? 'en-US' : 'zh-CN');

let added = 0;
const listeners = new Set<() => void>();

/**
 * Adds an area's catalogue to both languages, at the load of the area's screens (`src/pages/<area>/catalogue.ts`),
 * before any of them renders. The texts go into the messages object each language's intl reads at every call (the
 * one `getIntl(language)` hands out, shared by `useIntl()`, `getIntl()` and a later language switch), so a screen
 * and everything rendered after see them at once; what rendered before (the shell's tabs and header) re-renders
 * through `useCatalogues`.
 */
export function addCatalogue(catalogue: Catalogue): void {
  for (const language of LANGUAGES) Object.assign(getIntl(language).messages, messagesOf(catalogue, language));
  changed();
}

/**
 * The names of the menus the user holds, from `GET /api/auth/menus` (seeded from the areas' catalogues), where the
 * console has none yet: the shell draws every menu, and a tab's title, before the catalogue of the menu's area
 * loads, so an entity's menu name is a line of its area's catalogue, not of the first download's.
 */
export function addMenuNames(names: Catalogue): void {
  for (const language of LANGUAGES) {
    const messages = getIntl(language).messages;
    for (const [id, text] of Object.entries(messagesOf(names, language))) messages[id] ??= text;
  }
  changed();
}

/** Each area's catalogue by the first part of its message ids (`assess.question.entity` → assess.json). */
const AREA_CATALOGUES: Record<string, () => Promise<{ default: Catalogue }>> = {
  assess: () => import('@/locales/assess.json'),
  community: () => import('@/locales/community.json'),
  content: () => import('@/locales/content.json'),
  dictionary: () => import('@/locales/dictionary.json'),
  file: () => import('@/locales/file.json'),
  message: () => import('@/locales/message.json'),
  people: () => import('@/locales/people.json'),
  system: () => import('@/locales/system.json'),
  teaching: () => import('@/locales/teaching.json'),
  workspace: () => import('@/locales/dashboard.json'),
};
const requested = new Set<string>();

/** Whether `id` belongs to an area catalogue that has not been added yet (it is loading, or not asked for). */
export const awaitsCatalogue = (id: string, messages: Record<string, unknown>): boolean =>
  !(id in messages) && id.split('.')[0] in AREA_CATALOGUES;

/**
 * Adds the catalogue of the area `id` belongs to, once, for a text shown before any of the area's screens has
 * loaded: a tab restored after a reload, titled after a record of an area not visited yet.
 */
export function loadCatalogueOf(id: string): void {
  const area = id.split('.')[0] as string;
  const load = AREA_CATALOGUES[area];
  if (!load || requested.has(area)) return;
  requested.add(area);
  load().then(
    (module) => addCatalogue(module.default),
    () => requested.delete(area),
  );
}

function changed() {
  added += 1;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Re-renders a component whose texts may arrive after it first rendered (a menu's name, an area's label). */
export const useCatalogues = (): number => useSyncExternalStore(subscribe, () => added);

/** A message outside React (request layer, validation templates); `{name}` placeholders only. */
export function text(locale: string, id: MessageId, values: Record<string, string | number> = {}): string {
  const template = catalogues[normalizeLocale(locale)][id] ?? zhCN[id] ?? id;
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

/** antd `Form` validateMessages (spec.md §5), raw `${label}` templates filled in by antd. */
export function validateMessages(locale: string) {
  const m = catalogues[normalizeLocale(locale)];
  const invalidType = m['form.validate.invalidType'];
  const types = [
    'string',
    'method',
    'array',
    'object',
    'number',
    'date',
    'boolean',
    'integer',
    'float',
    'regexp',
    'email',
    'url',
    'hex',
  ];
  return {
    default: invalidType,
    required: m['form.validate.required'],
    pattern: { mismatch: m['form.validate.pattern'] },
    types: Object.fromEntries(types.map((type) => [type, invalidType])),
    string: {
      len: m['form.validate.string.len'],
      min: m['form.validate.string.min'],
      max: m['form.validate.string.max'],
      range: m['form.validate.string.range'],
    },
    number: {
      len: m['form.validate.number.len'],
      min: m['form.validate.number.min'],
      max: m['form.validate.number.max'],
      range: m['form.validate.number.range'],
    },
  };
}

/** The generic "required" message of a field, outside antd's Form (the sign-in screen). */
export const requiredMessage = (locale: string, label: string) =>
  catalogues[normalizeLocale(locale)]['form.validate.required'].replace(/\$\{label\}/g, label);
