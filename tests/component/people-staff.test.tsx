import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import StaffPage from '@/pages/people/staff';
import type { Staff } from '@/pages/people/staff/descriptor';
import StaffProfile from '@/pages/people/staff/profile';
import { CreateStaff } from '../../server/src/modules/people/staff/staff.resource';
import { fakeApi, validatedBy } from './fake-api';
import { freshStore, renderApp, seededSysCodes, type TestStore } from './harness';
import { personRow } from './people-fixtures';

vi.setConfig({ testTimeout: 60_000 });

const wang: Staff = {
  id: '5',
  ...personRow('王五', { mobile: '13800000011' }),
  staffNo: 'S001',
  orgId: '3',
  orgName: '心内科',
  position: 'teaching_secretary',
  professionalTitle: 'attending',
  employmentType: 'full_time',
  hireDate: '2020-09-01',
  leaveDate: null,
  isTeacher: true,
  teacherLevel: null,
  adminUserId: null,
  adminUserName: null,
  status: 'active',
  remark: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 4,
};
const page = (data: unknown[]) => ({ body: { data, total: data.length, success: true, current: 1, pageSize: 20 } });
const grant = (actions: string[]) => Object.fromEntries(actions.map((a) => [`people:staff:${a}`, true]));

let store: TestStore;
beforeEach(() => {
  store = freshStore(
    seededSysCodes('staff_status', 'post', 'professional_title', 'employment_type', 'gender', 'yes_no'),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('/user/staff', () => {
  it('lists staff with their department and position; a new one needs a department before anything is sent', async () => {
    const api = fakeApi({
      'GET /api/people/staff': () => page([wang]),
      'POST /api/people/staff': validatedBy(CreateStaff, () => ({ status: 201, body: wang })),
    });
    render(renderApp({ store, access: grant(['list', 'create']), children: <StaffPage /> }).tree);
    const row = (await screen.findByText('王五')).closest('tr') as HTMLElement;
    expect(within(row).getByText('心内科')).toBeInTheDocument();
    expect(within(row).getByText('教学秘书')).toHaveClass('ant-tag');
    fireEvent.click(screen.getByTestId('table-create'));
    await screen.findByTestId('form-staffNo', {}, { timeout: 15_000 });
    fireEvent.change(screen.getByTestId('form-name'), { target: { value: '赵六' } });
    fireEvent.change(screen.getByTestId('form-staffNo'), { target: { value: 'S002' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    // the department is required before anything is sent
    await waitFor(() => expect(document.querySelectorAll('.ant-form-item-explain-error').length).toBeGreaterThan(0));
    expect(api.find('POST', '/api/people/staff')).toHaveLength(0);
  });
});

describe('/user/staff/:id/profile', () => {
  const mountProfile = (actions: string[], extra: Parameters<typeof fakeApi>[0] = {}) => {
    const api = fakeApi({
      'GET /api/people/staff/5': () => ({ body: wang }),
      'GET /api/people/staff/5/history': () => ({
        body: [
          {
            id: '1',
            kind: 'transfer',
            fromOrgName: '普外科',
            toOrgName: '心内科',
            fromState: null,
            toState: null,
            reason: '轮转',
            effectiveDate: '2026-09-01',
            createdAt: '2026-09-01T08:00:00.000Z',
            createdByName: '管理员',
          },
        ],
      }),
      'GET /api/system/audit-log': () => page([]),
      'GET /api/system/role/options': () => ({ body: [{ id: '2', code: 'teacher', name: '带教老师' }] }),
      ...extra,
    });
    render(
      renderApp({
        store,
        access: grant(actions),
        initialPath: '/user/staff/5/profile',
        routes: [{ path: '/user/staff/:id/profile', element: <StaffProfile /> }],
      }).tree,
    );
    return api;
  };

  it('shows the transfer history, and offers only the status moves allowed, sending the version', async () => {
    const api = mountProfile(['list', 'change-status'], {
      'POST /api/people/staff/5/status': () => ({ body: { ...wang, status: 'on_leave', version: 5 } }),
    });
    const history = await screen.findByTestId('staff-history');
    await within(history).findByText('调动：普外科 → 心内科');
    expect(screen.queryByTestId('staff-action-transfer')).toBeNull();
    expect(screen.queryByTestId('staff-action-account')).toBeNull();
    fireEvent.click(screen.getByTestId('staff-action-status'));
    fireEvent.mouseDown(within(await screen.findByRole('dialog')).getByRole('combobox'));
    const option = await screen.findByText('休假', { selector: '.ant-select-item-option-content' });
    const options = document.querySelectorAll('.ant-select-item-option-content');
    expect([...options].map((o) => o.textContent)).toEqual(['休假', '离职']);
    fireEvent.click(option);
    fireEvent.change(screen.getByTestId('staff-reason'), { target: { value: '产假' } });
    fireEvent.click(screen.getByTestId('staff-action-submit'));
    await waitFor(() => expect(api.find('POST', '/api/people/staff/5/status')).toHaveLength(1));
    expect(api.find('POST', '/api/people/staff/5/status')[0].body).toMatchObject({
      to: 'on_leave',
      reason: '产假',
      version: 4,
    });
  });

  it('creates a console account and shows its temporary password once', async () => {
    const api = mountProfile(['list', 'create-account'], {
      'POST /api/people/staff/5/account': () => ({
        body: {
          staff: { ...wang, adminUserId: '8', adminUserName: 'wangwu', version: 5 },
          temporaryPassword: 'Tmp-8x9K2mQ',
        },
      }),
    });
    fireEvent.click(await screen.findByTestId('staff-action-account'));
    await screen.findByTestId('staff-account-username', {}, { timeout: 15_000 });
    fireEvent.change(screen.getByTestId('staff-account-username'), { target: { value: 'wangwu' } });
    fireEvent.mouseDown(within(screen.getByTestId('staff-account-roles')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('带教老师', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(screen.getByTestId('staff-action-submit'));
    await screen.findByText('Tmp-8x9K2mQ');
    expect(api.find('POST', '/api/people/staff/5/account')[0].body).toEqual({
      userName: 'wangwu',
      roleIds: ['2'],
      version: 4,
    });
  });
});
