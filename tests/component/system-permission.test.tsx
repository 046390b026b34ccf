import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import PermissionScreen, { searchTree } from '@/pages/system/permission';
import { fakeApi } from './fake-api';
import { freshStore, grant, renderApp, type TestStore } from './harness';

const perm = (
  id: string,
  parentId: string | null,
  type: 'directory' | 'menu' | 'button',
  name: string,
  code: string | null,
  children: unknown[] = [],
) => ({
  id,
  parentId,
  type,
  name,
  localeKey: null,
  code,
  path: type === 'menu' ? '/system/admin' : null,
  component: null,
  icon: null,
  sort: 0,
  hiddenInMenu: false,
  keepAlive: false,
  platformOnly: false,
  status: 'enabled' as const,
  createdAt: '',
  updatedAt: null,
  version: 7,
  children,
});
const tree = [
  perm('5', null, 'directory', '系统管理', null, [
    perm('30', '5', 'menu', '管理员', 'system:admin:list', [
      perm('31', '30', 'button', '新建管理员', 'system:admin:create'),
    ]),
  ]),
];

vi.setConfig({ testTimeout: 60_000 });
let store: TestStore;
beforeEach(() => {
  store = freshStore([
    { type: 'permission_type', value: 'directory', label: '目录', labelEn: null, color: 'purple', sort: 0 },
    { type: 'permission_type', value: 'menu', label: '菜单', labelEn: null, color: 'blue', sort: 1 },
    { type: 'common_status', value: 'enabled', label: '启用', labelEn: null, color: 'success', sort: 0 },
  ]);
});
afterEach(() => vi.unstubAllGlobals());

describe('/system/permission', () => {
  it('searches the tree keeping the ancestors of a match', () => {
    const found = searchTree(tree as never, { keyword: 'admin:create' });
    expect(found[0].id).toBe('5');
    expect(found[0].children?.[0].children?.map((n) => n.id)).toEqual(['31']);
    expect(searchTree(tree as never, { keyword: 'nothing' })).toEqual([]);
  });

  it('shows the tree and edits a node with its version', async () => {
    const calls = fakeApi({
      'GET /api/system/permission/tree': () => ({ body: tree }),
      'PUT /api/system/permission/30': (call) => ({
        body: { ...(tree[0].children[0] as object), ...(call.body as object) },
      }),
    });
    render(
      renderApp({
        store,
        access: grant(['system:permission:list', 'system:permission:update', 'system:permission:delete']),
        children: <PermissionScreen />,
      }).tree,
    );
    const dir = (await screen.findByText('系统管理')).closest('tr') as HTMLElement;
    expect(within(dir).getByText('目录')).toHaveClass('ant-tag');
    fireEvent.click(dir.querySelector('.ant-table-row-expand-icon') as HTMLElement);
    const row = (await screen.findByText('system:admin:list')).closest('tr') as HTMLElement;
    expect(within(row).queryByTestId('row-add-child')).toBeNull();
    fireEvent.click(within(row).getByTestId('row-edit'));
    const name = await screen.findByTestId('form-name');
    await waitFor(() => expect(name).toHaveValue('管理员'));
    fireEvent.change(name, { target: { value: '管理员账号' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(calls.find('PUT', '/api/system/permission/30')).toHaveLength(1));
    expect(calls.find('PUT', '/api/system/permission/30')[0].body).toMatchObject({
      name: '管理员账号',
      parentId: '5',
      type: 'menu',
      code: 'system:admin:list',
      path: '/system/admin',
      platformOnly: false,
      version: 7,
    });
  });
});
