import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import SysCodePage from '@/pages/dictionary/syscode';
import type { DictItem, DictType } from '@/pages/dictionary/syscode/descriptor';
import { fakeApi, page } from './fake-api';
import { freshStore, grant, renderApp, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const type = (code: string, name: string, isSystem: boolean): DictType => ({
  id: code === 'admin_user_status' ? '1' : '2',
  code,
  name,
  isSystem,
  tenantExtensible: false,
  status: 'enabled',
  remark: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 0,
});
const types = [type('admin_user_status', '管理员状态', true), type('hospital_grade', '医院等级', false)];
const item: DictItem = {
  id: '11',
  typeCode: 'admin_user_status',
  value: 'enabled',
  label: '启用',
  labelEn: 'Enabled',
  color: 'success',
  parentValue: null,
  isDefault: false,
  sort: 0,
  status: 'enabled',
  scope: 'platform',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 2,
};
const codes = ['list', 'create', 'update', 'delete', 'export', 'item-create', 'item-update'].map(
  (a) => `dictionary:syscode:${a}`,
);

let store: TestStore;
beforeEach(() => {
  store = freshStore([
    { type: 'common_status', value: 'enabled', label: '启用', labelEn: 'Enabled', color: 'success', sort: 0 },
    { type: 'yes_no', value: 'true', label: '是', labelEn: 'Yes', color: 'success', sort: 0 },
    { type: 'yes_no', value: 'false', label: '否', labelEn: 'No', color: 'default', sort: 1 },
    { type: 'admin_user_status', value: 'enabled', label: '启用', labelEn: 'Enabled', color: 'success', sort: 0 },
  ]);
});
afterEach(() => vi.unstubAllGlobals());

function mount(
  extra: Parameters<typeof fakeApi>[0] = {},
  access: Record<string, boolean> = { ...grant(codes), platformOperator: true },
) {
  const api = fakeApi({
    'GET /api/dictionary/syscode/types': () => page(types),
    'GET /api/dictionary/syscode/items': (call) => page(call.query.typeCode === 'admin_user_status' ? [item] : []),
    ...extra,
  });
  render(renderApp({ store, access, children: <SysCodePage /> }).tree);
  return api;
}

const items = () => screen.getByTestId('dict-items');

describe('/dictionary/syscode', () => {
  it('lists the types, selects the first and lists its items with their tag colour', async () => {
    const api = mount();
    await screen.findByText('管理员状态');
    expect(screen.getByText('hospital_grade')).toBeInTheDocument();
    await waitFor(() => expect(items()).toHaveAttribute('data-type', 'admin_user_status'));
    const row = (await within(items()).findByText('Enabled', {}, { timeout: 5000 })).closest('tr') as HTMLElement;
    const [label] = within(row).getAllByText('启用');
    expect(label).toHaveClass('ant-tag-success');
    expect(within(row).getByTestId('color-swatch')).toHaveAttribute('data-color', 'success');
    expect(within(row).queryByText('success')).toBeNull();
    expect(api.find('GET', '/api/dictionary/syscode/items')[0].query).toMatchObject({
      typeCode: 'admin_user_status',
      current: '1',
      pageSize: '10',
    });
    // a system type cannot be deleted; the other can
    const systemRow = screen.getByTestId('type-row-admin_user_status');
    expect(within(systemRow).queryByTestId('row-delete')).toBeNull();
    expect(within(screen.getByTestId('type-row-hospital_grade')).getByTestId('row-delete')).toBeInTheDocument();

    fireEvent.click(within(screen.getByTestId('type-row-hospital_grade')).getByText('医院等级'));
    await waitFor(() => expect(items()).toHaveAttribute('data-type', 'hospital_grade'));
    await waitFor(() =>
      expect(api.find('GET', '/api/dictionary/syscode/items').some((c) => c.query.typeCode === 'hospital_grade')).toBe(
        true,
      ),
    );
  });

  it('creates an item of the selected type with exactly the form fields', async () => {
    const api = mount({
      'POST /api/dictionary/syscode/items': (call) => ({
        status: 201,
        body: { ...item, id: '12', ...(call.body as object) },
      }),
      'GET /api/dictionary/catalog/syscodes': () => ({ body: [] }),
    });
    await waitFor(() => expect(items()).toHaveAttribute('data-type', 'admin_user_status'));
    fireEvent.click(within(items()).getByTestId('table-create'));
    // the form loads the first time it opens
    await screen.findByText('新建字典项', {}, { timeout: 10_000 });
    expect(screen.getByTestId('form-typeCode')).toHaveValue('admin_user_status');
    expect(screen.getByTestId('form-typeCode')).toBeDisabled();
    fireEvent.change(screen.getByTestId('form-value'), { target: { value: 'frozen' } });
    fireEvent.change(screen.getByTestId('form-label'), { target: { value: '冻结' } });
    fireEvent.change(screen.getByTestId('form-labelEn'), { target: { value: 'Frozen' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('POST', '/api/dictionary/syscode/items')).toHaveLength(1));
    expect(api.find('POST', '/api/dictionary/syscode/items')[0].body).toEqual({
      typeCode: 'admin_user_status',
      value: 'frozen',
      label: '冻结',
      labelEn: 'Frozen',
      sort: 0,
      status: 'enabled',
      isDefault: false,
    });
  });

  it('edits an item with its version and colour, then refreshes sysCodes (SET_SYSCODE)', async () => {
    const fresh = [
      { type: 'admin_user_status', value: 'enabled', label: '在用', labelEn: 'Active', color: 'processing', sort: 0 },
    ];
    const api = mount({
      'PUT /api/dictionary/syscode/items/11': (call) => ({ body: { ...item, ...(call.body as object), version: 3 } }),
      'GET /api/dictionary/catalog/syscodes': () => ({ body: fresh }),
    });
    const row = (
      await within(await screen.findByTestId('dict-items')).findByText('Enabled', {}, { timeout: 5000 })
    ).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-edit'));
    await screen.findByText('编辑字典项：启用');
    expect(screen.getByTestId('form-label')).toHaveValue('启用');
    fireEvent.change(screen.getByTestId('form-label'), { target: { value: '在用' } });
    fireEvent.change(screen.getByTestId('form-labelEn'), { target: { value: 'Active' } });
    // colours are swatches named in the interface language, never the words antd uses for them
    expect(within(screen.getByTestId('form-color')).queryByText(/success|processing|error/)).toBeNull();
    expect(screen.getByTestId('color-option-success')).toHaveAttribute('aria-checked', 'true');
    expect(within(screen.getByTestId('color-option-processing')).getByLabelText('蓝色（进行中）')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('color-option-processing'));
    expect(screen.getByTestId('color-preview')).toHaveClass('ant-tag-processing');
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/dictionary/syscode/items/11')).toHaveLength(1));
    expect(api.find('PUT', '/api/dictionary/syscode/items/11')[0].body).toEqual({
      label: '在用',
      labelEn: 'Active',
      color: 'processing',
      sort: 0,
      status: 'enabled',
      isDefault: false,
      version: 2,
    });
    await waitFor(() => expect(api.find('GET', '/api/dictionary/catalog/syscodes')).toHaveLength(1));
    await waitFor(() => expect(store.getState().root.sysCodes).toEqual(fresh));
  });
  it("offers a tenant's administrator its own items to change, not the platform's types and items", async () => {
    const own: DictItem = { ...item, id: '12', value: 'on_leave', label: '休假', labelEn: 'On leave', scope: 'tenant' };
    mount({ 'GET /api/dictionary/syscode/items': () => page([item, own]) }, grant(codes));
    const platformRow = (await within(items()).findByText('Enabled', {}, { timeout: 5000 })).closest(
      'tr',
    ) as HTMLElement;
    const ownRow = within(items()).getByText('On leave').closest('tr') as HTMLElement;
    expect(within(platformRow).queryByTestId('row-edit')).toBeNull();
    // the platform's row says why it is locked, and cannot be ticked for a batch delete
    expect(within(platformRow).getByTestId('row-locked')).toHaveAttribute(
      'aria-label',
      expect.stringContaining('只有平台管理员可以修改'),
    );
    expect(within(platformRow).queryByRole('checkbox')).toBeNull();
    expect(within(ownRow).getByRole('checkbox')).toBeInTheDocument();
    expect(within(ownRow).queryByTestId('row-locked')).toBeNull();
    expect(within(ownRow).getByTestId('row-edit')).toBeInTheDocument();
    const typeRow = screen.getByText('hospital_grade').closest('tr') as HTMLElement;
    expect(within(typeRow).queryByTestId('row-edit')).toBeNull();
    expect(within(typeRow).queryByTestId('row-delete')).toBeNull();
    // items can be added to extensible types; types themselves only by the platform
    expect(within(items()).getByTestId('table-create')).toBeInTheDocument();
    expect(screen.getAllByTestId('table-create')).toHaveLength(1);
  });
});
