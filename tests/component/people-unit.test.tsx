import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import UnitPage from '@/pages/people/unit';
import type { Unit } from '@/pages/people/unit/descriptor';
import { CreateUnit } from '../../server/src/modules/people/unit/unit.resource';
import { fakeApi, validatedBy } from './fake-api';
import { freshStore, grant, renderApp, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const unit = (id: string, name: string, extra: Partial<Unit> = {}): Unit => ({
  id,
  name,
  creditCode: null,
  unitType: 'hospital',
  hospitalGrade: null,
  hospitalLevel: null,
  ownership: null,
  industryCode: null,
  districtCode: null,
  address: null,
  contactName: '张三',
  contactPhone: null,
  email: null,
  website: null,
  isPartner: false,
  status: 'enabled',
  remark: null,
  aliases: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 3,
  ...extra,
});
const kept = unit('1', '市中心医院', { creditCode: '91350100M000100Y43' });
const duplicate = unit('2', '中心医院');
const codes = ['list', 'create', 'update', 'delete', 'export', 'merge'].map((a) => `people:unit:${a}`);

let store: TestStore;
beforeEach(() => {
  store = freshStore([
    { type: 'common_status', value: 'enabled', label: '启用', labelEn: 'Enabled', color: 'success', sort: 0 },
    { type: 'unit_type', value: 'hospital', label: '医院', labelEn: 'Hospital', color: 'blue', sort: 0 },
  ]);
});
afterEach(() => vi.unstubAllGlobals());

function mount(access: string[], extra: Parameters<typeof fakeApi>[0] = {}) {
  const api = fakeApi({
    'GET /api/people/unit': (call) => ({
      body: {
        data: [kept, duplicate].filter((u) => !call.query.keyword || u.name.includes(call.query.keyword)),
        total: 2,
        success: true,
        current: 1,
        pageSize: 20,
      },
    }),
    ...extra,
  });
  render(renderApp({ store, access: grant(access), children: <UnitPage /> }).tree);
  return api;
}

describe('/units/list', () => {
  it('lists units with their type and credit code; merge is offered only with its permission', async () => {
    mount(codes.filter((c) => !c.endsWith(':merge')));
    const row = (await screen.findByText('市中心医院')).closest('tr') as HTMLElement;
    expect(within(row).getByText('91350100M000100Y43')).toBeInTheDocument();
    expect(within(row).getByText('医院')).toHaveClass('ant-tag');
    expect(within(row).queryByTestId('row-merge')).toBeNull();
  });

  it('merges a duplicate found by name into the unit kept, sending its version', async () => {
    const api = mount(codes, {
      'POST /api/people/unit/1/merge': () => ({ body: { ...kept, version: 4, aliases: '中心医院' } }),
    });
    const row = (await screen.findByText('市中心医院')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-merge'));
    await screen.findByText('把重复单位合并到「市中心医院」', {}, { timeout: 15_000 });
    const picker = within(screen.getByTestId('merge-sources')).getByRole('combobox');
    fireEvent.change(picker, { target: { value: '中心' } });
    // the unit kept is not offered as its own duplicate
    const option = await screen.findByTitle('中心医院');
    expect(screen.queryByTitle('市中心医院 (91350100M000100Y43)')).toBeNull();
    fireEvent.click(option);
    fireEvent.click(screen.getByTestId('merge-submit'));
    await waitFor(() => expect(api.find('POST', '/api/people/unit/1/merge')).toHaveLength(1));
    expect(api.find('POST', '/api/people/unit/1/merge')[0].body).toEqual({ sourceIds: ['2'], version: 3 });
  });

  it("shows the server's refusal of a credit code on its field", async () => {
    const api = mount(codes, {
      'POST /api/people/unit': validatedBy(CreateUnit, () => ({ status: 201, body: kept })),
    });
    await screen.findByText('市中心医院');
    fireEvent.click(screen.getByTestId('table-create'));
    await screen.findByTestId('form-name', {}, { timeout: 15_000 });
    fireEvent.change(screen.getByTestId('form-name'), { target: { value: '新单位' } });
    fireEvent.change(screen.getByTestId('form-creditCode'), { target: { value: '91350100M000100Y44' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await screen.findByText('请填写有效的 18 位统一社会信用代码（校验位不符）');
    expect(api.find('POST', '/api/people/unit')).toHaveLength(1);
  });
});
