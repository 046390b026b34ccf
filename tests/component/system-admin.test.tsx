import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import AdminUserList from '@/pages/system/admin';
import type { AdminUser } from '@/pages/system/admin/descriptor';
import AdminUserProfile from '@/pages/system/admin/profile';
import { fakeApi } from './fake-api';
import { freshStore, grant, renderApp, type TestStore } from './harness';

const user: AdminUser = {
  id: '7',
  userName: 'zhangsan',
  displayName: '张三',
  email: 'zs@example.com',
  mobile: '13800000000',
  orgId: null,
  status: 'enabled',
  mustChangePassword: false,
  lockedUntil: null,
  lastLoginAt: '2026-01-02T03:04:05.000Z',
  lastLoginIp: '10.0.0.1',
  remark: null,
  roleIds: ['2'],
  roles: [{ id: '2', code: 'tenant_admin', name: '租户管理员' }],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 1,
};

const everything = [
  'system:admin:list',
  'system:admin:create',
  'system:admin:update',
  'system:admin:delete',
  'system:admin:export',
  'system:admin:import',
  'system:admin:reset-password',
  'system:admin:update-status',
  'system:admin:force-logout',
  'system:admin:assign-role',
];

// ProTable renders slowly in jsdom; these tests click through whole screens
vi.setConfig({ testTimeout: 60_000 });

let store: TestStore;
beforeEach(() => {
  store = freshStore([
    { type: 'admin_user_status', value: 'enabled', label: '启用', labelEn: 'Enabled', color: 'success', sort: 0 },
  ]);
});
afterEach(() => vi.unstubAllGlobals());

const api = () =>
  fakeApi({
    'GET /api/system/admin': () => ({ body: { data: [user], total: 1, success: true, current: 1, pageSize: 10 } }),
    'GET /api/system/admin/7': () => ({ body: user }),
    'POST /api/system/admin/7/reset-password': () => ({ body: { temporaryPassword: 'Tmp-9x8y7z' } }),
    'GET /api/system/login-log': () => ({
      body: {
        data: [
          {
            id: '1',
            userId: '7',
            username: 'zhangsan',
            clientId: 'console',
            logType: 'login_password',
            result: 'failure',
            reason: 'bad_credentials',
            ip: '10.0.0.9',
            userAgent: 'Chrome',
            createdAt: '2026-01-03T00:00:00.000Z',
          },
        ],
        total: 1,
        success: true,
        current: 1,
        pageSize: 10,
      },
    }),
    'GET /api/system/audit-log': () => ({
      body: {
        data: [
          {
            id: '9',
            actorId: '1',
            actorName: 'admin',
            action: 'system:admin:update',
            resourceType: 'admin_user',
            resourceId: '7',
            summary: 'zhangsan',
            before: { displayName: '张' },
            after: { displayName: '张三' },
            ip: null,
            userAgent: null,
            createdAt: '2026-01-02T00:00:00.000Z',
          },
        ],
        total: 1,
        success: true,
        current: 1,
        pageSize: 20,
      },
    }),
  });

describe('/system/admin', () => {
  it('lists accounts with their status and roles, and resets a password after a confirmation, showing it once', async () => {
    const calls = api();
    render(renderApp({ store, access: grant(everything), children: <AdminUserList /> }).tree);
    const row = (await screen.findByText('zhangsan')).closest('tr') as HTMLElement;
    expect(within(row).getByText('启用')).toHaveClass('ant-tag');
    expect(within(row).getByText('租户管理员')).toBeInTheDocument();
    expect(screen.getByTestId('table-create')).toBeInTheDocument();
    expect(screen.getByTestId('table-import')).toBeInTheDocument();

    fireEvent.click(within(row).getByTestId('row-more'));
    expect(await screen.findByTestId('row-action-disable')).toBeInTheDocument();
    expect(screen.queryByTestId('row-action-enable')).toBeNull();
    fireEvent.click(screen.getByTestId('row-action-reset-password'));
    await screen.findByText(/为 张三 生成临时密码/);
    expect(calls.find('POST', '/api/system/admin/7/reset-password')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('confirm-ok'));
    // a lazily loaded dialog: on a busy machine it takes a while to come in jsdom
    expect(await screen.findByTestId('temporary-password', {}, { timeout: 15_000 })).toHaveTextContent('Tmp-9x8y7z');
    expect(calls.find('POST', '/api/system/admin/7/reset-password')).toHaveLength(1);
  });

  it('offers only the actions the user holds codes for', async () => {
    api();
    render(
      renderApp({
        store,
        access: grant(['system:admin:list', 'system:admin:force-logout']),
        children: <AdminUserList />,
      }).tree,
    );
    const row = (await screen.findByText('zhangsan')).closest('tr') as HTMLElement;
    expect(screen.queryByTestId('table-create')).toBeNull();
    expect(within(row).queryByTestId('row-edit')).toBeNull();
    fireEvent.click(within(row).getByTestId('row-more'));
    expect(await screen.findByTestId('row-action-force-logout')).toBeInTheDocument();
    expect(screen.queryByTestId('row-action-reset-password')).toBeNull();
    expect(screen.queryByTestId('row-action-disable')).toBeNull();
    expect(screen.queryByTestId('row-action-assign-role')).toBeNull();
  });
});

describe('/system/admin/:id/profile', () => {
  it('shows the details, roles, recent sign-ins and the audit trail', async () => {
    const calls = api();
    const routes = [{ path: '/system/admin/:id/profile', element: <AdminUserProfile /> }];
    render(renderApp({ store, access: grant(everything), routes, initialPath: '/system/admin/7/profile' }).tree);
    expect(await screen.findByText('zs@example.com')).toBeInTheDocument();
    expect(within(screen.getByTestId('admin-roles')).getByText('租户管理员 (tenant_admin)')).toBeInTheDocument();
    const signIns = screen.getByTestId('admin-sign-ins');
    await waitFor(() => expect(within(signIns).getByText(/用户名或密码错误/)).toBeInTheDocument());
    const audit = screen.getByTestId('audit-timeline');
    await waitFor(() => expect(within(audit).getByText('修改')).toBeInTheDocument());
    expect(within(audit).getByText('变更字段：姓名')).toBeInTheDocument();
    expect(calls.find('GET', '/api/system/audit-log')[0].query).toMatchObject({
      resourceType: 'admin_user',
      resourceId: '7',
    });
    expect(calls.find('GET', '/api/system/login-log')[0].query).toMatchObject({ userId: '7' });
  });
});
