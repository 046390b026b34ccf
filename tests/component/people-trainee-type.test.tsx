import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import TraineeFieldPage from '@/pages/people/trainee-field';
import type { TraineeField } from '@/pages/people/trainee-field/descriptor';
import type { TraineeType } from '@/pages/people/trainee-type/descriptor';
import TraineeTypeDetail from '@/pages/people/trainee-type/detail';
import { fakeApi } from './fake-api';
import { freshStore, grant, renderApp, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const type: TraineeType = {
  id: '7',
  code: 'residency',
  name: '住院医师',
  category: 'residency',
  defaultTrainingYears: 3,
  requiresRegistrationAudit: false,
  auditLevels: [],
  traineeNoPattern: 'R{yyyy}{seq:5}',
  color: null,
  sort: 0,
  status: 'enabled',
  remark: null,
  fieldCount: 2,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 0,
};
const field = (id: string, key: string, label: string, extra: Partial<TraineeField> = {}): TraineeField => ({
  id,
  traineeTypeId: '7',
  key,
  label,
  labelEn: null,
  groupName: null,
  fieldType: 'text',
  dictTypeCode: null,
  options: null,
  required: false,
  uniqueScope: 'none',
  locked: false,
  visibility: 'self_and_admin',
  showInList: false,
  filterable: false,
  exportable: true,
  importable: true,
  defaultValue: null,
  placeholder: null,
  helpText: null,
  validation: null,
  sort: Number(id),
  status: 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 0,
  ...extra,
});
const school = field('1', 'school', '毕业院校', { groupName: '教育背景', required: true });
const degree = field('2', 'degree', '学位', {
  groupName: '教育背景',
  fieldType: 'radio',
  options: [
    { value: 'bachelor', label: '学士' },
    { value: 'master', label: '硕士' },
  ],
  defaultValue: 'master',
});
const retired = field('3', 'old_code', '旧编号', { status: 'archived' });
const genders = field('4', 'genders', '服务对象', {
  fieldType: 'dict_multi',
  dictTypeCode: 'gender',
  defaultValue: ['male', 'female'],
});
const codes = [
  'people:trainee-type:list',
  'people:trainee-field:list',
  'people:trainee-field:create',
  'people:trainee-field:update',
  'people:trainee-field:archive',
  'people:trainee-field:reorder',
];
const page = (data: unknown[]) => ({ body: { data, total: data.length, success: true, current: 1, pageSize: 20 } });

let store: TestStore;
beforeEach(() => {
  store = freshStore([
    { type: 'common_status', value: 'enabled', label: '启用', labelEn: 'Enabled', color: 'success', sort: 0 },
    { type: 'yes_no', value: 'true', label: '是', labelEn: 'Yes', color: 'success', sort: 0 },
    { type: 'gender', value: 'male', label: '男', labelEn: 'Male', color: 'blue', sort: 0 },
    { type: 'gender', value: 'female', label: '女', labelEn: 'Female', color: 'magenta', sort: 1 },
  ]);
});
afterEach(() => vi.unstubAllGlobals());

describe('/user/trainee-type/:id/detail', () => {
  it("lists the type's fields and previews its form: sections, required marks, options and defaults, archived fields left out", async () => {
    const api = fakeApi({
      'GET /api/people/trainee-type/7': () => ({ body: type }),
      'GET /api/people/trainee-field': () => page([school, degree, retired, genders]),
      'GET /api/system/audit-log': () => page([]),
    });
    const routes = [{ path: '/user/trainee-type/:id/detail', element: <TraineeTypeDetail /> }];
    render(renderApp({ store, access: grant(codes), routes, initialPath: '/user/trainee-type/7/detail' }).tree);
    const preview = await screen.findByTestId('trainee-type-preview');
    await within(preview).findByText('教育背景');
    expect(within(preview).getByTitle('毕业院校')).toHaveClass('ant-form-item-required');
    expect(within(preview).getByLabelText('硕士')).toBeChecked();
    expect(within(preview).queryByText('旧编号')).toBeNull();
    // several items of a dictionary: a multiple select holding the default items
    const several = within(preview).getByTitle('服务对象').closest('.ant-form-item') as HTMLElement;
    expect(several.querySelector('.ant-select-multiple')).not.toBeNull();
    expect(within(several).getByTitle('男')).toBeInTheDocument();
    expect(within(several).getByTitle('女')).toBeInTheDocument();
    // the fields of this type only
    await waitFor(() =>
      expect(api.find('GET', '/api/people/trainee-field').every((c) => c.query.traineeTypeId === '7')).toBe(true),
    );
    expect(within(screen.getByTestId('trainee-type-fields')).getByText('旧编号')).toBeInTheDocument();
    expect(screen.getByTestId('trainee-type-order')).toBeInTheDocument();
  });
});

describe('/user/trainee-type-field', () => {
  it('archives a field after saying what it does, sending its version; an archived one is restored', async () => {
    const api = fakeApi({
      'GET /api/people/trainee-field': () => page([school, retired]),
      'POST /api/people/trainee-field/1/archive': () => ({ body: { ...school, status: 'archived', version: 1 } }),
      'POST /api/people/trainee-field/3/restore': () => ({ body: { ...retired, status: 'active', version: 1 } }),
    });
    render(renderApp({ store, access: grant(codes), children: <TraineeFieldPage /> }).tree);
    const row = (await screen.findByText('毕业院校')).closest('tr') as HTMLElement;
    expect(within(row).queryByTestId('row-delete')).toBeNull();
    fireEvent.click(within(row).getByTestId('row-archive'));
    await screen.findByText(/归档字段「毕业院校」/);
    expect(api.find('POST', '/api/people/trainee-field/1/archive')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(api.find('POST', '/api/people/trainee-field/1/archive')).toHaveLength(1));
    expect(api.find('POST', '/api/people/trainee-field/1/archive')[0].body).toEqual({ version: 0 });
    const archived = (await screen.findByText('旧编号')).closest('tr') as HTMLElement;
    fireEvent.click(within(archived).getByTestId('row-restore'));
    await waitFor(() => expect(api.find('POST', '/api/people/trainee-field/3/restore')).toHaveLength(1));
  });

  it("names a new field's option rows as options, and picks its dictionary from the tenant's", async () => {
    fakeApi({
      'GET /api/people/trainee-field': () => page([school]),
      'GET /api/people/trainee-type': () => page([type]),
    });
    render(renderApp({ store, access: grant(codes), children: <TraineeFieldPage /> }).tree);
    fireEvent.click(await screen.findByTestId('table-create'));
    fireEvent.click(await screen.findByTestId('options-add'));
    expect(await screen.findByTestId('option-value-0')).toHaveAttribute('placeholder', '选项值');
    expect(screen.getByTestId('option-label-0')).toHaveAttribute('placeholder', '显示名称');
    expect(screen.queryByPlaceholderText('字段键')).toBeNull();
    const item = screen.getByTitle('字典').closest('.ant-form-item') as HTMLElement;
    expect(item.querySelector('input[type="text"]:not(.ant-select-selection-search-input)')).toBeNull();
    fireEvent.mouseDown(item.querySelector('.ant-select-selector') as HTMLElement);
    expect(await screen.findByText('gender（男 / 女）')).toBeInTheDocument();
    expect(screen.getByText('yes_no（是）')).toBeInTheDocument();
  });
});
