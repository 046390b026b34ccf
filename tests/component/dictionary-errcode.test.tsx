import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ErrorCodePage, { type ErrorCode } from '@/pages/dictionary/errcode';
import { fakeApi } from './fake-api';
import { freshStore, grant, renderApp, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const builtIn: ErrorCode = {
  id: '5',
  code: 1_001_004,
  key: 'common.notFound',
  module: 'common',
  httpStatus: 404,
  messageZh: '请求的资源不存在',
  messageEn: 'The requested resource does not exist',
  showType: 2,
  source: 'built_in',
  messageCustomized: false,
  status: 'enabled',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 1,
};
const codes = ['list', 'create', 'update', 'delete', 'export'].map((a) => `dictionary:errcode:${a}`);

let store: TestStore;
beforeEach(() => {
  store = freshStore([
    { type: 'common_status', value: 'enabled', label: '启用', labelEn: 'Enabled', color: 'success', sort: 0 },
  ]);
});
afterEach(() => vi.unstubAllGlobals());

function mount(extra: Parameters<typeof fakeApi>[0] = {}) {
  const api = fakeApi({
    'GET /api/dictionary/errcode': () => ({
      body: { data: [builtIn], total: 1, success: true, current: 1, pageSize: 10 },
    }),
    ...extra,
  });
  render(renderApp({ store, access: grant(codes), children: <ErrorCodePage /> }).tree);
  return api;
}

describe('/dictionary/errcode', () => {
  it('lists codes with show type and source; a built-in code cannot be deleted; searches by module', async () => {
    const api = mount();
    const row = (await screen.findByText('common.notFound')).closest('tr') as HTMLElement;
    expect(within(row).getByText('错误')).toHaveClass('ant-tag');
    expect(within(row).getByText('系统内置')).toHaveClass('ant-tag');
    expect(within(row).getByTestId('row-edit')).toBeInTheDocument();
    expect(within(row).queryByTestId('row-delete')).toBeNull();
    expect(screen.getByTestId('table-export')).toBeInTheDocument();
    fireEvent.change(within(await screen.findByTestId('table-search')).getByLabelText('模块'), {
      target: { value: 'common' },
    });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(api.find('GET', '/api/dictionary/errcode').some((c) => c.query.module === 'common')).toBe(true),
    );
  });

  it('edits a built-in message (module and status fixed) and refreshes errCodes (SET_ERRCODE)', async () => {
    const fresh = [{ code: 'common.notFound', httpStatus: 404, messageZh: '找不到了', messageEn: 'Gone' }];
    const api = mount({
      'PUT /api/dictionary/errcode/5': (call) => ({ body: { ...builtIn, ...(call.body as object), version: 2 } }),
      'GET /api/dictionary/catalog/errcodes': () => ({ body: fresh }),
    });
    const row = (await screen.findByText('common.notFound')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-edit'));
    // the form is a lazily loaded dialog: on a busy machine it takes a while to come in jsdom
    await screen.findByText('编辑错误码：common.notFound', {}, { timeout: 15_000 });
    expect(screen.getByTestId('form-module')).toBeDisabled();
    fireEvent.change(screen.getByTestId('form-messageZh'), { target: { value: '找不到了' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/dictionary/errcode/5')).toHaveLength(1));
    expect(api.find('PUT', '/api/dictionary/errcode/5')[0].body).toEqual({
      module: 'common',
      httpStatus: 404,
      messageZh: '找不到了',
      messageEn: 'The requested resource does not exist',
      showType: 2,
      status: 'enabled',
      version: 1,
    });
    await waitFor(() => expect(store.getState().root.errCodes).toEqual(fresh));
  });
});
