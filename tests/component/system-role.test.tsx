import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import RoleScreen from '@/pages/system/role';
import type { Role } from '@/pages/system/role/descriptor';
import { fakeApi } from './fake-api';
import { freshStore, grant, renderApp, seededSysCodes, type TestStore } from './harness';

const role: Role = {
  id: '3',
  code: 'clerk',
  name: '办事员',
  type: 'custom',
  dataScope: 'self',
  dataScopeOrgIds: [],
  sort: 1,
  status: 'enabled',
  remark: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 4,
};
const perm = (
  id: string,
  type: 'directory' | 'menu' | 'button',
  name: string,
  code: string | null,
  children: unknown[] = [],
) => ({
  id,
  parentId: null,
  type,
  name,
  localeKey: null,
  code,
  path: null,
  component: null,
  icon: null,
  sort: 0,
  hiddenInMenu: false,
  keepAlive: false,
  platformOnly: false,
  status: 'enabled',
  createdAt: '',
  updatedAt: null,
  version: 0,
  children,
});
const tree = [
  perm('1', 'directory', '工作台', null, [perm('2', 'menu', '工作台首页', 'dashboard:workspace:view')]),
  perm('5', 'directory', '系统管理', null, [
    perm('30', 'menu', '管理员', 'system:admin:list', [perm('31', 'button', '新建', 'system:admin:create')]),
  ]),
];

vi.setConfig({ testTimeout: 60_000 });
let store: TestStore;
beforeEach(() => {
  store = freshStore(seededSysCodes('common_status', 'role_type', 'data_scope'));
});
afterEach(() => vi.unstubAllGlobals());

const api = () =>
  fakeApi({
    'GET /api/system/role': () => ({ body: { data: [role], total: 1, success: true, current: 1, pageSize: 10 } }),
    'GET /api/system/role/3/permissions': () => ({ body: { permissionIds: ['1', '2'], tree } }),
    'PUT /api/system/role/3/permissions': (call) => ({
      body: { permissionIds: (call.body as { permissionIds: string[] }).permissionIds, tree },
    }),
    'GET /api/system/role/3/members': () => ({
      body: [{ id: '8', userName: 'lisi', displayName: '李四', status: 'enabled' }],
    }),
    'DELETE /api/system/role/3/members/8': () => ({ status: 204 }),
    'GET /api/system/admin': () => ({ body: { data: [], total: 0, success: true } }),
  });

describe('/system/role', () => {
  it('assigns permissions from the package tree: a menu brings its directory and its buttons', async () => {
    const calls = api();
    render(
      renderApp({
        store,
        access: grant(['system:role:list', 'system:role:assign-permission']),
        children: <RoleScreen />,
      }).tree,
    );
    const row = (await screen.findByText('clerk')).closest('tr') as HTMLElement;
    expect(within(row).getByText('仅本人')).toBeInTheDocument();
    expect(within(row).queryByTestId('row-data-scope')).toBeNull();
    fireEvent.click(within(row).getByTestId('row-permissions'));
    const drawer = await screen.findByTestId('role-permissions');
    await within(drawer).findByText('管理员');
    fireEvent.click(within(drawer).getByText('管理员'));
    await waitFor(() => expect(within(drawer).getByText('已选 5 项')).toBeInTheDocument());
    fireEvent.click(screen.getByTestId('role-permissions-save'));
    await waitFor(() => expect(calls.find('PUT', '/api/system/role/3/permissions')).toHaveLength(1));
    expect(calls.find('PUT', '/api/system/role/3/permissions')[0].body).toEqual({
      permissionIds: ['1', '2', '5', '30', '31'],
    });
  });

  it('lists members and removes one after a confirmation', async () => {
    const calls = api();
    render(
      renderApp({ store, access: grant(['system:role:list', 'system:role:assign-user']), children: <RoleScreen /> })
        .tree,
    );
    const row = (await screen.findByText('clerk')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-members'));
    const drawer = await screen.findByTestId('role-members');
    await within(drawer).findByText('李四');
    fireEvent.click(within(drawer).getByTestId('member-remove'));
    fireEvent.click(await screen.findByTestId('member-remove-ok'));
    await waitFor(() => expect(calls.find('DELETE', '/api/system/role/3/members/8')).toHaveLength(1));
    await waitFor(() => expect(within(drawer).queryByText('李四')).toBeNull());
  });
});
