import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { message } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import TenantScreen from '@/pages/system/tenant';
import type { Tenant } from '@/pages/system/tenant/descriptor';
import { CreateTenant } from '../../server/src/modules/system/tenant/tenant.schema';
import { fakeApi, validatedBy } from './fake-api';
import { freshStore, renderApp, type TestStore } from './harness';

const tenant: Tenant = {
  id: '5',
  code: 'renji',
  name: '仁济医院',
  shortName: null,
  packageId: '1',
  packageName: '标准套餐',
  status: 'enabled',
  expired: false,
  expiresAt: null,
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
  permissionIds: [],
  tenantCount: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 0,
};
const list = (rows: unknown[]) => ({
  body: { data: rows, total: rows.length, success: true, current: 1, pageSize: 10 },
});
const access = Object.fromEntries(
  ['system:tenant:list', 'system:tenant:create', 'system:tenant:update'].map((c) => [c, true]),
);
const policy = '密码至少 8 位，且须同时包含字母和数字';
// antd renders slowly in jsdom on a busy machine
const slow = { timeout: 15_000 };

vi.setConfig({ testTimeout: 60_000 });
let store: TestStore;
beforeEach(() => {
  store = freshStore([]);
});
afterEach(() => vi.restoreAllMocks());

/** The form item of a field: its explanation is where antd shows the field's error or warning. */
const itemOf = (testId: string) => screen.getByTestId(testId).closest('.ant-form-item') as HTMLElement;

async function openCreate() {
  render(renderApp({ store, access, children: <TenantScreen /> }).tree);
  await screen.findByText('renji');
  fireEvent.click(screen.getByTestId('table-create'));
  const values: Record<string, string> = {
    code: 'gamma',
    name: '伽马医院',
    contactName: '李四',
    adminUserName: 'boss',
    adminDisplayName: '老板',
    adminPassword: 'short',
  };
  for (const [field, value] of Object.entries(values)) {
    fireEvent.change(await screen.findByTestId(`form-${field}`), { target: { value } });
  }
  fireEvent.change(screen.getByTestId('form-maxAccounts'), { target: { value: '10' } });
  fireEvent.mouseDown(within(itemOf('form-packageId')).getByRole('combobox'));
  fireEvent.click(await screen.findByTitle('标准套餐'));
}

describe('field errors of the server', () => {
  it('mark the field they name, and no message pops up for them', async () => {
    const toast = vi.spyOn(message, 'error');
    const answers = [
      {
        family: 'CLIENT_ERROR',
        code: 'auth.passwordPolicy',
        message: policy,
        fields: [{ field: 'adminPassword', message: policy }],
      },
      {
        family: 'CLIENT_ERROR',
        code: 'common.validation',
        message: '请求参数不正确',
        fields: [{ field: 'body', message: '请求体无效' }],
      },
    ];
    const calls = fakeApi({
      'GET /api/system/tenant': () => list([tenant]),
      'GET /api/system/tenant-package': () => list([pkg]),
      'POST /api/system/tenant': () => ({ status: 400, body: answers.shift() }),
    });
    await openCreate();
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(within(itemOf('form-adminPassword')).getByText(policy)).toBeInTheDocument(), slow);
    expect(calls.find('POST', '/api/system/tenant')).toHaveLength(1);
    // a second answer that names no field of the form is shown as a message: the first one never was
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(toast).toHaveBeenCalled(), slow);
    expect(toast.mock.calls).toEqual([['请求体无效']]);
  });

  it('still say why in a message when a field is not one of the form', async () => {
    const toast = vi.spyOn(message, 'error');
    fakeApi({
      'GET /api/system/tenant': () => list([tenant]),
      'GET /api/system/tenant-package': () => list([pkg]),
      'POST /api/system/tenant': () => ({
        status: 400,
        body: {
          family: 'CLIENT_ERROR',
          code: 'common.validation',
          message: '请求参数不正确',
          fields: [{ field: 'body', message: '请求体不是有效的 JSON' }],
        },
      }),
    });
    await openCreate();
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('请求体不是有效的 JSON'), slow);
  });

  it('a pattern rule of the server says on its field, in words, what it accepts, in Chinese', async () => {
    const calls = fakeApi({
      'GET /api/system/tenant': () => list([tenant]),
      'GET /api/system/tenant-package': () => list([pkg]),
      'POST /api/system/tenant': validatedBy(CreateTenant, () => ({ body: tenant })),
    });
    await openCreate();
    fireEvent.change(screen.getByTestId('form-code'), { target: { value: 'Bad Code' } });
    fireEvent.change(screen.getByTestId('form-contactMobile'), { target: { value: 'call me' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    expect(
      await within(itemOf('form-code')).findByText('以小写字母开头，由 2–32 位小写字母、数字或 - 组成', {}, slow),
    ).toBeInTheDocument();
    expect(within(itemOf('form-contactMobile')).getByText(/有效的电话号码/)).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/模式|\^\\\+/);
    expect(calls.find('POST', '/api/system/tenant')).toHaveLength(1);
  });
});

describe('a stale edit', () => {
  it('offers to reload the record, showing what the user typed beside the new values, and saves with the new version', async () => {
    const newer = { ...tenant, name: '仁济医院（总院）', version: 3 };
    const calls = fakeApi({
      'GET /api/system/tenant': () => list([tenant]),
      'GET /api/system/tenant-package': () => list([pkg]),
      'GET /api/system/tenant/5': () => ({ body: newer }),
      'PUT /api/system/tenant/5': (call) =>
        (call.body as { version: number }).version === 2
          ? {
              status: 409,
              body: {
                family: 'CLIENT_ERROR',
                code: 'common.versionConflict',
                message: '数据已被他人修改，请刷新后重试',
              },
            }
          : { body: { ...newer, ...(call.body as object), version: 4 } },
    });
    render(renderApp({ store, access, children: <TenantScreen /> }).tree);
    const row = (await screen.findByText('renji')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-edit'));
    expect(await screen.findByText('编辑租户：仁济医院')).toBeInTheDocument();
    const name = await screen.findByTestId('form-name');
    await waitFor(() => expect(name).toHaveValue('仁济医院'));
    fireEvent.change(name, { target: { value: '仁济东院' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));

    fireEvent.click(await screen.findByTestId('conflict-reload', {}, slow));
    await waitFor(() => expect(screen.getByTestId('form-name')).toHaveValue('仁济医院（总院）'), slow);
    expect(await within(itemOf('form-name')).findByText('你填写的：仁济东院', {}, slow)).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(calls.find('PUT', '/api/system/tenant/5')).toHaveLength(2), slow);
    expect(calls.find('PUT', '/api/system/tenant/5')[1].body).toMatchObject({ name: '仁济医院（总院）', version: 3 });
  });
});
