import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import CourseListPage from '@/pages/teaching/course';
import type { Course } from '@/pages/teaching/course/descriptor';
import { dropped, outline } from '@/pages/teaching/course/outline';
import CourseProfile from '@/pages/teaching/course/profile';
import CourseItemListPage from '@/pages/teaching/course-item';
import type { CourseItem } from '@/pages/teaching/course-item/descriptor';
import CourseItemProfile from '@/pages/teaching/course-item/profile';
import { listQuerySchema } from '../../server/src/core/resource/list-query';
import { issuesToFields } from '../../server/src/core/validation';
import { courseItemResource, OutlineQuery } from '../../server/src/modules/teaching/course-item/course-item.resource';
import { type Call, fakeApi, page } from './fake-api';
import { aCourse, aCourseItem } from './fixtures/course';
import { aTaxonomyNode } from './fixtures/taxonomy';
import { freshStore, grant, renderApp, renderAt, seededSysCodes, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const codes = [
  ...['list', 'create', 'update', 'delete', 'export', 'publish', 'assign', 'clone'].map((a) => `teaching:course:${a}`),
  ...['list', 'update', 'progress'].map((a) => `teaching:course-item:${a}`),
  'teaching:course-category:manage',
];

/** A published item of course 1 at its place in the outline, under a chapter or at the top. */
const item = (id: string, itemType: CourseItem['itemType'], sort: number, parentId: string | null = null) =>
  aCourseItem({ id, itemType, sort, parentId, status: 'published' });

let store: TestStore;
beforeEach(() => {
  store = freshStore(seededSysCodes('yes_no', 'common_status'));
});
afterEach(() => vi.unstubAllGlobals());

/** Course 1's profile. */
const openCourse = () =>
  renderAt(
    store,
    '/teach/course/1/profile',
    [{ path: '/teach/course/:id/profile', element: <CourseProfile /> }],
    codes,
  );
/** The items of course 1, as a user who may add items sees them. */
const openItems = () =>
  renderAt(
    store,
    '/teach/course/item/list?courseId=1',
    [{ path: '/teach/course/item/list', element: <CourseItemListPage /> }],
    [...codes, 'teaching:course-item:create'],
  );

describe('a course outline', () => {
  // chapter 1 holds a and b; chapter 2 holds c; d sits at the top
  const tree = outline([
    item('1', 'chapter', 0),
    item('a', 'link', 1, '1'),
    item('b', 'link', 2, '1'),
    item('2', 'chapter', 3),
    item('c', 'link', 4, '2'),
    item('d', 'link', 5),
  ]);
  const order = (list?: { id: string; parentId: string | null }[]) => list?.map((i) => `${i.id}:${i.parentId ?? '-'}`);

  it('moves an item into a chapter, between items of another, or to the top', () => {
    expect(order(dropped(tree, 'd', '1', true, false))).toEqual(['1:-', 'd:1', 'a:1', 'b:1', '2:-', 'c:2']);
    expect(order(dropped(tree, 'a', 'c', false, true))).toEqual(['1:-', 'b:1', '2:-', 'c:2', 'a:2', 'd:-']);
    expect(order(dropped(tree, 'c', '1', false, false))).toEqual(['c:-', '1:-', 'a:1', 'b:1', '2:-', 'd:-']);
  });

  it('moves a chapter with its items, and never into another chapter', () => {
    expect(order(dropped(tree, '2', '1', false, false))).toEqual(['2:-', 'c:2', '1:-', 'a:1', 'b:1', 'd:-']);
    expect(dropped(tree, '2', '1', true, false)).toBeUndefined();
    expect(dropped(tree, '2', 'a', false, true)).toBeUndefined();
    expect(dropped(tree, 'a', 'd', true, false)).toBeUndefined();
  });
});

// the course category tree: 岗前培训 (5) under 公共课程 (4)
const node = (id: string, name: string, parentId: string | null, hasChildren = false) =>
  aTaxonomyNode(id, name, parentId, { hasChildren, courseCount: 1 });
const tree = {
  'GET /api/teaching/course-category/tree': (call: { query: Record<string, string> }) => ({
    body:
      call.query.parentId === '4'
        ? [node('5', '岗前培训', '4')]
        : call.query.parentId
          ? []
          : [node('4', '公共课程', null, true)],
  }),
};

describe('/teach/course/list', () => {
  it("shows each course's category; a category of the search lists its courses and its sub-categories'", async () => {
    const api = fakeApi({ ...tree, 'GET /api/teaching/course': () => page([aCourse()]) });
    render(renderApp({ store, access: grant(codes), children: <CourseListPage /> }).tree);
    const row = (await screen.findByText('新职工入职培训')).closest('tr') as HTMLElement;
    expect(within(row).getByText('岗前培训')).toBeInTheDocument();
    fireEvent.mouseDown(within(screen.getByTestId('course-category-filter')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('公共课程', { selector: '.ant-select-tree-title' }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.path === '/api/teaching/course' && c.query.categoryId === '4')).toBe(true),
    );
  });

  it('edits the category on the tree, showing the one it has', async () => {
    const api = fakeApi({
      ...tree,
      'GET /api/teaching/course': () => page([aCourse({ status: 'draft' })]),
      'GET /api/teaching/course/1': () => ({ body: aCourse({ status: 'draft' }) }),
      'PUT /api/teaching/course/1': (call) => ({ body: aCourse({ ...(call.body as object), id: '1', version: 5 }) }),
      'GET /api/people/trainee-type.*': () => page([]),
      'GET /api/assess/paper': () => page([]),
    });
    render(renderApp({ store, access: grant(codes), children: <CourseListPage /> }).tree);
    const row = (await screen.findByText('新职工入职培训')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-edit'));
    const drawer = await screen.findByRole('dialog');
    const picker = await within(drawer).findByTestId('course-category');
    expect(within(picker).getByText('岗前培训')).toBeInTheDocument();
    fireEvent.mouseDown(within(picker).getByRole('combobox'));
    fireEvent.click(await screen.findByText('公共课程', { selector: '.ant-select-tree-title' }));
    fireEvent.click(within(drawer).getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/teaching/course/1')).toHaveLength(1));
    expect(api.find('PUT', '/api/teaching/course/1')[0].body).toMatchObject({ categoryId: '4', version: 4 });
  });

  it('finds the final paper by code or title among the published papers', async () => {
    const api = fakeApi({
      ...tree,
      'GET /api/teaching/course': () => page([aCourse({ status: 'draft' })]),
      'GET /api/teaching/course/1': () => ({ body: aCourse({ status: 'draft' }) }),
      'GET /api/people/trainee-type.*': () => page([]),
      'GET /api/assess/paper': (call) =>
        page(
          call.query.keyword === 'P250'
            ? [{ id: '250', code: 'P250', title: '结业考核' }]
            : [{ id: '1', code: 'P1', title: '入门' }],
        ),
    });
    render(renderApp({ store, access: grant(codes), children: <CourseListPage /> }).tree);
    const row = (await screen.findByText('新职工入职培训')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-edit'));
    const drawer = await screen.findByRole('dialog');
    const field = (await within(drawer).findByText('结课试卷')).closest('.ant-form-item') as HTMLElement;
    const input = within(field).getByRole('combobox');
    fireEvent.mouseDown(input);
    fireEvent.change(input, { target: { value: 'P250' } });
    await waitFor(() =>
      expect(api.find('GET', '/api/assess/paper').some((c) => c.query.keyword === 'P250')).toBe(true),
    );
    expect(
      await screen.findByText(
        (_, el) =>
          el?.classList.contains('ant-select-item-option-content') === true && el.textContent === 'P250 结业考核',
      ),
    ).toBeInTheDocument();
    const asked = api.find('GET', '/api/assess/paper').map((c) => c.query);
    expect(asked).toContainEqual(expect.objectContaining({ status: 'published', keyword: 'P250' }));
    expect(asked.every((q) => Number(q.pageSize) <= 200)).toBe(true);
  });

  it('manages the category tree from the list, given the permission', async () => {
    const api = fakeApi({ ...tree, 'GET /api/teaching/course': () => page([aCourse()]) });
    render(renderApp({ store, access: grant(codes), children: <CourseListPage /> }).tree);
    fireEvent.click(await screen.findByTestId('manage-course-categories'));
    const drawer = await screen.findByTestId('taxonomy-course');
    expect(await within(drawer).findByText('公共课程')).toBeInTheDocument();
    expect(within(drawer).getByText('管理分类')).toBeInTheDocument();
    expect(api.find('GET', '/api/teaching/course-category/tree').length).toBeGreaterThan(0);
  });

  it('offers no category management without its permission', async () => {
    fakeApi({ ...tree, 'GET /api/teaching/course': () => page([aCourse()]) });
    const granted = codes.filter((c) => c !== 'teaching:course-category:manage');
    render(renderApp({ store, access: grant(granted), children: <CourseListPage /> }).tree);
    await screen.findByText('新职工入职培训');
    expect(screen.queryByTestId('manage-course-categories')).toBeNull();
  });

  it('assigns a published course to its audience after a confirmation, saying how many were enrolled', async () => {
    const api = fakeApi({
      'GET /api/teaching/course': () => page([aCourse(), aCourse({ id: '2', status: 'draft', title: '临床技能' })]),
      'POST /api/teaching/course/1/assign': () => ({ body: { enrolled: 12, course: aCourse({ version: 5 }) } }),
      'POST /api/teaching/course/2/publish': () => ({ body: aCourse({ id: '2' }) }),
    });
    render(renderApp({ store, access: grant(codes), children: <CourseListPage /> }).tree);
    const published = (await screen.findByText('新职工入职培训')).closest('tr') as HTMLElement;
    expect(within(published).queryByTestId('course-publish')).toBeNull();
    fireEvent.click(within(published).getByTestId('course-assign'));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    expect(await screen.findByText('新加入 12 名学员')).toBeInTheDocument();
    expect(api.find('POST', '/api/teaching/course/1/assign')[0].body).toEqual({ version: 4 });
    const draft = screen.getByText('临床技能').closest('tr') as HTMLElement;
    expect(within(draft).queryByTestId('course-assign')).toBeNull();
    fireEvent.click(within(draft).getByTestId('course-publish'));
    await waitFor(() => expect(api.find('POST', '/api/teaching/course/2/publish')).toHaveLength(1));
  });
});

describe('/teach/course/item/:id/profile', () => {
  it("shows each trainee's progress and records a quiz taken on paper", async () => {
    const quiz = { ...item('7', 'quiz', 0), examPaperId: '3', examPaperTitle: '结课测验' };
    const api = fakeApi({
      'GET /api/teaching/course-item/7': () => ({ body: quiz }),
      'GET /api/teaching/course-item/7/progress': () => ({
        body: [
          {
            traineeId: '11',
            traineeName: '张三',
            traineeNo: 'R001',
            percent: 100,
            score: 2,
            completed: true,
            completedAt: '2026-11-20T00:00:00.000Z',
            updatedAt: '2026-11-20T00:00:00.000Z',
          },
          {
            traineeId: '12',
            traineeName: '李四',
            traineeNo: 'R002',
            percent: 0,
            score: null,
            completed: false,
            completedAt: null,
            updatedAt: null,
          },
        ],
      }),
      'POST /api/teaching/course-item/7/progress': () => ({ body: quiz }),
      'GET /api/system/audit-log': () => page([]),
    });
    renderAt(
      store,
      '/teach/course/item/7/profile',
      [{ path: '/teach/course/item/:id/profile', element: <CourseItemProfile /> }],
      codes,
    );
    await screen.findByTestId('progress-done-R001');
    // its paper opens the paper's profile
    expect(screen.getByTestId('item-paper-link')).toHaveAttribute('href', '/exam-paper/3/profile');
    expect(screen.getByTestId('item-paper-link')).toHaveTextContent('结课测验');
    expect(screen.getByTestId('item-progress')).toHaveTextContent('(1 / 2)');
    expect(screen.getByText(dayjs('2026-11-20T00:00:00.000Z').format('YYYY-MM-DD HH:mm:ss'))).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('progress-record'));
    fireEvent.mouseDown(await screen.findByRole('combobox'));
    fireEvent.click(await screen.findByText('李四 (R002)'));
    const score = screen.getAllByRole('spinbutton').at(-1) as HTMLElement;
    fireEvent.change(score, { target: { value: '1.5' } });
    fireEvent.click(screen.getByTestId('progress-submit'));
    await waitFor(() => expect(api.find('POST', '/api/teaching/course-item/7/progress')).toHaveLength(1));
    expect(api.find('POST', '/api/teaching/course-item/7/progress')[0].body).toEqual({
      traineeId: '12',
      percent: 100,
      score: 1.5,
    });
  });
});

describe('/teach/course/item/:id/profile of a chapter', () => {
  it("shows a chapter's own fields, none of a content item's (its completion rule, file, paper, address)", async () => {
    const chapter = aCourseItem({ id: '8', itemType: 'chapter', title: '第一章', url: null });
    fakeApi({
      'GET /api/teaching/course-item/8': () => ({ body: chapter }),
      'GET /api/system/audit-log': () => page([]),
    });
    renderAt(
      store,
      '/teach/course/item/8/profile',
      [{ path: '/teach/course/item/:id/profile', element: <CourseItemProfile /> }],
      codes,
    );
    await screen.findByText('第一章', { selector: '.ant-descriptions-item-content, .ant-descriptions-item-content *' });
    const details = screen.getByTestId('resource-profile').querySelector('.ant-descriptions') as HTMLElement;
    expect(within(details).getByText('标题')).toBeInTheDocument();
    for (const label of ['完成要求（观看 %）', '必修', '试卷', '链接地址', '文件'])
      expect(within(details).queryByText(label)).toBeNull();
  });
});

/** A read the fake answers only when its query passes the server's own schema (a list page is 200 rows at most). */
const queried = (schema: z.ZodType, answer: (call: Call) => { status?: number; body?: unknown }) => (call: Call) => {
  const parsed = schema.safeParse(call.query);
  if (parsed.success) return answer(call);
  const fields = issuesToFields(parsed.error.issues, 'zh-CN', call.query);
  return {
    status: 400,
    body: { family: 'CLIENT_ERROR', code: 'common.validation', message: '请求参数不正确', fields },
  };
};

describe("a course's outline, where its items are managed", () => {
  // 250 items: more than a list page holds
  const many = [
    item('1', 'chapter', 0),
    item('2', 'chapter', 1),
    ...Array.from({ length: 248 }, (_, i) => item(String(100 + i), 'link', 2 + i, i < 2 ? '1' : null)),
  ];
  const routes = () => ({
    'GET /api/teaching/course-item/outline': queried(OutlineQuery, (call) => ({
      body: call.query.courseId === '1' ? many : [],
    })),
    'GET /api/teaching/course-item': queried(listQuerySchema(courseItemResource.list), () => page(many.slice(0, 10))),
    'GET /api/teaching/course/1': () => ({ body: aCourse() }),
    'GET /api/teaching/course/1/enrolments': () => ({ body: [] }),
    'GET /api/teaching/course': () => page([aCourse()]),
    'POST /api/teaching/course-item/reorder': () => ({ body: { moved: many.length } }),
    'GET /api/system/audit-log': () => page([]),
  });
  const treeNode = (title: string) => screen.getByText(title).closest('.ant-tree-treenode') as HTMLElement;

  it("shows every item of the course on its profile, and a drop into a chapter sends the course's new order", async () => {
    const api = fakeApi(routes());
    openCourse();
    const outlined = await screen.findByTestId('course-outline');
    expect(await within(outlined).findByText('内容347')).toBeInTheDocument();
    expect(api.find('GET', '/api/teaching/course-item/outline')[0].query).toEqual({ courseId: '1' });
    // the last item at the top, dropped onto chapter 2
    fireEvent.dragStart(treeNode('内容347'));
    fireEvent.dragEnter(treeNode('内容2'));
    fireEvent.dragOver(treeNode('内容2'));
    fireEvent.drop(treeNode('内容2'));
    await waitFor(() => expect(api.find('POST', '/api/teaching/course-item/reorder')).toHaveLength(1));
    const sent = api.find('POST', '/api/teaching/course-item/reorder')[0].body as {
      courseId: string;
      items: { id: string; parentId: string | null }[];
    };
    expect(sent.courseId).toBe('1');
    expect(sent.items).toHaveLength(many.length);
    expect(sent.items.find((i) => i.id === '347')).toEqual({ id: '347', parentId: '2' });
  });

  it("shows the outline above one course's item list, and offers its chapters in the item drawer", async () => {
    const api = fakeApi(routes());
    openItems();
    const outlined = await screen.findByTestId('course-outline');
    expect(await within(outlined).findByText('内容347')).toBeInTheDocument();
    fireEvent.click(await screen.findByTestId('table-create'));
    const drawer = await screen.findByRole('dialog');
    fireEvent.mouseDown(
      within(within(drawer).getByTestId('form-parentId').closest('.ant-select') as HTMLElement).getByRole('combobox'),
    );
    expect(await screen.findByText('内容1', { selector: '.ant-select-item-option-content' })).toBeInTheDocument();
    expect(screen.getByText('内容2', { selector: '.ant-select-item-option-content' })).toBeInTheDocument();
    expect(
      api.calls.filter(
        (c) => c.path === '/api/teaching/course-item' && c.query.pageSize && Number(c.query.pageSize) > 200,
      ),
    ).toEqual([]);
  });
});

describe('/teach/course/item/list', () => {
  it("keeps an item's release time in its drawer and shows it in the list", async () => {
    const released = { ...item('7', 'link', 0), availableFrom: '2026-12-08T00:00:00.000Z' };
    const api = fakeApi({
      'GET /api/teaching/course-item/outline': () => ({ body: [released] }),
      'GET /api/teaching/course-item': () => page([released]),
      'GET /api/teaching/course': () => page([aCourse()]),
      'GET /api/teaching/course/1': () => ({ body: aCourse() }),
      'PUT /api/teaching/course-item/7': () => ({ body: { ...released, version: 2 } }),
    });
    openItems();
    const row = (await screen.findByText('内容7', { selector: 'td *, td' })).closest('tr') as HTMLElement;
    expect(row).toHaveTextContent(/2026-12-08/);
    fireEvent.click(within(row).getByTestId('row-edit'));
    await screen.findByTestId('form-availableFrom');
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/teaching/course-item/7')).toHaveLength(1));
    expect(api.find('PUT', '/api/teaching/course-item/7')[0].body).toMatchObject({
      availableFrom: '2026-12-08T00:00:00.000Z',
      version: 1,
    });
  }, 120_000);
});

describe('/teach/course/:id/profile', () => {
  const enrolment = (traineeNo: string, traineeName: string, status: string, progressPercent: number) => ({
    id: traineeNo,
    traineeId: traineeNo,
    traineeName,
    traineeNo,
    traineeTypeName: '住院医师',
    baseName: '住培基地',
    source: 'assigned',
    progressPercent,
    status,
    completedAt: status === 'completed' ? '2026-11-20T00:00:00.000Z' : null,
  });
  const open = (extra: Partial<Course> = {}, more: Parameters<typeof fakeApi>[0] = {}) => {
    const api = fakeApi({
      ...more,
      'GET /api/teaching/course/1': () => ({ body: aCourse(extra) }),
      'GET /api/teaching/course/1/enrolments': () => ({
        body: [
          enrolment('R001', '张三', 'completed', 100),
          enrolment('R002', '李四', 'in_progress', 50),
          enrolment('R003', '王五', 'not_started', 0),
        ],
      }),
      'GET /api/teaching/course-item/outline': () => ({ body: [item('7', 'link', 0)] }),
      'POST /api/teaching/course/1/offline': () => ({ body: aCourse({ ...extra, status: 'offline', version: 5 }) }),
      'GET /api/system/audit-log': () => page([]),
      ...more,
    });
    openCourse();
    return api;
  };

  it('shows whom the course is for: trainee types, bases and cohorts', async () => {
    open({ audienceOrgNames: ['住培基地', '专科基地'], audienceCohortYears: [2025, 2026] });
    const shown = async (label: string) => {
      const cell = (
        await screen.findByText(label, { selector: '.ant-descriptions-item-label, .ant-descriptions-item-label *' })
      ).closest('.ant-descriptions-item-label') as HTMLElement;
      return cell.nextElementSibling ?? cell.parentElement;
    };
    expect(await shown('分配学员类型')).toHaveTextContent('住院医师');
    expect(await shown('分配学员所在基地')).toHaveTextContent('住培基地, 专科基地');
    expect(await shown('分配年级')).toHaveTextContent('2025, 2026');
  });

  it('edits the course from its profile, and shows it as saved', async () => {
    let saved = false;
    const api = open(
      {},
      {
        ...tree,
        'GET /api/teaching/course/1': () => ({ body: aCourse(saved ? { title: '新职工培训', version: 5 } : {}) }),
        'PUT /api/teaching/course/1': (call) => {
          saved = true;
          return { body: aCourse({ ...(call.body as object), id: '1', version: 5 }) };
        },
        'GET /api/people/trainee-type.*': () => page([]),
        'GET /api/assess/paper': () => page([]),
      },
    );
    fireEvent.click(await screen.findByTestId('course-profile-edit'));
    const drawer = await screen.findByRole('dialog');
    fireEvent.change(await within(drawer).findByDisplayValue('新职工入职培训'), { target: { value: '新职工培训' } });
    fireEvent.click(within(drawer).getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/teaching/course/1')).toHaveLength(1));
    expect(api.find('PUT', '/api/teaching/course/1')[0].body).toMatchObject({ title: '新职工培训', version: 4 });
    // the drawer closes and the profile reads the course again
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(screen.getByTestId('resource-profile')).findByText('新职工培训')).toBeInTheDocument();
  });

  it('offers no edit of an archived course', async () => {
    open({ status: 'archived' });
    await screen.findByTestId('course-enrolments');
    expect(screen.queryByTestId('course-profile-edit')).toBeNull();
  });

  it('takes the course offline only once confirmed', async () => {
    const api = open();
    fireEvent.click(await screen.findByTestId('course-profile-offline'));
    expect(await screen.findByText(/下架后学员将看不到该课程/)).toBeInTheDocument();
    expect(api.find('POST', '/api/teaching/course/1/offline')).toHaveLength(0);
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(api.find('POST', '/api/teaching/course/1/offline')).toHaveLength(1));
    expect(api.find('POST', '/api/teaching/course/1/offline')[0].body).toEqual({ version: 4 });
  });

  it('finds enrolments by name or number, and by status', async () => {
    open();
    const card = await screen.findByTestId('course-enrolments');
    await within(card).findByText('R003');
    expect(within(card).getByText(dayjs('2026-11-20T00:00:00.000Z').format('YYYY-MM-DD HH:mm:ss'))).toBeInTheDocument();
    const search = within(card).getByPlaceholderText('学员姓名或编号');
    fireEvent.change(search, { target: { value: '李四' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(within(card).queryByText('R001')).toBeNull());
    expect(within(card).getByText('R002')).toBeInTheDocument();
    fireEvent.change(search, { target: { value: '' } });
    await within(card).findByText('R001');
    fireEvent.mouseDown(
      within(within(card).getByTestId('enrolment-status').closest('.ant-select') as HTMLElement).getByRole('combobox'),
    );
    fireEvent.click(await screen.findByText('未开始', { selector: '.ant-select-item-option-content' }));
    await waitFor(() => expect(within(card).queryByText('R001')).toBeNull());
    expect(within(card).getByText('R003')).toBeInTheDocument();
    expect(within(card).queryByText('R002')).toBeNull();
  });

  it('enrols the trainees picked, saying how many; those enrolled already are not offered', async () => {
    const api = open(
      {},
      {
        'GET /api/people/trainee': () =>
          page([
            { id: '31', name: '周九', traineeNo: 'R031' },
            { id: 'R002', name: '李四', traineeNo: 'R002' },
          ]),
        'POST /api/teaching/course/1/enrol': () => ({ body: { count: 1, course: aCourse({ version: 5 }) } }),
      },
    );
    const card = await screen.findByTestId('course-enrolments');
    expect(within(card).getByTestId('enrolment-add')).toBeDisabled();
    fireEvent.mouseDown(
      within(within(card).getByTestId('enrolment-pick').closest('.ant-select') as HTMLElement).getByRole('combobox'),
    );
    const listed = await screen.findByText('李四 (R002) · 已在名单中', { selector: '.ant-select-item-option-content' });
    expect(listed.closest('.ant-select-item-option')).toHaveClass('ant-select-item-option-disabled');
    fireEvent.click(await screen.findByText('周九 (R031)', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(within(card).getByTestId('enrolment-add'));
    expect(await screen.findByText('新加入 1 名学员')).toBeInTheDocument();
    expect(api.find('POST', '/api/teaching/course/1/enrol')[0].body).toEqual({ traineeIds: ['31'] });
    // trainees in training are offered
    expect(api.find('GET', '/api/people/trainee')[0].query.status).toBe('in_training,extended');
  });

  it('removes an enrolment only once confirmed, saying its progress goes; a completed one is not offered', async () => {
    const api = open(
      {},
      { 'POST /api/teaching/course/1/unenrol': () => ({ body: { count: 1, course: aCourse({ version: 5 }) } }) },
    );
    const card = await screen.findByTestId('course-enrolments');
    await within(card).findByText('R002');
    expect(within(card).queryByTestId('enrolment-remove-R001')).toBeNull();
    fireEvent.click(within(card).getByTestId('enrolment-remove-R002'));
    expect(await screen.findByText(/该学员已学习 50%/)).toBeInTheDocument();
    expect(api.find('POST', '/api/teaching/course/1/unenrol')).toHaveLength(0);
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(api.find('POST', '/api/teaching/course/1/unenrol')).toHaveLength(1));
    expect(api.find('POST', '/api/teaching/course/1/unenrol')[0].body).toEqual({ traineeIds: ['R002'] });
  });

  it('offers no enrolment by hand on a draft (its removal stays offered)', async () => {
    open({ status: 'draft' });
    const card = await screen.findByTestId('course-enrolments');
    await within(card).findByText('R002');
    expect(within(card).queryByTestId('enrolment-pick')).toBeNull();
    expect(within(card).getByTestId('enrolment-remove-R002')).toBeInTheDocument();
  });

  it("shows the course's open dates and how trainees come onto it", async () => {
    open({ availableFrom: '2026-12-01', availableTo: '2026-12-31', enrolMode: 'self_enrol' });
    await screen.findByTestId('course-enrolments');
    expect(await screen.findByText('学员自选')).toBeInTheDocument();
    expect(screen.getByText('2026-12-01')).toBeInTheDocument();
    expect(screen.getByText('2026-12-31')).toBeInTheDocument();
  });

  it('shows when a dripped item is released, in the outline', async () => {
    fakeApi({
      'GET /api/teaching/course/1': () => ({ body: aCourse() }),
      'GET /api/teaching/course/1/enrolments': () => ({ body: [] }),
      'GET /api/teaching/course-item/outline': () => ({
        body: [{ ...item('7', 'link', 0), availableFrom: '2026-12-08T00:00:00.000Z' }, item('8', 'link', 1)],
      }),
      'GET /api/system/audit-log': () => page([]),
    });
    openCourse();
    expect(await screen.findByTestId('item-available-7')).toHaveTextContent(
      `${dayjs('2026-12-08T00:00:00.000Z').format('YYYY-MM-DD HH:mm:ss')} 开放`,
    );
    expect(screen.queryByTestId('item-available-8')).toBeNull();
  });
});
