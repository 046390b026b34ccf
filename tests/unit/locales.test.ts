import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getIntl } from '@umijs/max';
import { describe, expect, it } from 'vitest';
import routes, { type AppRoute } from '@/config/routes';
import { catalogues } from '@/locales/all';
import { LANGUAGES, messagesOf } from '@/locales/catalogue';
import enUS from '@/locales/en-US';
import zhCN from '@/locales/zh-CN';
import { menuNames } from '@/services/menu';
import { addCatalogue, addMenuNames, validateMessages } from '@/utils/i18n';
import { settingSeeds } from '../../server/src/db/seed/settings';

const root = path.resolve(__dirname, '../..');
const areas = Object.keys(catalogues).filter((name) => name !== 'base') as Exclude<keyof typeof catalogues, 'base'>[];
/** The ids an area's catalogue holds: its own, and the permission tree's in the system area (its only user). */
const AREA_PREFIXES: Record<(typeof areas)[number], string[]> = {
  system: ['system.', 'permission.'],
  dictionary: ['dictionary.'],
  dashboard: ['workspace.'],
  people: ['people.'],
  file: ['file.'],
  assess: ['assess.'],
  teaching: ['teaching.'],
  content: ['content.'],
  community: ['community.'],
  message: ['message.'],
};

describe('locale catalogues', () => {
  it('give every message id a text in every language', () => {
    for (const [name, catalogue] of Object.entries(catalogues)) {
      for (const [id, texts] of Object.entries(catalogue)) {
        expect(texts, `${name}: ${id}`).toHaveLength(LANGUAGES.length);
        for (const text of texts) expect(text.trim(), `${name}: ${id}`).not.toBe('');
      }
    }
  });

  it('hold each message id once, in the catalogue of the area whose screens show it', () => {
    const seen = new Map<string, string>();
    for (const [name, catalogue] of Object.entries(catalogues)) {
      for (const id of Object.keys(catalogue)) {
        expect(seen.get(id), `${id} is in ${seen.get(id)} and ${name}`).toBeUndefined();
        seen.set(id, name);
        const area = areas.find((candidate) => AREA_PREFIXES[candidate].some((prefix) => id.startsWith(prefix)));
        // an entity's menu name is its area's (the shell has it from GET /api/auth/menus); the manifest's, the base's
        const menuOf = areas.find((candidate) => id.startsWith(`menu.${candidate}.`));
        expect(menuOf ? [menuOf, 'base'] : [area ?? 'base'], id).toContain(name);
      }
    }
  });

  it('hand Umi the base catalogue in each language', () => {
    expect(zhCN).toEqual(messagesOf(catalogues.base, 'zh-CN'));
    expect(enUS).toEqual(messagesOf(catalogues.base, 'en-US'));
    expect(Object.keys(enUS)).toEqual(Object.keys(zhCN));
  });

  it('are loaded by every screen of their area', () => {
    const components = (list: AppRoute[]): string[] =>
      list.flatMap((route) => [...(route.component ? [route.component] : []), ...components(route.routes ?? [])]);
    const screens = components(routes).filter((component) => areas.some((area) => component.startsWith(`./${area}/`)));
    expect(screens.length).toBeGreaterThan(areas.length);
    for (const screen of screens) {
      const area = screen.split('/')[1];
      const source = readFileSync(path.join(root, 'src/pages', screen, 'index.tsx'), 'utf8');
      expect(source, screen).toContain(`import '@/pages/${area}/catalogue';`);
    }
  });

  it('join the messages every intl object reads, in both languages, when an area loads', () => {
    const current = getIntl();
    addCatalogue(catalogues.dashboard);
    for (const [at, language] of LANGUAGES.entries()) {
      expect(getIntl(language).formatMessage({ id: 'workspace.links' })).toBe(
        catalogues.dashboard['workspace.links'][at],
      );
    }
    expect(current.formatMessage({ id: 'workspace.links' })).toBe(
      catalogues.dashboard['workspace.links'][LANGUAGES.indexOf(current.locale as (typeof LANGUAGES)[number])],
    );
  });

  it("take a menu's name from the menu answer until its area loads, never over a text the console has", () => {
    const menu = (path: string, name: string, nameEn: string | null) => ({
      id: path,
      type: 'menu' as const,
      name,
      nameEn,
      localeKey: null,
      code: null,
      path,
      icon: null,
      sort: 0,
      hiddenInMenu: false,
      keepAlive: false,
      children: [],
    });
    const routes = [
      { path: '/system', name: 'system', routes: [{ path: '/system/x', name: 'x' }] },
      { path: '/y/list', name: 'area.y' },
    ];
    const answer = [
      { ...menu('/system', '改名', 'Renamed'), type: 'directory' as const, path: null },
      menu('/system/x', '某', null),
      menu('/system/admin', '改名', 'Renamed'),
      menu('/y/list', '乙', 'Y'),
    ];
    expect(menuNames(routes, answer)).toEqual({ 'menu.system.x': ['某', '某'], 'menu.area.y': ['乙', 'Y'] });
    addMenuNames(menuNames([...routes, { path: '/system/admin', name: 'system.admin' }], answer));
    expect(getIntl('en-US').formatMessage({ id: 'menu.system.x' })).toBe('某');
    expect(getIntl('zh-CN').formatMessage({ id: 'menu.area.y' })).toBe('乙');
    expect(getIntl('en-US').formatMessage({ id: 'menu.system.admin' })).toBe(catalogues.base['menu.system.admin'][1]);
  });
  it("name each action the server's audit trail records (what a record's history shows), in the base catalogue", () => {
    const sources = (readdirSync(path.join(root, 'server/src'), { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(path.join(root, 'server/src', file), 'utf8'));
    const verbs = new Set<string>();
    for (const source of sources) {
      // act(ctx, id, 'publish', …) and resource.act(\n ctx,\n id,\n 'review', …): audited as `<permission>:<verb>`
      for (const [, verb] of source.matchAll(/\bact\(\s*ctx,\s*[\w.]+,\s*'([a-z-]+)'/g)) verbs.add(verb as string);
      // an audit record written whole: action: `area:entity:${… ? 'complete' : 'start'}` or 'area:entity:verb'
      for (const [, code] of source.matchAll(/\baction: ([`'][^\n]*)/g))
        for (const [, verb] of (code as string).matchAll(/(?:[?:] '|:)([a-z][a-z-]+)'/g)) verbs.add(verb as string);
    }
    expect(verbs.size).toBeGreaterThan(30);
    const named = Object.keys(catalogues.base);
    expect([...verbs].filter((verb) => !named.includes(`resource.audit.action.${verb}`))).toEqual([]);
  });

  it("explain every built-in setting in both languages (the settings screen's help; the seed's note is English)", () => {
    expect(settingSeeds.length).toBeGreaterThan(30);
    const missing = settingSeeds.map((s) => `system.settings.help.${s.key}`).filter((id) => !(id in catalogues.system));
    expect(missing).toEqual([]);
  });

  it("word a form's generic checks in the console's language: spec.md §5's English in en-US, Chinese in zh-CN", () => {
    expect(validateMessages('en-US').required).toBe('Please enter ${label}');
    expect(validateMessages('zh-CN').required).toBe('请输入${label}');
    const zh = JSON.stringify(validateMessages('zh-CN'));
    expect(zh).not.toMatch(/must|cannot|valid|Please/);
  });
});
