import { describe, expect, it } from 'vitest';
import { menuIconNames } from '@/components/layout/menuIcons';
import { toggle } from '@/components/permission/PermissionTree';
import appRoutes, { type AppRoute } from '@/config/routes';
import { filterMenuRoutes, type MenuNode, menuPaths } from '@/services/menu';

const node = (path: string | null, type: 'directory' | 'menu', children: MenuNode[] = []): MenuNode => ({
  id: path ?? 'dir',
  type,
  name: path ?? 'dir',
  nameEn: null,
  localeKey: null,
  code: null,
  path,
  icon: null,
  sort: 0,
  hiddenInMenu: false,
  keepAlive: false,
  children,
});

const routes = [
  { path: '/', redirect: '/dashboard/workspace' },
  { path: '/dashboard/workspace', name: 'workspace' },
  { path: '/account/center', name: 'account' },
  {
    path: '/system',
    name: 'system',
    children: [
      { path: '/system', redirect: '/system/admin' },
      { path: '/system/tenant', name: 'tenant' },
      { path: '/system/admin', name: 'admin' },
      { path: '/system/admin/:id/profile', name: 'adminProfile', hideInMenu: true },
    ],
  },
  {
    path: '/dictionary',
    name: 'dictionary',
    children: [{ path: '/dictionary/syscode', name: 'syscode' }],
  },
  { path: '/exception/403', name: 'forbidden', hideInMenu: true },
];

describe('the menu from GET /api/auth/menus', () => {
  it('keeps exactly the granted entries, in the routes order, with groups that still list something', () => {
    const granted = menuPaths([
      node(null, 'directory', [node('/dashboard/workspace', 'menu')]),
      node(null, 'directory', [node('/system/admin', 'menu')]),
    ]);
    const menu = filterMenuRoutes(routes, granted);
    expect(menu.map((r) => r.path)).toEqual(['/', '/dashboard/workspace', '/system', '/exception/403']);
    const system = menu.find((r) => r.path === '/system')!;
    expect(system.children!.map((r) => r.path)).toEqual(['/system', '/system/admin', '/system/admin/:id/profile']);
  });

  it('an empty grant leaves no listed entry', () => {
    const menu = filterMenuRoutes(routes, new Set());
    expect(menu.filter((r) => r.name && !r.hideInMenu)).toEqual([]);
  });
});

describe('the permission tree control', () => {
  const index = {
    parent: new Map<string, string | null>([
      ['dir', null],
      ['menu', 'dir'],
      ['create', 'menu'],
      ['delete', 'menu'],
    ]),
    descendants: new Map([
      ['dir', ['menu', 'create', 'delete']],
      ['menu', ['create', 'delete']],
      ['create', []],
      ['delete', []],
    ]),
    all: ['dir', 'menu', 'create', 'delete'],
  };
  it('checking a button brings its menu and directory', () => {
    expect(toggle(index, [], 'create', true)).toEqual(['dir', 'menu', 'create']);
  });
  it('checking a menu brings everything below it; unchecking takes it away', () => {
    expect(toggle(index, [], 'menu', true)).toEqual(['dir', 'menu', 'create', 'delete']);
    expect(toggle(index, ['dir', 'menu', 'create', 'delete'], 'menu', false)).toEqual(['dir']);
    expect(toggle(index, ['dir', 'menu', 'create', 'delete'], 'delete', false)).toEqual(['dir', 'menu', 'create']);
  });
});

describe('the menu icons', () => {
  it('has an icon for every icon name routes.ts gives', () => {
    const named = (list: readonly AppRoute[]): string[] =>
      list.flatMap((r) => [...(typeof r.icon === 'string' ? [r.icon] : []), ...named(r.routes ?? [])]);
    const known = new Set(menuIconNames());
    expect(named(appRoutes).filter((icon) => !known.has(icon))).toEqual([]);
  });
});
