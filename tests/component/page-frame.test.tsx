import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { history } from '@umijs/max';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import TabsOutlet from '@/components/layout/TabsOutlet';
import NotFound from '@/pages/exception/404';
import AdminUserProfile from '@/pages/system/admin/profile';
import { fakeApi } from './fake-api';
import { createTestStore, freshStore, renderApp, type TestStore } from './harness';

const user = {
  id: '7',
  userName: 'zhangsan',
  displayName: '张三',
  email: null,
  mobile: null,
  orgId: null,
  status: 'enabled',
  mustChangePassword: false,
  lockedUntil: null,
  lastLoginAt: null,
  lastLoginIp: null,
  remark: null,
  roleIds: [],
  roles: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 1,
};
const empty = { body: { data: [], total: 0, success: true } };

const routes = [
  {
    path: '/',
    isLayout: true,
    element: <TabsOutlet />,
    children: [
      {
        path: '/dashboard/workspace',
        name: 'workspace',
        access: 'dashboard:workspace:view',
        element: <p>workspace</p>,
      },
      {
        path: '/system',
        name: 'system',
        children: [
          { path: '/system/admin', name: 'admin', access: 'system:admin:list', element: <p>admins</p> },
          {
            path: '/system/admin/:id/profile',
            name: 'adminProfile',
            access: 'system:admin:list',
            element: <AdminUserProfile />,
          },
          { path: '/system/role', name: 'role', access: 'system:role:list', element: <p>roles</p> },
        ],
      },
      { path: '*', name: 'notFound', element: <NotFound /> },
    ],
  },
];
const access = { 'dashboard:workspace:view': true, 'system:admin:list': true };

vi.setConfig({ testTimeout: 60_000 });
let store: TestStore;
const root = () => store.getState().root;
const tabLabels = () => screen.queryAllByTestId('tab').map((el) => el.textContent);
const go = (path: string) => act(() => history.push(path));
const activePane = () => document.querySelector('[data-testid="tab-pane"]:not([hidden])') as HTMLElement;

beforeEach(() => {
  store = freshStore();
  fakeApi({
    'GET /api/system/admin/7': () => ({ body: user }),
    'GET /api/system/login-log': () => empty,
    'GET /api/system/audit-log': () => empty,
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('the page frame', () => {
  it('gives every screen a header with its title and its place in the route tree', async () => {
    render(renderApp({ store, routes, access, initialPath: '/dashboard/workspace' }).tree);
    expect(await within(activePane()).findByTestId('page-title')).toHaveTextContent('工作台');
    go('/system/admin');
    await waitFor(() => expect(within(activePane()).getByTestId('page-title')).toHaveTextContent('管理员'));
    expect(within(activePane()).getByTestId('breadcrumb')).toHaveTextContent('系统管理/管理员');
  });

  it("titles a profile's tab and header with its record, kept after a reload", async () => {
    const first = render(renderApp({ store, routes, access, initialPath: '/system/admin' }).tree);
    go('/system/admin/7/profile');
    // the profile's details take a while to render in jsdom on a busy machine
    await waitFor(() => expect(tabLabels()).toEqual(['管理员', '管理员 · 张三']), { timeout: 15_000 });
    expect(within(activePane()).getByTestId('page-title')).toHaveTextContent('管理员 · 张三');
    const crumbs = within(activePane()).getByTestId('breadcrumb');
    expect(crumbs).toHaveTextContent('系统管理/管理员/张三');
    fireEvent.click(within(crumbs).getByText('管理员'));
    await waitFor(() => expect(history.location.pathname).toBe('/system/admin'));
    await waitFor(() => expect(localStorage.getItem('persist:root')).toContain('张三'));
    first.unmount();

    store = createTestStore();
    await waitFor(() => expect(root().curTab).toHaveLength(2));
    render(renderApp({ store, routes, access, initialPath: '/system/admin' }).tree);
    await waitFor(() => expect(tabLabels()).toEqual(['管理员', '管理员 · 张三']));
  });
});

describe('tabs for pages that are not there', () => {
  it("titles a profile in English with its entity as a title begins (not 'admin account · 张三')", async () => {
    render(renderApp({ store, routes, access, initialPath: '/system/admin/7/profile', locale: 'en-US' }).tree);
    await waitFor(() => expect(tabLabels()).toEqual(['Admin account · 张三']), { timeout: 15_000 });
    expect(within(activePane()).getByTestId('page-title')).toHaveTextContent('Admin account · 张三');
    expect(
      within(activePane()).getByText('Admin account', { selector: '.ant-descriptions-title' }),
    ).toBeInTheDocument();
  });

  it('shows a 404 or 403 screen without keeping a tab for it, before or after a reload', async () => {
    const first = render(renderApp({ store, routes, access, initialPath: '/dashboard/workspace' }).tree);
    await waitFor(() => expect(tabLabels()).toEqual(['工作台']));
    for (let i = 0; i < 10; i++) {
      go(`/nowhere/${i}`);
      await screen.findByTestId('exception-404');
    }
    go('/system/role');
    await screen.findByTestId('exception-403');
    expect(tabLabels()).toEqual(['工作台']);
    expect(root().curTab.map((t) => t.path)).toEqual(['/dashboard/workspace']);
    first.unmount();

    store = createTestStore();
    await waitFor(() => expect(root().curTab).toHaveLength(1));
    render(renderApp({ store, routes, access, initialPath: '/dashboard/workspace' }).tree);
    await waitFor(() => expect(tabLabels()).toEqual(['工作台']));
  });

  it('drops tabs of exception screens a browser kept from before', async () => {
    const { tree } = renderApp({ store, routes, access, initialPath: '/dashboard/workspace' });
    act(() => {
      store.dispatch({
        type: 'root/SET_CURTAB',
        payload: [
          { path: '/x', title: 'menu.notFound' },
          { path: '/dashboard/workspace', title: 'menu.workspace' },
        ],
      });
    });
    render(tree);
    await waitFor(() => expect(root().curTab).toEqual([{ path: '/dashboard/workspace', title: 'menu.workspace' }]));
  });

  it('shows a profile of a missing record as not found, with the way back to its list and no tab', async () => {
    render(renderApp({ store, routes, access, initialPath: '/dashboard/workspace' }).tree);
    await waitFor(() => expect(tabLabels()).toEqual(['工作台']));
    go('/system/admin/999/profile');
    await screen.findByTestId('record-not-found', undefined, { timeout: 15_000 });
    await waitFor(() => expect(tabLabels()).toEqual(['工作台']));
    expect(root().curTab.map((t) => t.path)).toEqual(['/dashboard/workspace']);
    fireEvent.click(screen.getByTestId('record-not-found-back'));
    await waitFor(() => expect(history.location.pathname).toBe('/system/admin'));
    await waitFor(() => expect(tabLabels()).toEqual(['工作台', '管理员']));
    expect(screen.queryByTestId('record-not-found')).toBeNull();
  });
});
