import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ActivityListPage from '@/pages/teaching/activity';
import type { Activity } from '@/pages/teaching/activity/descriptor';
import ActivityProfile from '@/pages/teaching/activity/profile';
import ActivitySignIn from '@/pages/teaching/sign-in';
import { ActivityFiles } from '../../server/src/modules/teaching/activity/activity.resource';
import { fakeApi, page, validatedBy } from './fake-api';
import { fakeUploads } from './fake-xhr';
import { anActivity, aParticipant, hour } from './fixtures/activity';
import { anAttachment } from './fixtures/file';
import { freshStore, grant, renderApp, renderAt, seededSysCodes, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const codes = ['list', 'create', 'update', 'delete', 'export', 'publish', 'attendance'].map(
  (a) => `teaching:activity:${a}`,
);

let store: TestStore;
beforeEach(() => {
  store = freshStore(seededSysCodes('activity_type', 'yes_no'));
});
afterEach(() => vi.unstubAllGlobals());

/** The list of activities. */
const openList = () => render(renderApp({ store, access: grant(codes), children: <ActivityListPage /> }).tree);
/** The profile of activity 1. */
const openProfile = () =>
  renderAt(
    store,
    '/teach/teaching/1/profile',
    [{ path: '/teach/teaching/:id/profile', element: <ActivityProfile /> }],
    codes,
  );
/** Names the trainee on the sign-in page, by their number and name, and sends it. */
const signInAs = async (traineeNo: string, name: string) => {
  fireEvent.change(await screen.findByTestId('sign-in-traineeNo'), { target: { value: traineeNo } });
  fireEvent.change(screen.getByTestId('sign-in-name'), { target: { value: name } });
  fireEvent.click(screen.getByTestId('sign-in-submit'));
};
/** The sign-in page a trainee opens from the link at `path`. */
const openSignIn = (path: string) =>
  renderAt(store, path, [{ path: '/sign-in/activity', element: <ActivitySignIn /> }]);

describe('/teach/teaching/list', () => {
  it('publishes a draft after a confirmation, and cancels a published one only with a reason', async () => {
    const api = fakeApi({
      'GET /api/teaching/activity': () =>
        page([
          anActivity(),
          anActivity({ id: '2', status: 'published', title: '心电图读图', activityType: 'ward_round' }),
        ]),
      'POST /api/teaching/activity/1/publish': () => ({ body: anActivity({ status: 'published' }) }),
      'POST /api/teaching/activity/2/cancel': (call) => ({
        body: anActivity({ id: '2', status: 'cancelled', cancelReason: (call.body as { reason: string }).reason }),
      }),
    });
    openList();
    const draft = (await screen.findByText('心衰病例讨论')).closest('tr') as HTMLElement;
    expect(within(draft).getByText('病例讨论')).toBeInTheDocument();
    // who it is for, in one line
    expect(within(draft).getByText('住院医师')).toBeInTheDocument();
    fireEvent.click(within(draft).getByTestId('activity-publish'));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(api.find('POST', '/api/teaching/activity/1/publish')).toHaveLength(1));
    expect(api.find('POST', '/api/teaching/activity/1/publish')[0].body).toEqual({ version: 2 });

    const published = screen.getByText('心电图读图').closest('tr') as HTMLElement;
    expect(within(published).queryByTestId('activity-publish')).toBeNull();
    fireEvent.click(within(published).getByTestId('activity-cancel'));
    fireEvent.click(await screen.findByTestId('cancel-submit'));
    expect(await screen.findByText(/请输入取消原因|取消原因.*必填|required/)).toBeInTheDocument();
    expect(api.find('POST', '/api/teaching/activity/2/cancel')).toHaveLength(0);
    fireEvent.change(screen.getByTestId('cancel-reason'), { target: { value: '主讲临时手术' } });
    fireEvent.click(screen.getByTestId('cancel-submit'));
    await waitFor(() => expect(api.find('POST', '/api/teaching/activity/2/cancel')).toHaveLength(1));
    expect(api.find('POST', '/api/teaching/activity/2/cancel')[0].body).toEqual({ reason: '主讲临时手术', version: 2 });
  });
});

describe('co-hosts', () => {
  it('lists them, keeps them in the form, takes another doctor and shows a refusal on the field', async () => {
    const doctor = (id: string, name: string) => ({ id, name, orgName: '心内科' });
    const refusal = {
      family: 'CLIENT_ERROR',
      code: 'common.validation',
      message: 'is not an existing doctor',
      fields: [{ field: 'coHostIds.1', message: '医生不存在' }],
    };
    const api = fakeApi({
      'GET /api/teaching/activity': () =>
        page([anActivity({ coHostIds: ['8'], coHostNames: ['刘医生'], startAt: '2026-12-01T08:00:00.000Z' })]),
      'GET /api/people/doctor': () => page([doctor('7', '王主任'), doctor('9', '张医生')]),
      'GET /api/people/trainee-type': () => page([]),
      'PUT /api/teaching/activity/1': () => ({ status: 400, body: refusal }),
    });
    openList();
    const row = (await screen.findByText('心衰病例讨论')).closest('tr') as HTMLElement;
    expect(within(row).getByText('刘医生')).toBeInTheDocument();

    fireEvent.click(within(row).getByTestId('row-edit'));
    const field = (await screen.findByTestId('form-coHostIds')).closest('.ant-form-item') as HTMLElement;
    // the co-host already named shows by name, though the doctors found do not include them
    await within(field).findByText('刘医生');
    fireEvent.mouseDown(within(field).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('张医生 · 心内科'));
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/teaching/activity/1')).toHaveLength(1));
    expect(api.find('PUT', '/api/teaching/activity/1')[0].body).toMatchObject({ coHostIds: ['8', '9'], version: 2 });
    expect(await within(field).findByText('医生不存在')).toBeInTheDocument();
    // the whole drawer form renders at each step: slow on a busy machine
  }, 180_000);
});

describe('the form', () => {
  it("keeps the sign-in window, shows a refusal of it on the field, and warns of the host's overlaps once saved", async () => {
    const opens = '2026-12-01T07:00:00.000Z';
    const refusal = {
      family: 'CLIENT_ERROR',
      code: 'common.validation',
      message: 'must be after sign-in opens',
      fields: [{ field: 'signInCloseAt', message: '签到截止时间须晚于签到开始时间' }],
    };
    let refuse = true;
    const row = anActivity({
      startAt: '2026-12-01T08:00:00.000Z',
      endAt: '2026-12-01T09:00:00.000Z',
      signInOpenAt: opens,
      signInOpensAt: opens,
    });
    const api = fakeApi({
      'GET /api/teaching/activity': () => page([row]),
      'GET /api/people/doctor': () => page([]),
      'GET /api/people/trainee-type': () => page([]),
      'GET /api/people/organization/tree': (call) => ({
        body: call.query.parentId
          ? []
          : [{ id: '1', code: 'H1', name: '第一医院', orgType: 'hospital', hasChildren: true }],
      }),
      'GET /api/people/organization/5': () => ({ body: { id: '5', name: '心内科', path: '/5/' } }),
      'PUT /api/teaching/activity/1': () =>
        refuse
          ? { status: 400, body: refusal }
          : {
              body: {
                ...row,
                version: 3,
                hostOverlaps: [{ id: '9', title: '教学查房', startAt: row.startAt, endAt: row.endAt }],
              },
            },
    });
    openList();
    const listed = (await screen.findByText('心衰病例讨论')).closest('tr') as HTMLElement;
    fireEvent.click(within(listed).getByTestId('row-edit'));
    // its department is a department: the hospital above shows, not to be chosen
    fireEvent.mouseDown((await screen.findByTestId('form-orgId')).querySelector('input') as HTMLElement);
    const hospital = await screen.findByText('第一医院 (H1)', { selector: '.ant-select-tree-title' });
    expect(hospital.closest('.ant-select-tree-treenode')).toHaveClass('ant-select-tree-treenode-disabled');
    const field = (await screen.findAllByTestId('form-signInWindow'))[0]?.closest('.ant-form-item') as HTMLElement;
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/teaching/activity/1')).toHaveLength(1));
    // the end left empty is its default (the end of the activity): sent as none
    expect(api.find('PUT', '/api/teaching/activity/1')[0].body).toMatchObject({
      signInOpenAt: opens,
      signInCloseAt: null,
    });
    expect(await within(field).findByText('签到截止时间须晚于签到开始时间')).toBeInTheDocument();
    refuse = false;
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/teaching/activity/1')).toHaveLength(2));
    expect(await screen.findByText('注意：主讲人在重叠时间还有活动：教学查房')).toBeInTheDocument();
  }, 180_000);
});

describe('filters', () => {
  it('searches by a department of the tree and a host found by name; the statistics take a department', async () => {
    const api = fakeApi({
      'GET /api/teaching/activity': () => page([anActivity()]),
      'GET /api/people/organization/tree': (call) => ({
        body: call.query.parentId ? [] : [{ id: '5', code: 'D1', name: '心内科', hasChildren: false }],
      }),
      'GET /api/people/doctor': () => page([{ id: '7', name: '王主任', orgName: '心内科' }]),
      'GET /api/teaching/activity/stats': () => ({ body: [] }),
    });
    openList();
    const search = await screen.findByTestId('table-search');
    await screen.findByText('心衰病例讨论');
    fireEvent.mouseDown((await within(search).findByTestId('search-orgId')).querySelector('input') as HTMLElement);
    fireEvent.click(await screen.findByText('心内科 (D1)', { selector: '.ant-select-tree-title' }));
    const more = within(search).queryByText(/展\s*开/);
    if (more) fireEvent.click(more);
    const host = within(search).getByTestId('search-hostDoctorId').closest('.ant-form-item') as HTMLElement;
    fireEvent.focus(within(host).getByRole('combobox'));
    fireEvent.mouseDown(within(host).getByRole('combobox'));
    // the whole label, as a user copies it from a row, searches by the name it begins with
    fireEvent.change(within(host).getByRole('combobox'), { target: { value: '王主任 · 心内科' } });
    await waitFor(() => expect(api.find('GET', '/api/people/doctor').at(-1)?.query.keyword).toBe('王主任'));
    fireEvent.click(await screen.findByTitle('王主任 · 心内科'));
    fireEvent.click(within(search).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(
        api.find('GET', '/api/teaching/activity').some((c) => c.query.orgId === '5' && c.query.hostDoctorId === '7'),
      ).toBe(true),
    );

    fireEvent.click(screen.getByTestId('activity-stats-open'));
    const drawer = await screen.findByTestId('activity-stats');
    await waitFor(() => expect(api.find('GET', '/api/teaching/activity/stats')).toHaveLength(1));
    fireEvent.mouseDown(
      (await within(drawer).findByTestId('activity-stats-org')).querySelector('input') as HTMLElement,
    );
    const options = await screen.findAllByText('心内科 (D1)', { selector: '.ant-select-tree-title' });
    fireEvent.click(options[options.length - 1]);
    await waitFor(() => expect(api.find('GET', '/api/teaching/activity/stats').at(-1)?.query.orgId).toBe('5'));
  }, 120_000);

  it('searches by a specialty base of the tree', async () => {
    const api = fakeApi({
      'GET /api/teaching/activity': () => page([anActivity()]),
      'GET /api/people/organization/tree': (call) => ({
        body: call.query.parentId ? [] : [{ id: '8', code: 'SB1', name: '内科专业基地', hasChildren: false }],
      }),
    });
    openList();
    const search = await screen.findByTestId('table-search');
    await screen.findByText('心衰病例讨论');
    const more = within(search).queryByText(/展\s*开/);
    if (more) fireEvent.click(more);
    fireEvent.mouseDown(
      (await within(search).findByTestId('search-specialtyBaseId')).querySelector('input') as HTMLElement,
    );
    fireEvent.click(await screen.findByText('内科专业基地 (SB1)', { selector: '.ant-select-tree-title' }));
    fireEvent.click(within(search).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(api.find('GET', '/api/teaching/activity').some((c) => c.query.specialtyBaseId === '8')).toBe(true),
    );
  }, 120_000);
});

describe('statistics by host', () => {
  it('switches from departments to hosts, each with what it hosted and co-hosted', async () => {
    const api = fakeApi({
      'GET /api/teaching/activity': () => page([anActivity()]),
      'GET /api/teaching/activity/stats': () => ({ body: [] }),
      'GET /api/teaching/activity/host-stats': () => ({
        body: [
          {
            doctorId: '8',
            doctorName: '刘医生',
            hosted: 1,
            coHosted: 3,
            participants: 8,
            attended: 6,
            attendanceRate: 0.75,
            ratingCount: 2,
            avgRating: 4.5,
          },
        ],
      }),
    });
    openList();
    fireEvent.click(await screen.findByTestId('activity-stats-open'));
    await waitFor(() => expect(api.find('GET', '/api/teaching/activity/stats')).toHaveLength(1));
    fireEvent.click(await screen.findByTestId('activity-stats-by-host'));
    const row = (await screen.findByText('刘医生')).closest('tr') as HTMLElement;
    expect(within(row).getByText('75%')).toBeInTheDocument();
    expect(within(row).getByText('3')).toBeInTheDocument();
    expect(api.find('GET', '/api/teaching/activity/host-stats')[0].query).toHaveProperty('timeZone');
  });
});

describe('/teach/teaching/:id/profile', () => {
  it('shows the sign-in code as a QR code while sign-in is open, and sets a trainee’s attendance with a note', async () => {
    const api = fakeApi({
      'GET /api/teaching/activity/1': () => ({
        body: anActivity({ status: 'published', participantCount: 2, presentCount: 1 }),
      }),
      'GET /api/teaching/activity/1/sign-in-code': () => ({
        body: { code: '1.1.59.abcdefghijklmnopqrstuv', expiresAt: new Date().toISOString(), refreshInSeconds: 20 },
      }),
      'GET /api/teaching/activity/1/rating-code': () => ({
        body: {
          code: '1.1.abcdefghijklmnopqrstuv',
          opensAt: new Date().toISOString(),
          closesAt: new Date().toISOString(),
        },
      }),
      'GET /api/teaching/activity/1/participants': () => ({
        body: [
          aParticipant('R001', '张三', {
            attendance: 'present',
            signedInAt: new Date().toISOString(),
            signInMethod: 'qr',
            rating: 4,
          }),
          aParticipant('R002', '李四'),
        ],
      }),
      'POST /api/teaching/activity/1/attendance': () => ({ body: anActivity({ status: 'published', version: 3 }) }),
      'GET /api/system/audit-log': () => page([]),
    });
    openProfile();
    const link = await screen.findByTestId('activity-sign-in-link');
    expect(link.getAttribute('href')).toBe(
      `${window.location.origin}${window.location.pathname}#/sign-in/activity?code=1.1.59.abcdefghijklmnopqrstuv`,
    );
    expect(within(screen.getByTestId('activity-sign-in')).getByText(/秒后更新/)).toBeInTheDocument();
    // begun a quarter of an hour ago: the rating code shows beside it
    expect((await screen.findByTestId('activity-rating-link')).getAttribute('href')).toBe(
      `${window.location.origin}${window.location.pathname}#/sign-in/activity?rate=1.1.abcdefghijklmnopqrstuv`,
    );
    // times as the console writes them (not the browser's 11/27/2026, 12:15:32 PM)
    expect(screen.getByTestId('activity-rating')).toHaveTextContent(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    expect(await screen.findByTestId('signed-in-R001')).toHaveTextContent(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    const row = screen.getByText('李四').closest('tr') as HTMLElement;
    const trailReads = api.find('GET', '/api/system/audit-log').length;
    fireEvent.click(within(row).getByRole('checkbox'));
    const batch = await screen.findByTestId('attendance-batch');
    fireEvent.change(within(batch).getByRole('textbox'), { target: { value: '病假' } });
    fireEvent.click(within(batch).getByRole('button', { name: /请\s*假/ }));
    await waitFor(() => expect(api.find('POST', '/api/teaching/activity/1/attendance')).toHaveLength(1));
    expect(api.find('POST', '/api/teaching/activity/1/attendance')[0].body).toEqual({
      items: [{ traineeId: 'tR002', attendance: 'excused', note: '病假' }],
    });
    // the history is read again with the activity, and shows the correction
    await waitFor(() => expect(api.find('GET', '/api/system/audit-log').length).toBeGreaterThan(trailReads));
  });

  it('changes one row without touching its note, and asks before a signed-in trainee loses their sign-in', async () => {
    const api = fakeApi({
      'GET /api/teaching/activity/1': () => ({ body: anActivity({ status: 'published', participantCount: 2 }) }),
      'GET /api/teaching/activity/1/sign-in-code': () => ({ status: 409, body: { code: 'activity.signInClosed' } }),
      'GET /api/teaching/activity/1/participants': () => ({
        body: [
          aParticipant('R001', '张三', {
            attendance: 'present',
            signedInAt: new Date().toISOString(),
            signInMethod: 'qr',
          }),
          aParticipant('R002', '李四', { note: '路上堵车' }),
        ],
      }),
      'POST /api/teaching/activity/1/attendance': () => ({ body: anActivity({ status: 'published', version: 3 }) }),
      'GET /api/system/audit-log': () => page([]),
    });
    openProfile();
    const choose = async (no: string, label: string) => {
      fireEvent.mouseDown(within(await screen.findByTestId(`attendance-${no}`)).getByRole('combobox'));
      const open = document.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden)') as HTMLElement;
      fireEvent.click(within(open).getByTitle(label));
    };
    const sent = () => api.find('POST', '/api/teaching/activity/1/attendance');
    // a note typed for a batch earlier is not stamped on a row changed alone
    fireEvent.click(within((await screen.findByText('李四')).closest('tr') as HTMLElement).getByRole('checkbox'));
    fireEvent.change(within(await screen.findByTestId('attendance-batch')).getByRole('textbox'), {
      target: { value: '病假' },
    });
    await choose('R002', '迟到');
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0].body).toEqual({ items: [{ traineeId: 'tR002', attendance: 'late' }] });

    await choose('R001', '缺勤');
    const confirm = await screen.findByTestId('attendance-confirm');
    expect(screen.getAllByText(/将 张三 改为“缺勤”会删除其签到时间/).length).toBeGreaterThan(0);
    expect(sent()).toHaveLength(1);
    fireEvent.click(confirm);
    await waitFor(() => expect(sent()).toHaveLength(2));
    expect(sent()[1].body).toEqual({ items: [{ traineeId: 'tR001', attendance: 'absent' }] });
  });

  it('shows who it is for and how it is run, and edits a completed one no more', async () => {
    let status: Activity['status'] = 'published';
    const api = fakeApi({
      'GET /api/teaching/activity/1': () => ({
        body: anActivity({
          status,
          audienceTraineeTypeNames: ['住院医师', '专硕'],
          audienceOrgNames: ['住培基地'],
          audienceCohortYears: [2025],
          lateAfterMinutes: 15,
          ratingCount: 3,
          startAt: new Date(Date.now() + 2 * hour).toISOString(),
          endAt: new Date(Date.now() + 3 * hour).toISOString(),
          signInOpensAt: new Date(Date.now() + 1.5 * hour).toISOString(),
        }),
      }),
      'GET /api/teaching/activity/1/participants': () => ({ body: [] }),
      'GET /api/people/trainee-type': () => page([]),
      'GET /api/people/doctor': () => page([]),
      'GET /api/system/audit-log': () => page([]),
    });
    const view = openProfile();
    const details = await screen.findByTestId('resource-profile');
    await within(details).findByText('住院医师、专硕');
    expect(within(details).getByText('住培基地')).toBeInTheDocument();
    expect(within(details).getByText('2025')).toBeInTheDocument();
    expect(within(details).getByText('15')).toBeInTheDocument();
    expect(within(details).getByText('是')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('activity-profile-edit'));
    expect(await screen.findByTestId('form-title')).toHaveValue('心衰病例讨论');
    expect(api.find('GET', '/api/teaching/activity/1')).toHaveLength(1);
    view.unmount();

    status = 'completed';
    openProfile();
    await screen.findByTestId('activity-participants');
    expect(screen.queryByTestId('activity-profile-edit')).toBeNull();
  });

  it('shows the sign-in code when sign-in opens and says it has closed after the end, without a reload', async () => {
    const soon = Date.now();
    const api = fakeApi({
      'GET /api/teaching/activity/1': () => ({
        body: anActivity({
          status: 'published',
          evaluationEnabled: false,
          signInOpensAt: new Date(soon + 5000).toISOString(),
          startAt: new Date(soon + 6000).toISOString(),
          endAt: new Date(soon + 9000).toISOString(),
        }),
      }),
      'GET /api/teaching/activity/1/sign-in-code': () => ({
        body: { code: '1.1.59.abcdefghijklmnopqrstuv', expiresAt: new Date().toISOString(), refreshInSeconds: 20 },
      }),
      'GET /api/teaching/activity/1/participants': () => ({ body: [] }),
      'GET /api/system/audit-log': () => page([]),
    });
    openProfile();
    expect(await screen.findByTestId('activity-sign-in-waiting')).toHaveTextContent(/签到将于 .* 开放/);
    expect(api.find('GET', '/api/teaching/activity/1/sign-in-code')).toHaveLength(0);
    await screen.findByTestId('activity-sign-in-link', undefined, { timeout: 10_000 });
    expect(screen.queryByTestId('activity-sign-in-waiting')).toBeNull();
    expect(await screen.findByTestId('activity-sign-in-closed', undefined, { timeout: 10_000 })).toHaveTextContent(
      /签到已于 .* 截止/,
    );
    expect(screen.queryByTestId('activity-sign-in-link')).toBeNull();
    expect(api.find('GET', '/api/teaching/activity/1')).toHaveLength(1);
  });

  it('offers no code for a draft, and no list either', async () => {
    const api = fakeApi({
      'GET /api/teaching/activity/1': () => ({ body: anActivity() }),
      'GET /api/system/audit-log': () => page([]),
    });
    openProfile();
    await screen.findByTestId('activity-profile-publish');
    expect(screen.queryByTestId('activity-sign-in')).toBeNull();
    expect(screen.queryByTestId('activity-participants')).toBeNull();
    expect(api.find('GET', '/api/teaching/activity/1/sign-in-code')).toHaveLength(0);
  });
});

describe('an activity under way, its window, its host and its files', () => {
  const openUnderWay = (row: Activity, more: Parameters<typeof fakeApi>[0] = {}) => {
    const api = fakeApi({
      'GET /api/teaching/activity/1': () => ({ body: row }),
      'GET /api/teaching/activity/1/participants': () => ({ body: [aParticipant('R001', '张三')] }),
      'GET /api/teaching/activity/1/sign-in-code': () => ({
        body: { code: '1.1.59.abcdefghijklmnopqrstuv', expiresAt: new Date().toISOString(), refreshInSeconds: 20 },
      }),
      'GET /api/teaching/activity/1/rating-code': () => ({
        body: { code: '1.1.abcdefghijklmnopqrstuv', opensAt: row.startAt, closesAt: row.endAt },
      }),
      'GET /api/teaching/activity/1/files': () => ({ body: { materials: [], photos: [] } }),
      'GET /api/people/trainee': () => page([]),
      'GET /api/system/audit-log': () => page([]),
      ...more,
    });
    openProfile();
    return api;
  };

  it('takes sign-in, walk-ins and completion while under way, and says the window sign-in keeps', async () => {
    const closes = new Date(Date.now() + 2 * hour).toISOString();
    openUnderWay(anActivity({ status: 'ongoing', signInCloseAt: closes, signInClosesAt: closes }));
    expect(await screen.findByText('进行中')).toBeInTheDocument();
    expect(await screen.findByTestId('activity-sign-in-window')).toHaveTextContent(
      dayjs(closes).format('YYYY-MM-DD HH:mm:ss'),
    );
    expect(screen.getByTestId('activity-complete')).toBeInTheDocument();
    expect(await screen.findByTestId('participants-pick')).toBeInTheDocument();
    expect(screen.getByTestId('activity-profile-edit')).toBeInTheDocument();
  });

  it('keeps the code shown past the end while its own window is open', async () => {
    const past = anActivity({
      status: 'ongoing',
      startAt: new Date(Date.now() - 2 * hour).toISOString(),
      endAt: new Date(Date.now() - hour / 2).toISOString(),
      signInClosesAt: new Date(Date.now() + hour).toISOString(),
    });
    openUnderWay(past);
    expect(await screen.findByTestId('activity-sign-in-link')).toBeInTheDocument();
    expect(screen.queryByTestId('activity-sign-in-closed')).toBeNull();
  });

  it("warns of the host's activities at an overlapping time, each linked", async () => {
    openUnderWay(
      anActivity({
        status: 'published',
        hostOverlaps: [
          { id: '9', title: '教学查房', startAt: '2026-12-01T01:00:00.000Z', endAt: '2026-12-01T02:00:00.000Z' },
        ],
      }),
    );
    const warning = await screen.findByTestId('activity-host-overlaps');
    expect(warning).toHaveTextContent('王主任 在重叠的时间还主持');
    expect(
      within(warning)
        .getByText(/教学查房/)
        .closest('a'),
    ).toHaveAttribute('href', expect.stringContaining('/teach/teaching/9/profile'));
  });

  it('shows no warning when the host is free', async () => {
    openUnderWay(anActivity({ status: 'published' }));
    await screen.findByTestId('activity-files');
    expect(screen.queryByTestId('activity-host-overlaps')).toBeNull();
  });

  it('lists its slides and photos to download, uploads a photo and removes a slide only once confirmed', async () => {
    const uploads = fakeUploads(61);
    const row = anActivity({ status: 'completed', materialFileIds: ['50'], photoFileIds: [] });
    const api = openUnderWay(row, {
      'GET /api/teaching/activity/1/files': () => ({
        body: {
          materials: [
            anAttachment('50', 'slides.pdf', {
              mimeType: 'application/pdf',
              previewUrl: '/api/file/file/download/p50',
              downloadUrl: '/api/file/file/download/d50',
            }),
          ],
          photos: [],
        },
      }),
      'GET /api/file/file/upload-policy': () => ({
        body: { direct: false, provider: 'local', maxSizeMb: 50, allowedExtensions: ['png', 'pdf'] },
      }),
      'POST /api/teaching/activity/1/files': validatedBy(ActivityFiles, () => ({ body: { ...row, version: 3 } })),
    });
    const slides = await screen.findByTestId('activity-materials');
    expect(await within(slides).findByTestId('file-download-50')).toHaveAttribute(
      'href',
      '/api/file/file/download/d50',
    );
    expect(within(slides).getByText('slides.pdf')).toBeInTheDocument();

    const photos = screen.getByTestId('activity-photos');
    const input = photos.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['png'], 'photo.png', { type: 'image/png' })] } });
    await waitFor(() => expect(api.find('POST', '/api/teaching/activity/1/files')).toHaveLength(1));
    expect(uploads[0]?.url).toBe('/api/file/file/upload?name=photo.png&purpose=attachment');
    expect(api.find('POST', '/api/teaching/activity/1/files')[0]?.body).toEqual({ photoFileIds: ['61'], version: 2 });

    fireEvent.click(within(slides).getByTestId('file-remove-50'));
    expect(await screen.findByText('删除文件“slides.pdf”？')).toBeInTheDocument();
    expect(api.find('POST', '/api/teaching/activity/1/files')).toHaveLength(1);
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(api.find('POST', '/api/teaching/activity/1/files')).toHaveLength(2));
    expect(api.find('POST', '/api/teaching/activity/1/files')[1]?.body).toEqual({ materialFileIds: [], version: 2 });
  });

  it('offers no upload on a cancelled activity', async () => {
    openUnderWay(anActivity({ status: 'cancelled', cancelReason: '停诊' }));
    await screen.findByTestId('activity-files');
    expect(screen.queryByTestId('activity-materials-add')).toBeNull();
    expect(screen.queryByTestId('activity-photos-add')).toBeNull();
  });
});

describe('/sign-in/activity', () => {
  it('signs a trainee in with the code of the link, their number and name, then takes their rating', async () => {
    const api = fakeApi({
      'POST /api/teaching/activity/sign-in': () => ({
        body: {
          activityTitle: '心衰病例讨论',
          traineeName: '张三',
          attendance: 'late',
          signedInAt: new Date().toISOString(),
          already: false,
          evaluationEnabled: true,
          rated: false,
          ratingToken: 'token-1',
        },
      }),
      'POST /api/teaching/activity/rate': () => ({ body: { avgRating: 5, ratingCount: 1 } }),
    });
    openSignIn('/sign-in/activity?code=1.2.3.abc');
    await signInAs('R001', '张三');
    expect(await screen.findByTestId('sign-in-result')).toHaveTextContent('张三，签到成功（迟到）');
    expect(api.find('POST', '/api/teaching/activity/sign-in')[0].body).toEqual({
      code: '1.2.3.abc',
      traineeNo: 'R001',
      name: '张三',
    });
    const stars = within(screen.getByTestId('sign-in-rating')).getAllByRole('radio');
    fireEvent.click(stars[4]);
    fireEvent.click(screen.getByTestId('sign-in-rate-submit'));
    await screen.findByTestId('sign-in-rated');
    expect(api.find('POST', '/api/teaching/activity/rate')[0].body).toEqual({ token: 'token-1', rating: 5 });
  });

  it('offers no rating to a trainee who signs in again having rated', async () => {
    fakeApi({
      'POST /api/teaching/activity/sign-in': () => ({
        body: {
          activityTitle: '心衰病例讨论',
          traineeName: '张三',
          attendance: 'present',
          signedInAt: new Date().toISOString(),
          already: true,
          evaluationEnabled: true,
          rated: true,
          ratingToken: null,
        },
      }),
    });
    openSignIn('/sign-in/activity?code=1.2.3.abc');
    await signInAs('R001', '张三');
    expect(await screen.findByTestId('sign-in-rated')).toHaveTextContent('你已评价过本活动');
    expect(screen.queryByTestId('sign-in-rating')).toBeNull();
    expect(screen.queryByTestId('sign-in-rate-later')).toBeNull();
  });
});

describe('/sign-in/activity?rate=', () => {
  it('lets a trainee who came name themselves with the rating code, then rate', async () => {
    const api = fakeApi({
      'POST /api/teaching/activity/rating-token': () => ({
        body: { activityTitle: '心衰病例讨论', traineeName: '李四', ratingToken: 'token-2' },
      }),
      'POST /api/teaching/activity/rate': () => ({ body: { avgRating: 4, ratingCount: 2 } }),
    });
    openSignIn('/sign-in/activity?rate=1.2.abc');
    expect(await screen.findByText('教学活动评价')).toBeInTheDocument();
    await signInAs('R002', '李四');
    expect(await screen.findByTestId('sign-in-result')).toHaveTextContent('李四，请为本次活动评分');
    expect(api.find('POST', '/api/teaching/activity/rating-token')[0].body).toEqual({
      code: '1.2.abc',
      traineeNo: 'R002',
      name: '李四',
    });
    expect(api.find('POST', '/api/teaching/activity/sign-in')).toHaveLength(0);
    fireEvent.click(within(screen.getByTestId('sign-in-rating')).getAllByRole('radio')[3]);
    fireEvent.click(screen.getByTestId('sign-in-rate-submit'));
    await screen.findByTestId('sign-in-rated');
    expect(api.find('POST', '/api/teaching/activity/rate')[0].body).toEqual({ token: 'token-2', rating: 4 });
  });
});

describe('sign-in by code and position', () => {
  const signedIn = {
    activityTitle: '心衰病例讨论',
    traineeName: '张三',
    attendance: 'present',
    signedInAt: new Date().toISOString(),
    already: false,
    evaluationEnabled: false,
    ratingToken: null,
  };
  const open = () => openSignIn('/sign-in/activity?code=1.2.3.abc&geo=1');

  it("asks the browser for the trainee's position and sends it with the sign-in", async () => {
    const getCurrentPosition = vi.fn((done: PositionCallback) =>
      done({ coords: { latitude: 31.2314, longitude: 121.4737, accuracy: 12.4 } } as GeolocationPosition),
    );
    vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } });
    const api = fakeApi({ 'POST /api/teaching/activity/sign-in': () => ({ body: signedIn }) });
    open();
    expect(await screen.findByTestId('sign-in-position')).toHaveTextContent('已获取位置（精度约 12 米）');
    await signInAs('R001', '张三');
    expect(await screen.findByTestId('sign-in-result')).toHaveTextContent('张三，签到成功');
    expect(api.find('POST', '/api/teaching/activity/sign-in')[0].body).toEqual({
      code: '1.2.3.abc',
      traineeNo: 'R001',
      name: '张三',
      latitude: 31.2314,
      longitude: 121.4737,
    });
  });

  it('says when no position is given, asks again on demand, and shows the refusal of a sign-in without one', async () => {
    const getCurrentPosition = vi.fn((_done: PositionCallback, failed?: PositionErrorCallback | null) =>
      failed?.({ code: 1, message: 'denied' } as GeolocationPositionError),
    );
    vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } });
    const api = fakeApi({
      'POST /api/teaching/activity/sign-in': () => ({
        status: 400,
        body: {
          family: 'CLIENT_ERROR',
          code: 'common.validation',
          message: 'invalid',
          fields: [{ field: 'latitude', message: '本活动须定位签到，请允许获取位置后重试' }],
        },
      }),
    });
    open();
    expect(await screen.findByTestId('sign-in-position')).toHaveTextContent('请允许浏览器获取你的位置后重试');
    fireEvent.click(screen.getByTestId('sign-in-locate'));
    expect(getCurrentPosition).toHaveBeenCalledTimes(2);
    await signInAs('R001', '张三');
    await waitFor(() => expect(api.find('POST', '/api/teaching/activity/sign-in')).toHaveLength(1));
    expect(api.find('POST', '/api/teaching/activity/sign-in')[0].body).toEqual({
      code: '1.2.3.abc',
      traineeNo: 'R001',
      name: '张三',
    });
    expect(await screen.findByText('本活动须定位签到，请允许获取位置后重试')).toBeInTheDocument();
    expect(screen.queryByTestId('sign-in-result')).toBeNull();
  });

  it('asks for no position on an activity signed in by code alone', async () => {
    const getCurrentPosition = vi.fn();
    vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } });
    fakeApi({});
    openSignIn('/sign-in/activity?code=1.2.3.abc');
    await screen.findByTestId('sign-in-traineeNo');
    expect(screen.queryByTestId('sign-in-position')).toBeNull();
    expect(getCurrentPosition).not.toHaveBeenCalled();
  });
});

describe('a specialty base, trainees named, a place to sign in at', () => {
  const row = anActivity({
    startAt: '2026-12-01T08:00:00.000Z',
    endAt: '2026-12-01T09:00:00.000Z',
    signInOpensAt: '2026-12-01T07:30:00.000Z',
    signInClosesAt: '2026-12-01T09:00:00.000Z',
    specialtyBaseId: '8',
    specialtyBaseName: '内科专业基地',
    audienceTraineeIds: ['21'],
    audienceTraineeNames: ['赵六'],
    signInMode: 'qr_geo',
    geoLatitude: 31.2304,
    geoLongitude: 121.4737,
    geoRadiusM: 500,
  });

  it('edits the place of a sign-in by position, keeps the trainees named and the base, and shows a refusal on its field', async () => {
    let refuse = true;
    const api = fakeApi({
      'GET /api/teaching/activity': () => page([row]),
      'GET /api/people/doctor': () => page([]),
      'GET /api/people/trainee': () => page([]),
      'GET /api/people/trainee-type': () => page([]),
      'GET /api/people/organization/tree': () => ({ body: [] }),
      'GET /api/people/organization/5': () => ({ body: { id: '5', name: '心内科', path: '/5/' } }),
      'GET /api/people/organization/8': () => ({ body: { id: '8', name: '内科专业基地', path: '/8/' } }),
      'PUT /api/teaching/activity/1': () =>
        refuse
          ? {
              status: 400,
              body: {
                family: 'CLIENT_ERROR',
                code: 'common.validation',
                message: 'invalid',
                fields: [{ field: 'geoLongitude', message: '定位签到须填写地点的纬度和经度' }],
              },
            }
          : { body: { ...row, version: 3 } },
    });
    openList();
    const listed = (await screen.findByText('心衰病例讨论')).closest('tr') as HTMLElement;
    expect(listed).toHaveTextContent('内科专业基地');
    fireEvent.click(within(listed).getByTestId('row-edit'));
    const latitude = (await screen.findAllByTestId('form-geoLatitude'))[0] as HTMLInputElement;
    expect(latitude.value).toBe('31.230400');
    expect(await screen.findByText('赵六')).toBeInTheDocument();
    fireEvent.change(latitude, { target: { value: '31.2404' } });
    fireEvent.change(screen.getAllByTestId('form-geoRadiusM')[0] as HTMLInputElement, { target: { value: '800' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/teaching/activity/1')).toHaveLength(1));
    expect(api.find('PUT', '/api/teaching/activity/1')[0].body).toMatchObject({
      specialtyBaseId: '8',
      audienceTraineeIds: ['21'],
      signInMode: 'qr_geo',
      geoLatitude: 31.2404,
      geoLongitude: 121.4737,
      geoRadiusM: 800,
    });
    const field = (screen.getAllByTestId('form-geoLongitude')[0] as HTMLElement).closest(
      '.ant-form-item',
    ) as HTMLElement;
    expect(await within(field).findByText('定位签到须填写地点的纬度和经度')).toBeInTheDocument();
    refuse = false;
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/teaching/activity/1')).toHaveLength(2));
  }, 180_000);

  it('shows the base, the trainees named, the place and how far each trainee signed in from it', async () => {
    const live = { ...row, status: 'published' as const, participantCount: 1, presentCount: 1 };
    fakeApi({
      'GET /api/teaching/activity/1': () => ({ body: live }),
      'GET /api/teaching/activity/1/files': () => ({ body: { materials: [], photos: [] } }),
      'GET /api/teaching/activity/1/participants': () => ({
        body: [
          aParticipant('N001', '赵六', {
            attendance: 'present',
            signedInAt: '2026-12-01T07:55:00.000Z',
            signInMethod: 'qr_geo',
            signInDistanceM: 111,
          }),
        ],
      }),
      'GET /api/people/trainee': () => page([]),
      'GET /api/system/audit-log': () => page([]),
    });
    openProfile();
    expect(await screen.findByTestId('activity-geo')).toHaveTextContent('31.2304, 121.4737（半径 500 米）');
    expect(screen.getAllByText('内科专业基地').length).toBeGreaterThan(0);
    expect(screen.getAllByText('赵六').length).toBeGreaterThan(0);
    expect(await screen.findByTestId('distance-N001')).toHaveTextContent('距地点 111 米');
    expect(screen.getByTestId('signed-in-N001')).toHaveTextContent('扫码定位');
  });
});
