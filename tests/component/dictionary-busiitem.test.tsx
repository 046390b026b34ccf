import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import BusinessItemPage from '@/pages/dictionary/busiitem';
import type { BusinessItem } from '@/pages/dictionary/busiitem/descriptor';
import { CreateBusinessItem } from '../../server/src/modules/dictionary/busiitem/busiitem.schema';
import { fakeApi, validatedBy } from './fake-api';
import { freshStore, grant, renderApp, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const item: BusinessItem = {
  id: '3',
  code: 'paper.published',
  name: '试卷发布',
  nameEn: 'Exam paper published',
  module: 'assess',
  description: null,
  notifiable: true,
  variables: [{ name: 'paperName', label: '试卷名称', example: '期末考试' }],
  defaultChannels: ['in_app', 'wechat_mp'],
  defaultTemplateCode: null,
  auditLevel: 'normal',
  status: 'enabled',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 4,
};
const codes = ['list', 'create', 'update', 'delete', 'export'].map((a) => `dictionary:busiitem:${a}`);

let store: TestStore;
beforeEach(() => {
  store = freshStore([
    { type: 'common_status', value: 'enabled', label: '启用', labelEn: 'Enabled', color: 'success', sort: 0 },
    { type: 'yes_no', value: 'true', label: '是', labelEn: 'Yes', color: 'success', sort: 0 },
  ]);
});
afterEach(() => vi.unstubAllGlobals());

function mount(
  extra: Parameters<typeof fakeApi>[0] = {},
  access: Record<string, boolean> = { ...grant(codes), platformOperator: true },
) {
  const api = fakeApi({
    'GET /api/dictionary/busiitem': () => ({
      body: { data: [item], total: 1, success: true, current: 1, pageSize: 10 },
    }),
    ...extra,
  });
  render(renderApp({ store, access, children: <BusinessItemPage /> }).tree);
  return api;
}

describe('/dictionary/busiitem', () => {
  it('lists items with variables, channels and audit level', async () => {
    mount();
    const row = (await screen.findByText('paper.published')).closest('tr') as HTMLElement;
    expect(within(row).getByText('{paperName}')).toBeInTheDocument();
    expect(within(row).getByText('站内信')).toHaveClass('ant-tag');
    expect(within(row).getByText('微信公众号')).toHaveClass('ant-tag');
    expect(within(row).getByText('普通')).toHaveClass('ant-tag');
    expect(within(row).getByText('是')).toHaveClass('ant-tag');
    // the module by its label, not its code
    expect(within(row).getByText('考核评价')).toBeInTheDocument();
    expect(within(row).queryByText('assess')).toBeNull();
  });

  it('filters by a module picked by its label', async () => {
    const api = mount();
    const search = await screen.findByTestId('table-search');
    fireEvent.mouseDown(within(search).getByLabelText('模块'));
    fireEvent.click(await screen.findByTitle('教学管理'));
    fireEvent.click(within(search).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.path === '/api/dictionary/busiitem' && c.query.module === 'teaching')).toBe(true),
    );
  });

  it('edits the variables as a list and sends them with the version', async () => {
    const api = mount({
      'PUT /api/dictionary/busiitem/3': (call) => ({ body: { ...item, ...(call.body as object), version: 5 } }),
    });
    const row = (await screen.findByText('paper.published')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-edit'));
    await screen.findByText('编辑业务事项：试卷发布');
    expect(screen.getByTestId('variable-name-0')).toHaveValue('paperName');
    fireEvent.click(screen.getByTestId('variables-add'));
    fireEvent.change(await screen.findByTestId('variable-name-1'), { target: { value: 'publishAt' } });
    fireEvent.change(screen.getByTestId('variable-label-1'), { target: { value: '发布时间' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/dictionary/busiitem/3')).toHaveLength(1));
    expect(api.find('PUT', '/api/dictionary/busiitem/3')[0].body).toEqual({
      name: '试卷发布',
      nameEn: 'Exam paper published',
      module: 'assess',
      notifiable: true,
      variables: [
        { name: 'paperName', label: '试卷名称', example: '期末考试' },
        { name: 'publishAt', label: '发布时间' },
      ],
      defaultChannels: ['in_app', 'wechat_mp'],
      auditLevel: 'normal',
      status: 'enabled',
      version: 4,
    });
  });

  it('shows the server refusing a variable without a label on the variables field', async () => {
    const api = mount({ 'POST /api/dictionary/busiitem': validatedBy(CreateBusinessItem, () => ({ body: item })) });
    fireEvent.click(await screen.findByTestId('table-create'));
    await screen.findByText('新建业务事项', {}, { timeout: 5000 });
    fireEvent.change(screen.getByTestId('form-code'), { target: { value: 'course.published' } });
    fireEvent.change(screen.getByTestId('form-name'), { target: { value: '课程发布' } });
    fireEvent.mouseDown(
      within(screen.getByTestId('form-module').closest('.ant-select') as HTMLElement).getByRole('combobox'),
    );
    fireEvent.click(await screen.findByTitle('教学管理'));
    fireEvent.click(screen.getByTestId('variables-add'));
    fireEvent.change(await screen.findByTestId('variable-name-0'), { target: { value: 'courseName' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    const field = screen.getByTestId('variables-add').closest('.ant-form-item') as HTMLElement;
    expect(await within(field).findByText('不能为空', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(api.find('POST', '/api/dictionary/busiitem')).toHaveLength(1);
  });
  it('offers a tenant administrator, who holds the codes but not the platform, no change to platform-owned items', async () => {
    mount({}, grant(codes));
    const row = (await screen.findByText('paper.published')).closest('tr') as HTMLElement;
    expect(within(row).queryByTestId('row-edit')).toBeNull();
    expect(within(row).queryByTestId('row-delete')).toBeNull();
    expect(screen.queryByTestId('table-create')).toBeNull();
    expect(screen.getByTestId('table-export')).toBeInTheDocument();
  });
});
