import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import IndustryPage from '@/pages/dictionary/industry';
import { fakeApi } from './fake-api';
import { freshStore, grant, renderApp, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const node = (code: string, name: string, level: number, parentCode: string | null, hasChildren: boolean) => ({
  id: code,
  code,
  name,
  nameEn: null,
  parentCode,
  level,
  standardVersion: 'GB/T 4754-2017',
  wechatIndustryId: null,
  sort: 0,
  status: 'enabled',
  remark: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 0,
  hasChildren,
});
const sections = [node('Q', '卫生和社会工作', 1, null, true), node('P', '教育', 1, null, false)];
const divisions = [node('84', '卫生', 2, 'Q', false)];
const codes = ['list', 'create', 'update', 'delete', 'export', 'import'].map((a) => `dictionary:industry:${a}`);

let store: TestStore;
beforeEach(() => {
  store = freshStore([
    { type: 'common_status', value: 'enabled', label: '启用', labelEn: 'Enabled', color: 'success', sort: 0 },
  ]);
});
afterEach(() => vi.unstubAllGlobals());

describe('/dictionary/industry', () => {
  it('shows the sections as a tree, loads a section’s divisions on expand, and creates a child under one', async () => {
    const api = fakeApi({
      'GET /api/dictionary/industry/tree': (call) => ({ body: call.query.parentCode === 'Q' ? divisions : sections }),
      'POST /api/dictionary/industry': (call) => ({
        status: 201,
        body: { ...divisions[0], id: '85', ...(call.body as object) },
      }),
    });
    render(renderApp({ store, access: grant(codes), children: <IndustryPage /> }).tree);
    const row = (await screen.findByText('卫生和社会工作')).closest('tr') as HTMLElement;
    expect(within(row).getByText('门类')).toHaveClass('ant-tag');
    expect(screen.getByTestId('table-export')).toBeInTheDocument();
    fireEvent.click(row.querySelector('.ant-table-row-expand-icon') as HTMLElement);
    await screen.findByText('卫生');
    expect(api.find('GET', '/api/dictionary/industry/tree').map((c) => c.query.parentCode)).toContain('Q');

    fireEvent.click(within(row).getByTestId('row-add-child'));
    // the form loads the first time it opens
    await screen.findByText('新建行业', {}, { timeout: 10_000 });
    expect(screen.getByTestId('form-parentCode')).toHaveValue('Q');
    fireEvent.change(screen.getByTestId('form-code'), { target: { value: '85' } });
    fireEvent.change(screen.getByTestId('form-name'), { target: { value: '社会工作' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('POST', '/api/dictionary/industry')).toHaveLength(1));
    expect(api.find('POST', '/api/dictionary/industry')[0].body).toEqual({
      code: '85',
      parentCode: 'Q',
      name: '社会工作',
      standardVersion: 'GB/T 4754-2017',
      sort: 0,
      status: 'enabled',
    });
  });
});
