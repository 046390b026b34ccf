import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import CourseListPage from '@/pages/teaching/course';
import type { Course } from '@/pages/teaching/course/descriptor';
import CourseProfile from '@/pages/teaching/course/profile';
import CourseItemListPage from '@/pages/teaching/course-item';
import type { CourseItem } from '@/pages/teaching/course-item/descriptor';
import CourseItemProfile from '@/pages/teaching/course-item/profile';
import { fakeApi, page } from './fake-api';
import { aCourse, aCourseItem } from './fixtures/course';
import { freshStore, grant, renderApp, renderAt, seededSysCodes, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const codes = [
  ...['list', 'create', 'update', 'delete', 'export', 'publish', 'assign', 'clone'].map((a) => `teaching:course:${a}`),
  ...['list', 'create', 'update', 'progress'].map((a) => `teaching:course-item:${a}`),
];

/** A draft elective CME course, of no category and for no one yet: what the content of a course is written in. */
const aCmeCourse = (overrides: Partial<Course> = {}) =>
  aCourse({
    title: '高血压指南解读',
    categoryId: null,
    categoryName: null,
    courseType: 'elective',
    purpose: 'cme',
    audienceTraineeTypeIds: [],
    audienceTraineeTypeNames: [],
    creditHours: 2,
    status: 'draft',
    itemCount: 0,
    version: 1,
    ...overrides,
  });

let store: TestStore;
beforeEach(() => {
  store = freshStore(seededSysCodes('yes_no', 'common_status', 'training_specialty'));
});
afterEach(() => vi.unstubAllGlobals());

const noTree = { 'GET /api/teaching/course-category/tree': () => ({ body: [] }) };
const formItem = (drawer: HTMLElement, label: string) =>
  within(drawer).getByText(label, { selector: 'label' }).closest('.ant-form-item') as HTMLElement;

describe('the course form', () => {
  it('asks for CME credits with a credit class, finds teachers by name, and sends them', async () => {
    const api = fakeApi({
      ...noTree,
      'GET /api/teaching/course': () => page([]),
      'GET /api/people/trainee-type.*': () => page([]),
      'GET /api/assess/paper': () => page([]),
      'GET /api/people/doctor': (call) =>
        page(call.query.keyword === '王' ? [{ id: '7', name: '王主任', orgName: '心内科' }] : []),
      'POST /api/teaching/course': (call) => ({
        status: 201,
        body: aCmeCourse({ ...(call.body as Partial<Course>), id: '9' }),
      }),
    });
    render(renderApp({ store, access: grant(codes), children: <CourseListPage /> }).tree);
    fireEvent.click(await screen.findByTestId('table-create'));
    const drawer = await screen.findByRole('dialog');
    fireEvent.change(within(formItem(drawer, '编码')).getByRole('textbox'), { target: { value: 'CME-1' } });
    fireEvent.change(within(formItem(drawer, '课程名称')).getByRole('textbox'), {
      target: { value: '高血压指南解读' },
    });
    fireEvent.mouseDown(within(formItem(drawer, '继续教育学分类别')).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('Ⅰ类学分'));
    fireEvent.click(within(drawer).getByTestId('resource-form-submit'));
    // with a class, its credits are required before anything is sent
    await waitFor(() => expect(formItem(drawer, '继续教育学分')).toHaveClass('ant-form-item-has-error'));
    expect(api.find('POST', '/api/teaching/course')).toEqual([]);
    fireEvent.change(within(drawer).getByTestId('form-cmeCredits'), { target: { value: '2.5' } });

    const teachers = within(formItem(drawer, '授课医师')).getByRole('combobox');
    fireEvent.focus(teachers);
    fireEvent.mouseDown(teachers);
    fireEvent.change(teachers, { target: { value: '王' } });
    fireEvent.click(await screen.findByTitle('王主任 · 心内科'));
    fireEvent.click(within(drawer).getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('POST', '/api/teaching/course')).toHaveLength(1));
    expect(api.find('POST', '/api/teaching/course')[0]?.body).toMatchObject({
      code: 'CME-1',
      cmeCreditClass: 'class_i',
      cmeCredits: 2.5,
      teacherDoctorIds: ['7'],
    });
  });
});

describe('/teach/course/:id/profile', () => {
  it('shows its teachers, CME credits, specialties, cover and description', async () => {
    fakeApi({
      'GET /api/teaching/course/1': () => ({
        body: aCmeCourse({
          teacherDoctorIds: ['7'],
          teacherStaffIds: ['8'],
          teacherNames: ['王主任', '赵老师'],
          cmeCreditClass: 'class_ii',
          cmeCredits: 1.5,
          targetSpecialties: ['surgery'],
          coverFileId: '50',
          coverFileName: 'cover.png',
          descriptionHtml: '<h2>学习目标</h2><p>掌握分级</p>',
        }),
      }),
      'GET /api/teaching/course/1/enrolments': () => ({ body: [] }),
      'GET /api/teaching/course-item/outline': () => ({ body: [] }),
      'GET /api/system/audit-log.*': () => page([]),
    });
    renderAt(
      store,
      '/teach/course/1/profile',
      [{ path: '/teach/course/:id/profile', element: <CourseProfile /> }],
      codes,
    );
    const profile = await screen.findByTestId('course-profile');
    expect(await within(profile).findByText('王主任, 赵老师')).toBeInTheDocument();
    expect(within(profile).getByText('Ⅱ类学分')).toBeInTheDocument();
    expect(within(profile).getByText('1.5')).toBeInTheDocument();
    expect(within(profile).getByText('外科')).toBeInTheDocument();
    // no file permission: the cover's name
    expect(within(profile).getByTestId('course-cover')).toHaveTextContent('cover.png');
    const description = within(profile).getByTestId('course-description');
    expect(within(description).getByRole('heading', { name: '学习目标' })).toBeInTheDocument();
  });
});

describe('the course item form', () => {
  const routes = (extra = {}) => ({
    'GET /api/teaching/course': () => page([aCmeCourse()]),
    'GET /api/teaching/course/1': () => ({ body: aCmeCourse() }),
    'GET /api/teaching/course-item': () => page([]),
    'GET /api/teaching/course-item/outline': () => ({ body: [] }),
    ...extra,
  });
  const open = () =>
    renderAt(
      store,
      '/teach/course/item/list?courseId=1',
      [{ path: '/teach/course/item/list', element: <CourseItemListPage /> }],
      codes,
    );
  const chooseType = async (drawer: HTMLElement, label: string) => {
    fireEvent.mouseDown(
      within(drawer).getByTestId('form-itemType').closest('.ant-select')?.querySelector('input') as HTMLElement,
    );
    fireEvent.click(await screen.findByTitle(label));
  };

  it('adds a document from the document base, found among its published documents', async () => {
    const api = fakeApi(
      routes({
        'GET /api/content/document': (call: { query: Record<string, string> }) =>
          page(call.query.keyword === '胸痛' ? [{ id: '30', title: '胸痛诊治流程', baseName: '教学资料' }] : []),
        'POST /api/teaching/course-item': (call: { body: unknown }) => ({
          status: 201,
          body: aCourseItem({ id: '5', itemType: 'document', ...(call.body as Partial<CourseItem>) }),
        }),
      }),
    );
    open();
    fireEvent.click(await screen.findByTestId('item-from-library'));
    const drawer = await screen.findByRole('dialog');
    fireEvent.change(within(drawer).getByTestId('form-title'), { target: { value: '胸痛流程' } });
    const picker = within(formItem(drawer, '文档库文档')).getByRole('combobox');
    fireEvent.mouseDown(picker);
    fireEvent.change(picker, { target: { value: '胸痛' } });
    fireEvent.click(await screen.findByTitle('胸痛诊治流程 · 教学资料'));
    expect(api.find('GET', '/api/content/document').every((c) => c.query.status === 'published')).toBe(true);
    fireEvent.click(within(drawer).getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('POST', '/api/teaching/course-item')).toHaveLength(1));
    const sent = api.find('POST', '/api/teaching/course-item')[0]?.body as Record<string, unknown>;
    expect(sent).toMatchObject({ courseId: '1', itemType: 'document', title: '胸痛流程', documentId: '30' });
    expect(sent.fileId).toBeUndefined();
  });

  it('asks an assignment for its instructions only, and a live session for its time, platform and room', async () => {
    fakeApi(routes());
    open();
    fireEvent.click(await screen.findByTestId('table-create'));
    const drawer = await screen.findByRole('dialog');
    await chooseType(drawer, '作业');
    expect(await within(drawer).findByText('作业要求')).toBeInTheDocument();
    expect(within(drawer).getByTestId('assignment-no-submissions')).toBeInTheDocument();
    expect(within(drawer).queryByTestId('item-file-upload')).toBeNull();
    await chooseType(drawer, '直播');
    expect(await within(drawer).findByText('直播时间')).toBeInTheDocument();
    expect(within(drawer).getByTestId('form-livePlatform')).toBeInTheDocument();
    expect(within(drawer).getByTestId('form-liveRoomUrl')).toBeInTheDocument();
    expect(within(drawer).queryByText('作业要求')).toBeNull();
  });

  it("sends a live session's arrangements as one, and shows a refusal of its end on its time", async () => {
    const live = aCourseItem({
      id: '6',
      itemType: 'live',
      liveConfig: {
        startAt: '2026-12-01T08:00:00.000Z',
        endAt: '2026-12-01T09:30:00.000Z',
        platform: 'zoom',
        roomUrl: 'https://zoom.example.org/1',
      },
    });
    const api = fakeApi(
      routes({
        'GET /api/teaching/course-item': () => page([live]),
        'PUT /api/teaching/course-item/6': () => ({
          status: 400,
          body: {
            family: 'CLIENT_ERROR',
            code: 'common.validation',
            message: 'invalid',
            fields: [{ field: 'liveConfig.endAt', message: '须晚于开始时间' }],
          },
        }),
      }),
    );
    open();
    const row = (await screen.findAllByText('内容6')).map((el) => el.closest('tr')).find(Boolean) as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-edit'));
    const drawer = await screen.findByRole('dialog');
    fireEvent.change(within(drawer).getByTestId('form-liveRoomUrl'), {
      target: { value: 'https://zoom.example.org/2' },
    });
    fireEvent.click(within(drawer).getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/teaching/course-item/6')).toHaveLength(1));
    expect(api.find('PUT', '/api/teaching/course-item/6')[0]?.body).toMatchObject({
      liveConfig: {
        startAt: '2026-12-01T08:00:00.000Z',
        endAt: '2026-12-01T09:30:00.000Z',
        platform: 'zoom',
        roomUrl: 'https://zoom.example.org/2',
      },
      version: 1,
    });
    expect(await within(formItem(drawer, '直播时间')).findByText('须晚于开始时间')).toBeInTheDocument();
  });
});

describe('/teach/course/item/:id/profile', () => {
  const open = (row: CourseItem) => {
    fakeApi({
      [`GET /api/teaching/course-item/${row.id}`]: () => ({ body: row }),
      [`GET /api/teaching/course-item/${row.id}/progress`]: () => ({ body: [] }),
      'GET /api/system/audit-log.*': () => page([]),
    });
    renderAt(
      store,
      `/teach/course/item/${row.id}/profile`,
      [{ path: '/teach/course/item/:id/profile', element: <CourseItemProfile /> }],
      codes,
    );
  };

  it("shows a live session's time, platform and room", async () => {
    open(
      aCourseItem({
        id: '3',
        itemType: 'live',
        liveConfig: {
          startAt: '2026-12-01T08:00:00.000Z',
          endAt: '2026-12-01T09:00:00.000Z',
          platform: 'dingtalk',
          roomUrl: 'https://live.example.org/r/1',
        },
        isPreview: true,
      }),
    );
    const live = await screen.findByTestId('item-live');
    expect(within(live).getByText('钉钉')).toBeInTheDocument();
    expect(within(live).getByRole('link', { name: 'https://live.example.org/r/1' })).toHaveAttribute(
      'href',
      'https://live.example.org/r/1',
    );
  });

  it("shows an assignment's instructions and says submissions are the trainees' app's", async () => {
    open(aCourseItem({ id: '4', itemType: 'assignment', contentHtml: '<p>写一份大病历</p>' }));
    const content = await screen.findByTestId('item-content');
    expect(within(content).getByText('作业要求')).toBeInTheDocument();
    expect(within(content).getByText('写一份大病历')).toBeInTheDocument();
    expect(within(content).getByText(/学员提交作业在学员端进行/)).toBeInTheDocument();
  });
});
