import { describe, expect, it } from 'vitest';
import routes from '@/config/routes';
import { firstOpenPath, landingPath, openScreens, safeRedirect, signInPath } from '@/utils/navigation';

describe('the page to return to after sign-in', () => {
  it('keeps a page of this app, with its query', () => {
    expect(safeRedirect('/system/admin/7/profile')).toBe('/system/admin/7/profile');
    expect(safeRedirect('/system/admin?status=locked')).toBe('/system/admin?status=locked');
  });

  it('refuses another site, a scheme, odd characters and the sign-in screen itself', () => {
    for (const target of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/\t/evil.example',
      '/login',
      '/login?redirect=/x',
      '',
      null,
    ]) {
      expect(safeRedirect(target)).toBeUndefined();
    }
  });

  it('is carried by the sign-in address, unless it is the landing page anyway', () => {
    expect(signInPath('/system/admin/7/profile')).toBe('/login?redirect=%2Fsystem%2Fadmin%2F7%2Fprofile');
    expect(signInPath('/dashboard/workspace')).toBe('/login');
    expect(signInPath('/')).toBe('/login');
    expect(signInPath('//evil.example')).toBe('/login');
  });

  it('lands on the page asked for, else the first screen the user may open', () => {
    const admins = { 'system:admin:list': true };
    expect(landingPath('?redirect=%2Fsystem%2Frole', routes, admins)).toBe('/system/role');
    expect(landingPath('?redirect=https%3A%2F%2Fevil.example', routes, admins)).toBe('/system/admin');
    expect(landingPath('', routes, { ...admins, 'dashboard:workspace:view': true })).toBe('/dashboard/workspace');
    expect(landingPath('', routes, {})).toBe('/dashboard/workspace');
  });

  it('lands a reviewer on their review queue, an administrator who also reviews on the workspace', () => {
    const reviewer = { 'assess:question:list': true, 'assess:question:review': true } as const;
    expect(landingPath('', routes, reviewer)).toBe('/question/list?status=pending_review');
    expect(landingPath('?redirect=%2Fquestion%2F7%2Fprofile', routes, reviewer)).toBe('/question/7/profile');
    expect(landingPath('', routes, { ...reviewer, 'dashboard:workspace:view': true })).toBe('/dashboard/workspace');
    expect(landingPath('', routes, { 'assess:question:list': true })).toBe('/question/list');
  });
});

describe('the screens a user may open', () => {
  it('lists granted menu screens and the own account, never a hidden route', () => {
    const screens = openScreens(routes, { 'dashboard:workspace:view': true, 'system:admin:list': true });
    expect(screens).toEqual([
      { path: '/dashboard/workspace', titleKey: 'menu.workspace', granted: true, access: 'dashboard:workspace:view' },
      { path: '/account/center', titleKey: 'menu.account', granted: false },
      { path: '/system/admin', titleKey: 'menu.system.admin', granted: true, access: 'system:admin:list' },
    ]);
  });

  it('has no first screen for a user whose roles open nothing, even though their account is open', () => {
    expect(firstOpenPath(routes, {})).toBeUndefined();
    expect(firstOpenPath(routes, { 'dictionary:syscode:list': true })).toBe('/dictionary/syscode');
  });
});

describe('the route table', () => {
  type Node = { path?: string; isLayout?: boolean; routes?: Node[]; children?: Node[] };
  /** Routes nested under a path that does not begin theirs: the router throws on them as the console starts. */
  const misplaced = (list: Node[], parent = ''): string[] =>
    list.flatMap((route) => [
      ...(route.path?.startsWith('/') && parent && !route.path.startsWith(parent) ? [`${parent} > ${route.path}`] : []),
      ...misplaced(
        route.routes ?? route.children ?? [],
        route.isLayout || route.path === '/' ? '' : (route.path ?? parent),
      ),
    ]);

  it('nests each absolute path under a parent whose path begins it (as the router requires)', () => {
    expect(misplaced(routes as Node[])).toEqual([]);
  });
});
