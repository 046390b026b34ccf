import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import DoctorProfile from '@/pages/people/doctor/profile';
import type { Expert } from '@/pages/people/expert/descriptor';
import ExpertProfile from '@/pages/people/expert/profile';
import QualificationPage from '@/pages/people/qualification';
import type { Qualification } from '@/pages/people/qualification/descriptor';
import { ReviewQualification } from '../../server/src/modules/people/qualification/qualification.resource';
import { fakeApi, page, validatedBy } from './fake-api';
import { freshStore, grant, renderApp, seededSysCodes, type TestStore } from './harness';
import { personRow } from './people-fixtures';

vi.setConfig({ testTimeout: 60_000 });

const qualification = (id: string, certNo: string, reviewStatus: Qualification['reviewStatus']): Qualification => ({
  id,
  personId: '9',
  ownerType: 'doctor',
  ownerId: '4',
  ownerName: '李医生',
  qualificationType: 'practice_license',
  certNo,
  issuer: null,
  issuedOn: null,
  validFrom: null,
  validUntil: '2030-01-01',
  level: null,
  reviewStatus,
  reviewedByName: null,
  reviewedAt: null,
  reviewComment: null,
  attachmentFileIds: ['31'],
  remark: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 3,
});

const person = personRow('李医生', { gender: 'female' });
const expert: Expert = {
  ...person,
  id: '7',
  doctorId: '4',
  expertNo: 'E01',
  orgId: null,
  orgName: null,
  unitId: null,
  unitName: null,
  professionalTitle: null,
  specialties: ['surgery'],
  expertLevel: 'provincial',
  roles: ['examiner'],
  termStart: null,
  termEnd: null,
  source: 'nominated',
  status: 'in_review',
  remark: null,
  approvedQualifications: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 5,
} as Expert;

let store: TestStore;
beforeEach(() => {
  store = freshStore(
    seededSysCodes(
      'qualification_type',
      'qualification_status',
      'qualification_owner',
      'expert_status',
      'expert_level',
      'expert_role',
      'training_specialty',
      'doctor_status',
      'gender',
      'id_type',
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('/expert/qualifications', () => {
  it('offers each row the steps its status allows; a return needs a comment; the chosen ones are approved at once', async () => {
    const rows = [
      qualification('1', 'Q-1', 'submitted'),
      qualification('2', 'Q-2', 'draft'),
      qualification('3', 'Q-3', 'approved'),
    ];
    const api = fakeApi({
      'GET /api/people/qualification': () => page(rows),
      'POST /api/people/qualification/1/review': validatedBy(ReviewQualification, () => ({
        body: { ...rows[0], reviewStatus: 'returned', version: 4 },
      })),
      'POST /api/people/qualification/approve': () => ({ body: [] }),
      'GET /api/people/qualification/1/attachments': () => ({
        body: [
          {
            id: '31',
            name: '执业证书.pdf',
            mimeType: 'application/pdf',
            sizeBytes: 2048,
            previewUrl: '/api/file/file/content/1.31.9.i.sig',
            downloadUrl: '/api/file/file/content/1.31.9.a.sig',
            expiresAt: '2026-11-25T07:00:00.000Z',
          },
        ],
      }),
    });
    const codes = ['list', 'create', 'update', 'delete', 'review', 'revoke'].map((a) => `expert:qualification:${a}`);
    render(renderApp({ store, access: grant(codes), children: <QualificationPage /> }).tree);
    const row = async (certNo: string) => (await screen.findByText(certNo)).closest('tr') as HTMLElement;
    const submitted = await row('Q-1');
    expect(within(submitted).getByTestId('qualification-review')).toBeInTheDocument();
    expect(within(submitted).queryByTestId('qualification-submit')).toBeNull();
    expect(within(submitted).queryByTestId('row-edit')).toBeNull();
    expect(within(await row('Q-2')).getByTestId('qualification-submit')).toBeInTheDocument();
    expect(within(await row('Q-3')).getByTestId('qualification-revoke')).toBeInTheDocument();
    expect(within(await row('Q-3')).queryByTestId('qualification-review')).toBeNull();

    fireEvent.click(within(submitted).getByTestId('qualification-review'));
    // the reviewer reads the scans the record holds, each opening in a new tab
    const scan = await screen.findByText('执业证书.pdf');
    expect(scan.closest('a')).toHaveAttribute('href', '/api/file/file/content/1.31.9.i.sig');
    expect(scan.closest('a')).toHaveAttribute('target', '_blank');
    fireEvent.click(await screen.findByLabelText('退回修改'));
    fireEvent.click(screen.getByTestId('qualification-review-submit'));
    await waitFor(() => expect(document.querySelector('.ant-form-item-has-error')).not.toBeNull());
    expect(api.find('POST', '/api/people/qualification/1/review')).toHaveLength(0);
    fireEvent.change(screen.getByTestId('qualification-comment'), { target: { value: '请补充附件' } });
    fireEvent.click(screen.getByTestId('qualification-review-submit'));
    await waitFor(() => expect(api.find('POST', '/api/people/qualification/1/review')).toHaveLength(1));
    expect(api.find('POST', '/api/people/qualification/1/review')[0].body).toEqual({
      decision: 'return',
      comment: '请补充附件',
      version: 3,
    });

    fireEvent.click(within(await row('Q-1')).getByRole('checkbox'));
    fireEvent.click(within(await row('Q-2')).getByRole('checkbox'));
    fireEvent.click(await screen.findByTestId('batch-approve'));
    fireEvent.click(await screen.findByTestId('qualification-approve-submit'));
    await waitFor(() => expect(api.find('POST', '/api/people/qualification/approve')).toHaveLength(1));
    expect(api.find('POST', '/api/people/qualification/approve')[0].body).toEqual({ ids: ['1', '2'] });
  });
});

describe('/expert/qualifications, filing one', () => {
  it('finds the holder in the list of the kind chosen, and files the record under them', async () => {
    const api = fakeApi({
      'GET /api/people/qualification': () => page([]),
      'GET /api/people/expert': (call) =>
        page(call.query.keyword === '钱' ? [{ ...expert, name: '钱教授' }] : [expert]),
      'POST /api/people/qualification': (call) => ({
        status: 201,
        body: { ...qualification('8', 'Q-8', 'draft'), ...(call.body as object) },
      }),
    });
    render(
      renderApp({
        store,
        access: grant(['expert:qualification:list', 'expert:qualification:create']),
        children: <QualificationPage />,
      }).tree,
    );
    fireEvent.click(await screen.findByTestId('table-create'));
    fireEvent.mouseDown(within(await screen.findByTestId('form-ownerType')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('专家', { selector: '.ant-select-item-option-content' }));
    const owner = within(screen.getByTestId('qualification-owner')).getByRole('combobox');
    fireEvent.mouseDown(owner);
    fireEvent.change(owner, { target: { value: '钱' } });
    fireEvent.click(await screen.findByText('钱教授 (E01)', { selector: '.ant-select-item-option-content' }));
    fireEvent.mouseDown(within(screen.getByTestId('form-qualificationType')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('执业证书', { selector: '.ant-select-item-option-content' }));
    fireEvent.change(screen.getByTestId('form-certNo'), { target: { value: 'Q-8' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('POST', '/api/people/qualification')).toHaveLength(1));
    expect(api.find('POST', '/api/people/qualification')[0].body).toMatchObject({
      ownerType: 'expert',
      ownerId: '7',
      qualificationType: 'practice_license',
      certNo: 'Q-8',
    });
  });
});

describe('/expert/users/:id/profile', () => {
  it("shows the person's qualifications and moves the status only where it may go", async () => {
    const api = fakeApi({
      'GET /api/people/expert/7': () => ({ body: expert }),
      'GET /api/people/qualification': (call) =>
        page(call.query.personId === '9' ? [qualification('1', 'Q-1', 'submitted')] : []),
      'POST /api/people/expert/7/status': () => ({ body: { ...expert, status: 'applied', version: 6 } }),
      'GET /api/system/audit-log': () => page([]),
    });
    render(
      renderApp({
        store,
        access: grant(['expert:expert:list', 'expert:expert:change-status', 'expert:qualification:list']),
        initialPath: '/expert/users/7/profile',
        routes: [{ path: '/expert/users/:id/profile', element: <ExpertProfile /> }],
      }).tree,
    );
    await within(await screen.findByTestId('qualifications-of')).findByText('Q-1');
    fireEvent.click(await screen.findByTestId('expert-change-status'));
    expect(await screen.findByText('启用前须有一项已审核通过的资质')).toBeInTheDocument();
    fireEvent.mouseDown(within(screen.getByTestId('expert-status-to')).getByRole('combobox'));
    await screen.findByText('已退出', { selector: '.ant-select-item-option-content' });
    const options = [...document.querySelectorAll('.ant-select-item-option-content')].map((o) => o.textContent);
    expect(options).toEqual(['在聘', '已申请', '已退出']);
    fireEvent.click(await screen.findByText('已申请', { selector: '.ant-select-item-option-content' }));
    fireEvent.change(screen.getByTestId('expert-status-reason'), { target: { value: '材料不全' } });
    fireEvent.click(screen.getByTestId('expert-status-submit'));
    await waitFor(() => expect(api.find('POST', '/api/people/expert/7/status')).toHaveLength(1));
    expect(api.find('POST', '/api/people/expert/7/status')[0].body).toEqual({
      to: 'applied',
      reason: '材料不全',
      version: 5,
    });
  });
});

describe('/doctor/:id/profile', () => {
  it('makes a doctor who is not an expert one, and then shows their expert record', async () => {
    let promoted: Expert | undefined;
    const api = fakeApi({
      'GET /api/people/doctor/4': () => ({
        body: { ...person, id: '4', doctorNo: 'D01', doctorTypeName: '带教医师', status: 'active', version: 1 },
      }),
      'GET /api/people/expert': (call) => page(call.query.doctorId === '4' && promoted ? [promoted] : []),
      'POST /api/people/doctor/4/promote-expert': () => {
        promoted = { ...expert, status: 'applied' };
        return { body: promoted };
      },
      'GET /api/people/qualification': () => page([]),
      'GET /api/people/trainee': () => page([]),
      'GET /api/system/audit-log': () => page([]),
    });
    render(
      renderApp({
        store,
        access: grant(['people:doctor:list', 'people:doctor:promote-expert', 'expert:expert:list']),
        initialPath: '/doctor/4/profile',
        routes: [{ path: '/doctor/:id/profile', element: <DoctorProfile /> }],
      }).tree,
    );
    fireEvent.click(await screen.findByTestId('expert-promote'));
    fireEvent.change(await screen.findByTestId('expert-promote-no'), { target: { value: 'E01' } });
    fireEvent.mouseDown(within(screen.getByTestId('expert-promote-specialties')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('外科', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(screen.getByTestId('expert-promote-submit'));
    await waitFor(() => expect(api.find('POST', '/api/people/doctor/4/promote-expert')).toHaveLength(1));
    expect(api.find('POST', '/api/people/doctor/4/promote-expert')[0].body).toMatchObject({
      expertNo: 'E01',
      specialties: ['surgery'],
      expertLevel: 'institutional',
    });
    expect(await screen.findByTestId('expert-of-link')).toHaveTextContent('E01');
    expect(screen.queryByTestId('qualifications-of')).toBeNull();
  });
});
