import type { MenuNode } from '@server/modules/system/permission/permission.schema';
import { START_URLS } from '@/constants';
import type { Catalogue } from '@/locales/catalogue';
import { startEarly, takeEarly } from '@/utils/early';
import { addMenuNames } from '@/utils/i18n';
import request from '@/utils/request';

export type { MenuNode };

const MENUS_URL = START_URLS.menus;

/** The signed-in user's menu: enabled directories and menus their roles hold (within the tenant's package). */
export const fetchMenus = () => takeEarly(MENUS_URL, () => request.get<MenuNode[]>(MENUS_URL));

/**
 * The routes' menu cut to what `menus` grants; the names the answer gives them join the console's messages
 * (`addMenuNames`): the shell draws every menu before the catalogue of its area loads.
 */
export function grantedMenu<R extends MenuRoute>(routes: R[], menus: MenuNode[]): R[] {
  addMenuNames(menuNames(routes, menus));
  return filterMenuRoutes(routes, menuPaths(menus));
}

/** Starts the menu's call with the user's at start-up, while the layout that asks for it still loads. */
export const prefetchMenus = () => startEarly(MENUS_URL);

/**
 * The names a menu tree gives the routes it grants (by path), under the routes' title keys (`menu.<route names>`,
 * as ProLayout and the tabs read them), in both languages.
 */
export function menuNames(routes: MenuRoute[], nodes: MenuNode[], keyOf = 'menu'): Catalogue {
  const named = new Map<string, readonly [string, string]>();
  const walk = (list: MenuNode[]) =>
    list.forEach((node) => {
      if (node.type === 'menu' && node.path) named.set(node.path, [node.name, node.nameEn ?? node.name]);
      walk(node.children ?? []);
    });
  walk(nodes);
  return Object.fromEntries(
    routes.flatMap((route) => {
      const key = route.name ? `${keyOf}.${route.name}` : keyOf;
      const own = route.name && route.path && named.get(route.path);
      return [
        ...(own ? [[key, own] as const] : []),
        ...Object.entries(menuNames(route.children ?? route.routes ?? [], nodes, key)),
      ];
    }),
  );
}

/** Route paths of the menu entries of a menu tree. */
export function menuPaths(nodes: MenuNode[]): Set<string> {
  const paths = new Set<string>();
  const walk = (list: MenuNode[]) =>
    list.forEach((node) => {
      if (node.type === 'menu' && node.path) paths.add(node.path);
      walk(node.children ?? []);
    });
  walk(nodes);
  return paths;
}

export interface MenuRoute {
  path?: string;
  name?: string;
  hideInMenu?: boolean;
  /** An icon name of routes.ts, or the icon itself once the menu has it (src/components/layout/menuIcons.tsx). */
  icon?: unknown;
  children?: MenuRoute[];
  routes?: MenuRoute[];
}

/**
 * The routes' menu (order, icons, i18n names) cut down to what the server granted: a named, listed
 * route stays only when its path is one of `granted`; a group stays while something listed is left in it.
 * Hidden routes (profiles, exceptions) and redirects pass through: they are not menu entries.
 */
export function filterMenuRoutes<R extends MenuRoute>(routes: R[], granted: Set<string>): R[] {
  return routes.flatMap((route) => {
    const kids = route.children ?? route.routes;
    if (kids?.length) {
      const kept = filterMenuRoutes(kids as R[], granted);
      const listed = kept.some((k) => k.name && !k.hideInMenu);
      if (!listed) return [];
      return [{ ...route, ...(route.children ? { children: kept } : {}), ...(route.routes ? { routes: kept } : {}) }];
    }
    if (!route.name || route.hideInMenu) return [route];
    return route.path && granted.has(route.path) ? [route] : [];
  });
}
