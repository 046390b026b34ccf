import type { PermissionPrefix } from '@server/db/seed/permissions';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ResourceTable from '@/components/resource/ResourceTable';
import type { ResourceDescriptor } from '@/components/resource/types';
import { awaitFirstPage } from '@/utils/firstScreen';
import { fakeApi } from './fake-api';
import { freshStore, grant, renderApp, type TestStore } from './harness';

interface Thing {
  id: string;
  version: number;
  name: string;
  status: string;
  note: string | null;
}

const descriptor: ResourceDescriptor<
  Thing,
  { name: string; note?: string },
  { name: string; note?: string | null; version: number }
> = {
  resource: 'things',
  auditType: 'thing',
  // a throwaway entity: its codes are in no manifest
  permission: 'demo:thing' as PermissionPrefix,
  titleId: 'system.admin.entity',
  form: { create: ['name', 'note'], update: ['name', 'note'] },
  columns: [
    { dataIndex: 'keyword', titleId: 'system.admin.keyword', searchOnly: true },
    {
      dataIndex: 'name',
      titleId: 'system.admin.userName',
      sorter: true,
      hideInSearch: true,
      formItemProps: { rules: [{ required: true }] },
    },
    { dataIndex: 'status', titleId: 'system.admin.status', dict: 'admin_user_status', hideInForm: true },
    { dataIndex: 'note', titleId: 'system.admin.remark', hideInSearch: true },
  ],
};

const rows: Thing[] = [
  { id: '1', version: 3, name: 'alpha', status: 'enabled', note: 'first' },
  { id: '2', version: 0, name: 'beta', status: 'locked', note: null },
];

const all = ['list', 'create', 'update', 'delete', 'export', 'import'].map((a) => `demo:thing:${a}`);

// ProTable renders slowly in jsdom; these tests click through whole screens
vi.setConfig({ testTimeout: 60_000 });

let store: TestStore;
beforeEach(() => {
  store = freshStore([
    { type: 'admin_user_status', value: 'enabled', label: '启用', labelEn: 'Enabled', color: 'success', sort: 0 },
    { type: 'admin_user_status', value: 'locked', label: '锁定', labelEn: 'Locked', color: 'error', sort: 2 },
  ]);
});
afterEach(() => vi.unstubAllGlobals());

function mount(codes: string[], extra: Parameters<typeof fakeApi>[0] = {}, declared = descriptor) {
  const api = fakeApi({
    'GET /api/things': () => ({ body: { data: rows, total: 2, success: true, current: 1, pageSize: 10 } }),
    ...extra,
  });
  const { tree } = renderApp({
    store,
    access: grant(codes),
    children: <ResourceTable<Thing> descriptor={declared} />,
  });
  render(tree);
  return api;
}

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
const dialog = () => document.querySelector('.resource-form .ant-modal') as HTMLElement;

describe('ResourceTable', () => {
  it('opened cold on it, shows its rows first, then its search form, toolbar, row actions and pagination', async () => {
    awaitFirstPage();
    mount(all);
    // until the first page is on screen, the search form's room is kept and nothing else of the list renders
    expect(screen.getByTestId('table-search-room')).toBeTruthy();
    expect(screen.queryByTestId('table-search')).toBeNull();
    expect(screen.queryByTestId('table-create')).toBeNull();
    await screen.findByText('alpha');
    await waitFor(() => expect(screen.getByTestId('table-create')).toBeTruthy());
    expect(await screen.findByTestId('table-search')).toBeTruthy();
    expect(screen.queryByTestId('table-search-room')).toBeNull();
    expect(within(row('alpha')).getByTestId('row-edit')).toBeTruthy();
    expect(document.querySelector('.ant-pagination')).toBeTruthy();
  });

  it('lists the rows of the first page of 10, dictionary values as labelled tags', async () => {
    const api = mount(all);
    await screen.findByText('alpha');
    expect(screen.getByText('beta')).toBeInTheDocument();
    expect(within(row('alpha')).getByText('启用')).toHaveClass('ant-tag');
    expect(within(row('beta')).getByText('锁定')).toHaveClass('ant-tag-error');
    expect(api.find('GET', '/api/things')[0].query).toEqual({ current: '1', pageSize: '10' });
  });

  it('creates with exactly the form fields', async () => {
    const api = mount(all, {
      'POST /api/things': (call) => ({
        status: 201,
        body: { id: '3', version: 0, status: 'enabled', ...(call.body as object) },
      }),
    });
    await screen.findByText('alpha');
    fireEvent.click(screen.getByTestId('table-create'));
    // the form loads the first time it opens
    await screen.findByText('新建管理员', {}, { timeout: 10_000 });
    fireEvent.change(screen.getByTestId('form-name'), { target: { value: 'gamma' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('POST', '/api/things')).toHaveLength(1));
    expect(api.find('POST', '/api/things')[0].body).toEqual({ name: 'gamma' });
    await waitFor(() => expect(api.find('GET', '/api/things').length).toBeGreaterThan(1));
  });

  it("stops a text field at the server's maximum length", async () => {
    mount(all, { 'GET /api/meta/limits': () => ({ body: { things: { name: 50, note: 500 } } }) });
    await screen.findByText('alpha');
    fireEvent.click(screen.getByTestId('table-create'));
    const name = await screen.findByTestId('form-name', {}, { timeout: 10_000 });
    // the browser takes no more than maxlength characters, typed or pasted
    await waitFor(() => expect(name).toHaveAttribute('maxlength', '50'));
    expect(screen.getByTestId('form-note')).toHaveAttribute('maxlength', '500');
  });

  it('edits with the version it read, clearing emptied fields', async () => {
    const api = mount(all, {
      'PUT /api/things/1': (call) => ({ body: { ...rows[0], ...(call.body as object), version: 4 } }),
    });
    await screen.findByText('alpha');
    fireEvent.click(within(row('alpha')).getByTestId('row-edit'));
    await screen.findByText('编辑管理员：alpha');
    expect(screen.getByTestId('form-name')).toHaveValue('alpha');
    fireEvent.change(screen.getByTestId('form-name'), { target: { value: 'alpha 2' } });
    fireEvent.change(screen.getByTestId('form-note'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/things/1')).toHaveLength(1));
    expect(api.find('PUT', '/api/things/1')[0].body).toEqual({ name: 'alpha 2', note: null, version: 3 });
  });

  it('keeps the form open when the record changed meanwhile (409)', async () => {
    const api = mount(all, {
      'PUT /api/things/1': () => ({
        status: 409,
        body: { family: 'CLIENT_ERROR', code: 'common.versionConflict', message: '记录已被他人修改，请刷新后重试' },
      }),
    });
    await screen.findByText('alpha');
    fireEvent.click(within(row('alpha')).getByTestId('row-edit'));
    await screen.findByText('编辑管理员：alpha');
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    expect(await screen.findByText('记录已被他人修改，请刷新后重试', {}, { timeout: 5000 })).toBeInTheDocument();
    // and offers to reload it (ResourceForm's own test follows that path)
    expect(await screen.findByTestId('conflict-reload', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(api.find('PUT', '/api/things/1')).toHaveLength(1);
    expect(screen.getByTestId('form-name')).toHaveValue('alpha');
    expect(dialog()).toBeVisible();
    expect(api.find('GET', '/api/things')).toHaveLength(1);
  });

  it('asks before a batch delete and sends the selected ids', async () => {
    const api = mount(all, { 'POST /api/things/batch-delete': () => ({ body: { deleted: 2 } }) });
    await screen.findByText('alpha');
    fireEvent.click(within(row('alpha')).getByRole('checkbox'));
    fireEvent.click(within(row('beta')).getByRole('checkbox'));
    fireEvent.click(await screen.findByTestId('table-batch-delete'));
    expect(await screen.findByText('确定删除选中的 2 条记录吗？')).toBeInTheDocument();
    expect(api.find('POST', '/api/things/batch-delete')).toHaveLength(0);
    fireEvent.click(document.querySelector('.ant-popconfirm .ant-btn-primary') as HTMLElement);
    await waitFor(() => expect(api.find('POST', '/api/things/batch-delete')).toHaveLength(1));
    expect(api.find('POST', '/api/things/batch-delete')[0].body).toEqual({ ids: ['1', '2'] });
  });

  it('shows no button whose code the user lacks', async () => {
    mount(['demo:thing:list']);
    await screen.findByText('alpha');
    for (const id of ['table-create', 'table-import', 'table-export', 'row-edit', 'row-delete']) {
      expect(screen.queryByTestId(id)).toBeNull();
    }
    expect(within(row('alpha')).queryByRole('checkbox')).toBeNull();
  });

  it("says why a row is locked by the action it refuses: the edit's reason when both are", async () => {
    mount(
      all,
      {},
      {
        ...descriptor,
        allows: (thing, action) => action === 'update' && thing.status !== 'locked',
        lockReasonId: { update: 'teaching.course.locked', delete: 'teaching.course.locked.delete' },
      },
    );
    await screen.findByText('alpha');
    expect(within(row('alpha')).getByTestId('row-edit')).toBeInTheDocument();
    expect(within(row('alpha')).getByTestId('row-locked')).toHaveAttribute('aria-label', '只有草稿课程可以删除');
    expect(within(row('beta')).getByTestId('row-locked')).toHaveAttribute('aria-label', '已归档的课程不能修改或删除');
  });

  it('shows each button with its own code', async () => {
    mount(['demo:thing:list', 'demo:thing:export', 'demo:thing:update']);
    await screen.findByText('alpha');
    expect(screen.getByTestId('table-export')).toBeInTheDocument();
    expect(screen.queryByTestId('table-create')).toBeNull();
    expect(screen.getAllByTestId('row-edit')).toHaveLength(2);
    expect(screen.queryByTestId('row-delete')).toBeNull();
  });

  it('exports the filtered, sorted set without paging', async () => {
    const createObjectURL = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    let finish = () => {};
    const running = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const api = mount(all, {
      'GET /api/things/export': async () => {
        await running;
        return { body: 'xlsx' };
      },
    });
    await screen.findByText('alpha');
    fireEvent.change(screen.getByLabelText('关键词'), { target: { value: 'alp' } });
    fireEvent.submit(screen.getByLabelText('关键词').closest('form') as HTMLElement);
    await waitFor(() => expect(api.find('GET', '/api/things').some((c) => c.query.keyword === 'alp')).toBe(true));
    fireEvent.click(screen.getByTestId('table-export'));
    // while the file is being made it says so, then that the file is ready
    expect(await screen.findByText('正在导出，文件生成后会自动下载…')).toBeInTheDocument();
    finish();
    await waitFor(() => expect(api.find('GET', '/api/things/export')).toHaveLength(1));
    // with the reader's time zone: the file's times are on their clock
    expect(api.find('GET', '/api/things/export')[0].query).toEqual({
      keyword: 'alp',
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(await screen.findByText(/导出完成，已下载 .+\.xlsx/)).toBeInTheDocument();
    click.mockRestore();
  });
});

describe('ResourceTable opened by a link', () => {
  it("lists what the link's filters say, shows them in its search form, and takes another link's when kept open", async () => {
    const api = fakeApi({
      'GET /api/things': () => ({ body: { data: rows.slice(1), total: 1, success: true, current: 1, pageSize: 10 } }),
    });
    const { tree, history } = renderApp({
      store,
      access: grant(all),
      initialPath: '/things?status=locked&unknown=1&current=4',
      children: <ResourceTable<Thing> descriptor={descriptor} />,
    });
    render(tree);
    await screen.findByText('beta');
    expect(api.find('GET', '/api/things')[0]?.query).toEqual({ current: '1', pageSize: '10', status: 'locked' });
    const search = await screen.findByTestId('table-search');
    await waitFor(() => expect(within(search).getByText('锁定')).toBeTruthy());

    history.push('/things?status=enabled');
    await waitFor(() => expect(api.find('GET', '/api/things').at(-1)?.query).toMatchObject({ status: 'enabled' }));
    // back on its tab without a query: the search stays as it was
    const asked = api.find('GET', '/api/things').length;
    history.push('/things');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.find('GET', '/api/things')).toHaveLength(asked);
  });
});
