import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import TraineePage from '@/pages/people/trainee';
import type { Trainee } from '@/pages/people/trainee/descriptor';
import TraineeProfile from '@/pages/people/trainee/profile';
import TraineesOf from '@/pages/people/trainee/TraineesOf';
import { fakeApi } from './fake-api';
import { freshStore, renderApp, seededSysCodes, type TestStore } from './harness';
import { personRow } from './people-fixtures';

vi.setConfig({ testTimeout: 60_000 });

const type = { id: '7', code: 'residency', name: '住院医师', status: 'enabled', version: 0 };
const school = {
  id: '31',
  traineeTypeId: '7',
  key: 'school',
  label: '毕业学校',
  labelEn: null,
  groupName: null,
  fieldType: 'text',
  dictTypeCode: null,
  options: null,
  required: true,
  uniqueScope: 'none',
  locked: false,
  visibility: 'self_and_admin',
  showInList: true,
  filterable: true,
  exportable: true,
  importable: true,
  defaultValue: null,
  placeholder: null,
  helpText: null,
  validation: null,
  sort: 0,
  status: 'active',
  version: 0,
};
const trainee: Trainee = {
  id: '5',
  ...personRow('欧阳明轩'),
  traineeNo: 'R20260001',
  traineeTypeId: '7',
  trainingBaseId: '2',
  specialtyBaseId: null,
  specialtyCode: null,
  cohortYear: 2026,
  trainingStart: null,
  plannedEnd: null,
  actualEnd: null,
  workUnitId: null,
  tutorDoctorId: null,
  recruitType: null,
  graduateSchool: null,
  graduateMajor: null,
  graduationDate: null,
  status: 'in_training',
  registrationStatus: 'approved',
  auditLevel: 0,
  customFields: { school: '北京协和医学院' },
  remark: null,
  nextStatuses: ['suspended', 'graduated'],
  traineeTypeName: '住院医师',
  trainingBaseName: '住培基地',
  specialtyBaseName: null,
  workUnitName: null,
  tutorName: null,
  createdAt: '2026-09-01T00:00:00.000Z',
  updatedAt: null,
  version: 2,
};
const page = (data: unknown[]) => ({ body: { data, total: data.length, success: true, current: 1, pageSize: 20 } });
const grant = (codes: string[]) => Object.fromEntries(codes.map((c) => [`trainee:trainee:${c}`, true]));

let store: TestStore;
beforeEach(() => {
  store = freshStore(
    seededSysCodes('trainee_status', 'registration_status', 'base_change_status', 'gender', 'id_type'),
  );
});
afterEach(() => vi.unstubAllGlobals());

const common = {
  'GET /api/people/trainee-type': () => page([type]),
  'GET /api/people/trainee-field': () => page([school]),
  'GET /api/people/trainee': () => page([trainee]),
  'GET /api/people/organization': () => page([{ id: '2', name: '住培基地', code: 'B1' }]),
};

describe('/trainee/list', () => {
  it("shows a chosen type's custom fields as columns, and asks for that type's trainees", async () => {
    const api = fakeApi(common);
    render(renderApp({ store, access: grant(['list']), children: <TraineePage /> }).tree);
    fireEvent.click(await screen.findByText('住院医师', { selector: '.ant-segmented-item-label' }));
    const row = (await screen.findByText('北京协和医学院')).closest('tr') as HTMLElement;
    expect(within(row).getByText('欧阳明轩')).toBeInTheDocument();
    expect(within(row).getByText('1101**********002X')).toBeInTheDocument();
    expect(screen.getAllByText('毕业学校').length).toBeGreaterThan(0);
    await waitFor(() =>
      expect(api.find('GET', '/api/people/trainee').some((c) => c.query.traineeTypeId === '7')).toBe(true),
    );
  });

  it("creates a trainee with the type's fields, showing the server's refusal on the custom field", async () => {
    let attempts = 0;
    const api = fakeApi({
      ...common,
      'POST /api/people/trainee': () => {
        attempts += 1;
        return attempts === 1
          ? {
              status: 400,
              body: {
                family: 'CLIENT_ERROR',
                code: 'common.validation',
                message: '请求参数不正确',
                fields: [{ field: 'customFields.school', message: '已被其他学员使用' }],
              },
            }
          : { status: 201, body: trainee };
      },
    });
    render(renderApp({ store, access: grant(['list', 'create']), children: <TraineePage /> }).tree);
    fireEvent.click(await screen.findByText('住院医师', { selector: '.ant-segmented-item-label' }));
    fireEvent.click(await screen.findByTestId('table-create'));
    fireEvent.change(await screen.findByTestId('form-name'), { target: { value: '欧阳明轩' } });
    const field = await within(await screen.findByTestId('trainee-custom-fields')).findByTestId('custom-school');
    fireEvent.change(field, { target: { value: '北京协和医学院' } });
    fireEvent.mouseDown(
      within(screen.getByTestId('form-trainingBaseId').closest('.ant-select') as HTMLElement).getByRole('combobox'),
    );
    fireEvent.click(await screen.findByText('住培基地', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await screen.findByText('已被其他学员使用');
    expect(api.find('POST', '/api/people/trainee')[0]?.body).toMatchObject({
      name: '欧阳明轩',
      traineeTypeId: '7',
      trainingBaseId: '2',
      customFields: { school: '北京协和医学院' },
    });
  });
});

describe('the trainees of an organisation or a unit', () => {
  it('lists them by cohort, each opening its profile, for whoever may list trainees', async () => {
    const api = fakeApi(common);
    render(renderApp({ store, access: grant(['list']), children: <TraineesOf filter={{ workUnitId: '4' }} /> }).tree);
    const link = await screen.findByRole('link', { name: '欧阳明轩' });
    expect(link).toHaveAttribute('href', '/trainee/5/profile');
    expect(api.find('GET', '/api/people/trainee')[0]?.query).toMatchObject({
      workUnitId: '4',
      sort: '-cohortYear,traineeNo',
    });
  });

  it('is not shown without the trainee list permission', async () => {
    const api = fakeApi(common);
    render(renderApp({ store, access: {}, children: <TraineesOf filter={{ workUnitId: '4' }} /> }).tree);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('trainees-of')).toBeNull();
    expect(api.find('GET', '/api/people/trainee')).toHaveLength(0);
  });
});

describe('/trainee/:id/profile', () => {
  const mountProfile = (codes: string[], extra: Parameters<typeof fakeApi>[0] = {}) => {
    const api = fakeApi({
      ...common,
      'GET /api/people/trainee/5': () => ({ body: trainee }),
      'GET /api/people/trainee/5/history': () => ({
        body: [
          {
            id: '1',
            kind: 'status',
            fromState: 'applied',
            toState: 'in_training',
            auditLevel: null,
            reason: '报到',
            effectiveDate: '2026-09-01',
            createdAt: '2026-09-01T08:00:00.000Z',
            createdBy: '1',
            createdByName: '管理员',
          },
        ],
      }),
      'GET /api/people/trainee/5/base-changes': () => ({ body: [] }),
      'GET /api/system/audit-log': () => page([]),
      ...extra,
    });
    render(
      renderApp({
        store,
        access: grant(codes),
        initialPath: '/trainee/5/profile',
        routes: [{ path: '/trainee/:id/profile', element: <TraineeProfile /> }],
      }).tree,
    );
    return api;
  };

  it('shows the custom values and the history; the ID number only on request, to whoever may see it', async () => {
    const api = mountProfile(['list', 'pii-view'], {
      'POST /api/people/trainee/5/reveal-id': () => ({ body: { idNo: '11010519491231002X' } }),
    });
    const lifecycle = await screen.findByTestId('trainee-lifecycle');
    await within(lifecycle).findByText('报到');
    await within(await screen.findByTestId('trainee-custom-values')).findByText('北京协和医学院');
    // the cohort a year as written, the history's time as the console writes times
    expect(screen.getByText('2026')).toBeInTheDocument();
    expect(screen.queryByText('2,026')).toBeNull();
    expect(lifecycle).toHaveTextContent(`管理员 · ${dayjs('2026-09-01T08:00:00.000Z').format('YYYY-MM-DD HH:mm:ss')}`);
    expect(screen.getByTestId('trainee-id-no')).toHaveTextContent('1101**********002X');
    fireEvent.click(screen.getByTestId('trainee-id-no-reveal'));
    await waitFor(() => expect(screen.getByTestId('trainee-id-no')).toHaveTextContent('11010519491231002X'));
    expect(api.find('POST', '/api/people/trainee/5/reveal-id')).toHaveLength(1);
  });

  it("shows the ID number once, among the details, and the edit as a button in the profile's header", async () => {
    mountProfile(['list', 'update', 'pii-view']);
    const header = await screen.findByTestId('profile-actions');
    expect(within(header).getByTestId('trainee-edit').tagName).toBe('BUTTON');
    await screen.findByTestId('trainee-id-no');
    expect(screen.getAllByText('1101**********002X')).toHaveLength(1);
    expect(screen.getAllByText('证件号码')).toHaveLength(1);
  });

  it('asks to change the base of a trainee in training, and decides the change awaiting a decision', async () => {
    const asked = {
      id: '3',
      fromTrainingBaseName: '住培基地',
      fromSpecialtyBaseName: null,
      toTrainingBaseId: '2',
      toTrainingBaseName: '二院基地',
      toSpecialtyBaseName: null,
      reason: '随导师调动',
      effectiveDate: '2026-12-01',
      status: 'pending',
      decisionComment: null,
      decidedByName: null,
      decidedAt: null,
      createdByName: '管理员',
      createdAt: '2026-11-20T08:00:00.000Z',
    };
    let changes: unknown[] = [];
    const api = mountProfile(['list', 'change-base'], {
      'GET /api/people/trainee/5/base-changes': () => ({ body: changes }),
      'POST /api/people/trainee/5/request-base-change': () => {
        changes = [asked];
        return { body: trainee };
      },
      'POST /api/people/trainee/5/decide-base-change': () => ({ body: trainee }),
    });
    fireEvent.click(await screen.findByTestId('base-change-request'));
    fireEvent.mouseDown(within(await screen.findByTestId('base-change-to')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('住培基地', { selector: '.ant-select-item-option-content' }));
    fireEvent.change(screen.getByTestId('base-change-reason'), { target: { value: '随导师调动' } });
    fireEvent.click(screen.getByTestId('base-change-request-submit'));
    await waitFor(() => expect(api.find('POST', '/api/people/trainee/5/request-base-change')).toHaveLength(1));
    expect(api.find('POST', '/api/people/trainee/5/request-base-change')[0].body).toMatchObject({
      toTrainingBaseId: '2',
      reason: '随导师调动',
      version: 2,
    });
    const card = screen.getByTestId('trainee-base-changes');
    await within(card).findByText('住培基地 → 二院基地');
    expect(within(card).queryByTestId('base-change-request')).toBeNull();
    fireEvent.click(within(card).getByTestId('base-change-decide'));
    fireEvent.click(await screen.findByTestId('base-change-decide-submit'));
    await waitFor(() => expect(api.find('POST', '/api/people/trainee/5/decide-base-change')).toHaveLength(1));
    expect(api.find('POST', '/api/people/trainee/5/decide-base-change')[0].body).toEqual({
      decision: 'approve',
      version: 2,
    });
  });

  it('offers no reveal without its permission, and only the moves the status allows', async () => {
    mountProfile(['list', 'change-status']);
    await screen.findByTestId('trainee-id-no');
    expect(screen.queryByTestId('trainee-id-no-reveal')).toBeNull();
    fireEvent.click(screen.getByTestId('trainee-transition'));
    fireEvent.mouseDown(within(await screen.findByRole('dialog')).getByRole('combobox'));
    await screen.findByText('暂停', { selector: '.ant-select-item-option-content' });
    const options = document.querySelectorAll('.ant-select-item-option-content');
    expect([...options].map((o) => o.textContent)).toEqual(['暂停', '结业']);
  });
});
