import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import TenantScreen from '@/pages/system/tenant';
import type { Tenant } from '@/pages/system/tenant/descriptor';
import { fakeApi } from './fake-api';
import { freshStore, grant, renderApp, type TestStore } from './harness';

const tenant: Tenant = {
  id: '5',
  code: 'renji',
  name: '仁济医院',
  shortName: null,
  packageId: '1',
  packageName: '标准套餐',
  status: 'enabled',
  expired: false,
  expiresAt: '2027-12-31T15:59:59.999Z',
  maxAccounts: 50,
  accountCount: 3,
  domains: [],
  contactName: '王主任',
  contactMobile: null,
  contactEmail: null,
  adminUserId: '9',
  address: null,
  remark: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 2,
};
const pkg = {
  id: '1',
  name: '标准套餐',
  status: 'enabled',
  remark: null,
  permissionIds: ['1', '2'],
  tenantCount: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 0,
};
const list = (rows: unknown[]) => ({
  body: { data: rows, total: rows.length, success: true, current: 1, pageSize: 10 },
});

vi.setConfig({ testTimeout: 60_000 });
let store: TestStore;
beforeEach(() => {
  store = freshStore([
    { type: 'common_status', value: 'enabled', label: '启用', labelEn: 'Enabled', color: 'success', sort: 0 },
    { type: 'common_status', value: 'disabled', label: '停用', labelEn: 'Disabled', color: 'default', sort: 1 },
  ]);
});
afterEach(() => vi.unstubAllGlobals());

const api = () =>
  fakeApi({
    'GET /api/system/tenant': () => list([tenant]),
    'GET /api/system/tenant-package': () => list([pkg]),
    'PUT /api/system/tenant/5': (call) => ({ body: { ...tenant, ...(call.body as object), version: 3 } }),
    'POST /api/system/tenant/5/disable': () => ({ body: { ...tenant, status: 'disabled' } }),
  });

describe('/system/tenant', () => {
  it('lists tenants with package, quota and expiry; edits one sending its version', async () => {
    const calls = api();
    render(
      renderApp({
        store,
        access: grant(['system:tenant:list', 'system:tenant:update', 'system:tenant:create']),
        children: <TenantScreen />,
      }).tree,
    );
    const row = (await screen.findByText('renji')).closest('tr') as HTMLElement;
    expect(within(row).getByText('标准套餐')).toBeInTheDocument();
    expect(within(row).getByText('3 / 50')).toBeInTheDocument();
    expect(within(row).getByText('启用')).toHaveClass('ant-tag');
    expect(screen.queryByText('租户套餐')).toBeNull();
    expect(within(row).queryByTestId('row-disable')).toBeNull();

    fireEvent.click(within(row).getByTestId('row-edit'));
    const name = await screen.findByTestId('form-name');
    await waitFor(() => expect(name).toHaveValue('仁济医院'));
    fireEvent.change(name, { target: { value: '仁济医院东院' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(calls.find('PUT', '/api/system/tenant/5')).toHaveLength(1));
    expect(calls.find('PUT', '/api/system/tenant/5')[0].body).toMatchObject({
      name: '仁济医院东院',
      packageId: '1',
      maxAccounts: 50,
      version: 2,
    });
    expect(calls.find('PUT', '/api/system/tenant/5')[0].body).not.toHaveProperty('adminPassword');
  });

  it('the create form asks for the first administrator too', async () => {
    api();
    render(
      renderApp({ store, access: grant(['system:tenant:list', 'system:tenant:create']), children: <TenantScreen /> })
        .tree,
    );
    await screen.findByText('renji');
    fireEvent.click(screen.getByTestId('table-create'));
    expect(await screen.findByTestId('form-adminUserName')).toBeInTheDocument();
    expect(screen.getByTestId('form-adminPassword')).toBeInTheDocument();
    expect(screen.getByTestId('form-code')).toBeInTheDocument();
  });

  it('disables a tenant after a confirmation; packages on their own tab', async () => {
    const calls = api();
    render(
      renderApp({
        store,
        access: grant([
          'system:tenant:list',
          'system:tenant:disable',
          'system:tenant:renew',
          'system:tenant-package:list',
        ]),
        children: <TenantScreen />,
      }).tree,
    );
    const row = (await screen.findByText('renji')).closest('tr') as HTMLElement;
    expect(within(row).getByTestId('row-renew')).toBeInTheDocument();
    fireEvent.click(within(row).getByTestId('row-disable'));
    await screen.findByText(/停用租户“仁济医院”/);
    expect(calls.find('POST', '/api/system/tenant/5/disable')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(calls.find('POST', '/api/system/tenant/5/disable')).toHaveLength(1));

    fireEvent.click(screen.getByText('租户套餐'));
    await waitFor(() =>
      expect(screen.getAllByText('标准套餐').some((el) => el.closest('[data-resource="system/tenant-package"]'))).toBe(
        true,
      ),
    );
  });
});
