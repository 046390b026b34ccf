import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import DoctorPage from '@/pages/people/doctor';
import DoctorProfile from '@/pages/people/doctor/profile';
import DoctorTypePage from '@/pages/people/doctor-type';
import type { DoctorType } from '@/pages/people/doctor-type/descriptor';
import { fakeApi } from './fake-api';
import { freshStore, grant, renderApp, seededSysCodes, type TestStore } from './harness';
import { personRow } from './people-fixtures';

vi.setConfig({ testTimeout: 60_000 });

const type = (id: string, name: string, doctorCount: number): DoctorType => ({
  id,
  code: `t${id}`,
  name,
  description: null,
  teacherEligible: true,
  licenseRequired: false,
  color: null,
  sort: Number(id),
  status: 'enabled',
  remark: null,
  doctorCount,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 2,
});
const used = type('1', '带教医师', 3);
const spare = type('2', '进修医师', 0);
const page = (data: unknown[]) => ({ body: { data, total: data.length, success: true, current: 1, pageSize: 20 } });

let store: TestStore;
beforeEach(() => {
  store = freshStore(seededSysCodes('common_status', 'yes_no', 'doctor_status', 'trainee_status', 'gender'));
});
afterEach(() => vi.unstubAllGlobals());

describe('/user/doctor-type', () => {
  it('shows how many doctors each type has; a used type offers moving them, then deletes it', async () => {
    const api = fakeApi({
      'GET /api/people/doctor-type': () => page([used, spare]),
      'POST /api/people/doctor-type/1/move-doctors': () => ({ body: { ...used, doctorCount: 0, version: 3 } }),
      'DELETE /api/people/doctor-type/1': () => ({ status: 204 }),
    });
    const codes = ['list', 'create', 'update', 'delete'].map((a) => `people:doctor-type:${a}`);
    render(renderApp({ store, access: grant(codes), children: <DoctorTypePage /> }).tree);
    const usedRow = (await screen.findByText('带教医师')).closest('tr') as HTMLElement;
    expect(within(usedRow).getByText('3')).toBeInTheDocument();
    expect(within(usedRow).queryByTestId('row-delete')).toBeNull();
    const spareRow = screen.getByText('进修医师').closest('tr') as HTMLElement;
    expect(within(spareRow).getByTestId('row-delete')).toBeInTheDocument();
    expect(within(spareRow).queryByTestId('row-move-doctors')).toBeNull();
    fireEvent.click(within(usedRow).getByTestId('row-move-doctors'));
    await screen.findByText('「带教医师」仍有 3 名医生：移到其他类型后删除', {}, { timeout: 15_000 });
    fireEvent.mouseDown(within(screen.getByTestId('move-doctors-target')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('进修医师', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(screen.getByTestId('move-doctors-submit'));
    await waitFor(() => expect(api.find('DELETE', '/api/people/doctor-type/1')).toHaveLength(1));
    expect(api.find('POST', '/api/people/doctor-type/1/move-doctors')[0].body).toEqual({
      targetTypeId: '2',
      version: 2,
    });
  });
});

describe('/doctor', () => {
  it("lists every type's doctors, searched by a keyword, each with its type", async () => {
    const doctor = (id: string, name: string, doctorTypeName: string) => ({
      id,
      ...personRow(name),
      doctorNo: `D0${id}`,
      doctorTypeName,
      orgName: '心内科',
      professionalTitle: null,
      isTutor: false,
      traineeCount: 0,
      status: 'active',
      version: 1,
    });
    const api = fakeApi({
      'GET /api/people/doctor': (call) =>
        page(
          [doctor('1', '王建国', '带教医师'), doctor('2', '李明', '进修医师')].filter(
            (d) => !call.query.keyword || d.name.includes(call.query.keyword),
          ),
        ),
    });
    render(renderApp({ store, access: grant(['people:doctor:list']), children: <DoctorPage /> }).tree);
    const table = await screen.findByTestId('people-doctor');
    expect(within((await within(table).findByText('王建国')).closest('tr') as HTMLElement).getByText('带教医师'));
    expect(within(screen.getByText('李明').closest('tr') as HTMLElement).getByText('进修医师'));
    expect(api.find('GET', '/api/people/doctor')[0].query.doctorTypeId).toBeUndefined();
    const search = within(table).getByTestId('table-search');
    fireEvent.change(within(search).getByLabelText('关键词'), { target: { value: '李' } });
    fireEvent.click(within(search).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(within(table).queryByText('王建国')).toBeNull());
    expect(within(table).getByText('李明')).toBeInTheDocument();
  });
});

describe('/doctor/:id/profile', () => {
  it('lists the trainees the doctor tutors, and shows the ID number only on request', async () => {
    const api = fakeApi({
      'GET /api/people/doctor/4': () => ({
        body: {
          id: '4',
          ...personRow('李医生', { gender: 'female' }),
          doctorNo: 'D01',
          doctorTypeId: '1',
          doctorTypeName: '带教医师',
          orgId: '3',
          orgName: '心内科',
          unitId: null,
          unitName: null,
          professionalTitle: null,
          practiceCategory: null,
          practiceScope: null,
          qualificationCertNo: null,
          licenseNo: null,
          licenseIssuedOn: null,
          specialtyCode: null,
          subspecialty: null,
          isTutor: true,
          teacherSince: null,
          status: 'active',
          remark: null,
          traineeCount: 1,
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: null,
          version: 1,
        },
      }),
      'GET /api/people/trainee': (call) =>
        page(
          call.query.tutorDoctorId === '4'
            ? [
                {
                  id: '5',
                  name: '欧阳明轩',
                  traineeNo: 'R1',
                  cohortYear: 2026,
                  traineeTypeName: '住院医师',
                  status: 'in_training',
                },
              ]
            : [],
        ),
      'POST /api/people/doctor/4/reveal-id': () => ({ body: { idNo: '11010519491231002X' } }),
      'GET /api/system/audit-log': () =>
        page([
          auditRow(
            '2',
            'people:doctor:update',
            '王建国 · mobile, status, orgName · 调岗',
            { mobile: '139', status: 'active', orgName: '内科', version: 1 },
            {
              mobile: '138',
              status: 'retired',
              orgName: '外科',
              version: 2,
            },
          ),
          auditRow('1', 'people:doctor:create', '王建国', null, {
            id: '4',
            name: '王建国',
            mobile: '139',
            status: 'active',
          }),
        ]),
    });
    render(
      renderApp({
        store,
        access: grant(['people:doctor:list', 'people:doctor:pii-view', 'trainee:trainee:list']),
        initialPath: '/doctor/4/profile',
        routes: [{ path: '/doctor/:id/profile', element: <DoctorProfile /> }],
      }).tree,
    );
    await within(await screen.findByTestId('trainees-of')).findByText('欧阳明轩');
    expect(screen.getByTestId('doctor-id-no')).toHaveTextContent('1101**********002X');
    fireEvent.click(screen.getByTestId('doctor-id-no-reveal'));
    await waitFor(() => expect(screen.getByTestId('doctor-id-no')).toHaveTextContent('11010519491231002X'));
    expect(api.find('POST', '/api/people/doctor/4/reveal-id')).toHaveLength(1);

    // its history names a change's fields as the profile titles them (not a field the profile does not show), a
    // creation's none
    const [updated, created] = screen.getAllByTestId('audit-entry');
    expect(updated).toHaveTextContent('变更字段：手机号, 状态');
    expect(updated).not.toHaveTextContent('orgName');
    // the server's summary keeps the record's name and the note, not the fields' own names
    expect(updated).toHaveTextContent('王建国 · 调岗');
    expect(updated).not.toHaveTextContent('mobile');
    expect(created).not.toHaveTextContent('变更字段');
  });
});

const auditRow = (id: string, action: string, summary: string, before: object | null, after: object) => ({
  id,
  actorId: '1',
  actorName: 'admin',
  action,
  resourceType: 'people:doctor',
  resourceId: '4',
  summary,
  before,
  after,
  ip: null,
  userAgent: null,
  createdAt: '2026-01-02T00:00:00.000Z',
});
