import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import DistrictPage from '@/pages/system/district';
import type { District } from '@/pages/system/district/descriptor';
import { fakeApi } from './fake-api';
import { freshStore, grant, renderApp, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const district = (
  code: string,
  name: string,
  level: District['level'],
  parentCode: string | null,
  path: string,
  hasChildren: boolean,
) => ({
  id: code,
  code,
  name,
  shortName: null,
  level,
  parentCode,
  path,
  pinyin: null,
  sort: 0,
  status: 'enabled' as const,
  replacedByCode: null,
  remark: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 0,
  hasChildren,
});
const provinces = [
  district('330000', '浙江省', 'province', null, '/330000/', true),
  district('110000', '北京市', 'province', null, '/110000/', true),
];
const cities = [
  district('330100', '杭州市', 'city', '330000', '/330000/330100/', true),
  district('330200', '宁波市', 'city', '330000', '/330000/330200/', false),
];
const counties = [district('330106', '西湖区', 'county', '330100', '/330000/330100/330106/', false)];
const codes = ['list', 'create', 'update', 'delete', 'export', 'import'].map((a) => `system:district:${a}`);

let store: TestStore;
beforeEach(() => {
  store = freshStore([
    { type: 'common_status', value: 'enabled', label: '启用', labelEn: 'Enabled', color: 'success', sort: 0 },
  ]);
});
afterEach(() => vi.unstubAllGlobals());

function mount(extra: Parameters<typeof fakeApi>[0] = {}) {
  const api = fakeApi({
    'GET /api/system/district/tree': (call) => ({
      body: { '': provinces, '330000': cities, '330100': counties }[call.query.parentCode ?? ''] ?? [],
    }),
    ...extra,
  });
  render(renderApp({ store, access: grant(codes), children: <DistrictPage /> }).tree);
  return api;
}

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

describe('/system/district', () => {
  it('shows the provinces and requests a node’s children when it is expanded', async () => {
    const api = mount();
    await screen.findByText('浙江省');
    expect(api.find('GET', '/api/system/district/tree')[0].query).toEqual({});
    expect(screen.queryByText('杭州市')).toBeNull();
    fireEvent.click(rowOf('浙江省').querySelector('.ant-table-row-expand-icon') as HTMLElement);
    await screen.findByText('杭州市');
    expect(api.find('GET', '/api/system/district/tree').map((c) => c.query.parentCode)).toContain('330000');
    expect(screen.getByText('宁波市')).toBeInTheDocument();
    // a leaf has nothing to expand
    expect(rowOf('宁波市').querySelector('.ant-table-row-expand-icon-spaced')).not.toBeNull();
  });

  it('a keyword search lists matches flat with their full path', async () => {
    const api = mount({
      'GET /api/system/district': () => ({
        body: { data: [counties[0]], total: 1, success: true, current: 1, pageSize: 10 },
      }),
    });
    await screen.findByText('浙江省');
    fireEvent.change(screen.getByLabelText('关键词'), { target: { value: '西湖' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(screen.getByTestId('resource-tree-table')).toHaveAttribute('data-mode', 'flat'));
    expect(api.find('GET', '/api/system/district')[0].query).toMatchObject({
      keyword: '西湖',
      current: '1',
      pageSize: '10',
    });
    expect(await screen.findByTestId('district-path')).toHaveTextContent('浙江省 / 杭州市 / 西湖区');
  });

  it('creates a child under a node with the parent filled in', async () => {
    const api = mount({
      'POST /api/system/district': (call) => ({
        status: 201,
        body: { ...counties[0], id: '330110', ...(call.body as object) },
      }),
    });
    await screen.findByText('浙江省');
    fireEvent.click(within(rowOf('浙江省')).getByTestId('row-add-child'));
    // the form loads the first time it opens
    await screen.findByText('新建行政区划', {}, { timeout: 10_000 });
    expect(screen.getByTestId('form-parentCode')).toHaveValue('330000');
    fireEvent.change(screen.getByTestId('form-code'), { target: { value: '330300' } });
    fireEvent.change(screen.getByTestId('form-name'), { target: { value: '温州市' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('POST', '/api/system/district')).toHaveLength(1));
    expect(api.find('POST', '/api/system/district')[0].body).toEqual({
      code: '330300',
      parentCode: '330000',
      name: '温州市',
      sort: 0,
      status: 'enabled',
    });
    await waitFor(() =>
      expect(api.find('GET', '/api/system/district/tree').some((c) => c.query.parentCode === '330000')).toBe(true),
    );
  });

  it('previews an import (the server’s dry run) listing what is added, renamed and retired before applying', async () => {
    const report = {
      dryRun: true,
      created: 1,
      updated: 2,
      failed: [],
      added: [{ code: '330300', name: '温州市', level: 'city', parentCode: '330000' }],
      renamed: [{ code: '330200', from: '宁波市', to: '甬城市' }],
      retired: [{ code: '330400', name: '嘉兴市', replacedByCode: null }],
      counts: { added: 1, renamed: 1, retired: 1, updated: 0, unchanged: 40 },
    };
    const api = mount({
      'POST /api/system/district/import': (call) => ({
        body: { ...report, dryRun: (call.body as FormData).get('dryRun') === 'true' },
      }),
    });
    await screen.findByText('浙江省');
    fireEvent.click(screen.getByTestId('table-import'));
    const dialog = await screen.findByTestId('import-modal');
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'districts.xlsx')] } });
    fireEvent.click(screen.getByTestId('import-retire-missing'));
    await waitFor(() => expect(screen.getByTestId('import-check')).toBeEnabled());
    fireEvent.click(screen.getByTestId('import-check'));
    await waitFor(() => expect(api.find('POST', '/api/system/district/import')).toHaveLength(1));
    const sent = api.find('POST', '/api/system/district/import')[0].body as FormData;
    expect(sent.get('dryRun')).toBe('true');
    expect(sent.get('retireMissing')).toBe('true');
    expect(await screen.findByTestId('import-summary')).toHaveTextContent('新增 1，更名 1，撤销 1');
    expect(within(screen.getByTestId('import-added')).getByText('温州市')).toBeInTheDocument();
    fireEvent.click(screen.getByText('更名 (1)'));
    expect(await screen.findByText('甬城市')).toBeInTheDocument();
    fireEvent.click(screen.getByText('撤销 (1)'));
    expect(await screen.findByText('嘉兴市')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('import-commit'));
    await waitFor(() => expect(api.find('POST', '/api/system/district/import')).toHaveLength(2));
    expect((api.find('POST', '/api/system/district/import')[1].body as FormData).get('dryRun')).toBe('false');
    await waitFor(() => expect(screen.getByTestId('import-summary')).toHaveAttribute('data-phase', 'done'));
  });
});
