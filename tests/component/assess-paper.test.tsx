import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import PaperListPage from '@/pages/assess/paper';
import type { Paper, PaperPreview } from '@/pages/assess/paper/descriptor';
import PaperEditPage from '@/pages/assess/paper/edit';
import PaperProfile from '@/pages/assess/paper/profile';
import { CreatePaper } from '../../server/src/modules/assess/paper/paper.resource';
import { fakeApi, validatedBy } from './fake-api';
import { freshStore, renderApp, seededSysCodes, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });
/** Waits long enough for a form's validation or a debounced request on a loaded machine. */
const slow = { timeout: 10_000 };

const grant = (list: string[]) => Object.fromEntries(list.map((c) => [c, true]));
const page = <Row,>(data: Row[]) => ({ body: { data, total: data.length, success: true, current: 1, pageSize: 10 } });
const codes = [
  ...['list', 'create', 'update', 'delete', 'export', 'publish', 'close', 'clone', 'export-word', 'export-pdf'].map(
    (a) => `assess:paper:${a}`,
  ),
  'assess:question:list',
];

const paper = (id: string, extra: Partial<Paper> = {}): Paper => ({
  id,
  code: `P${id}`,
  title: '心血管出科考核',
  purpose: 'department_exit',
  composeMode: 'random_per_candidate',
  totalScore: 8,
  passScore: 5,
  durationMinutes: 90,
  shuffleQuestions: false,
  shuffleOptions: false,
  multiAnswerScoring: 'all_or_nothing',
  openAt: null,
  closeAt: null,
  maxAttempts: 0,
  gradeMethod: 'highest',
  navigation: 'free',
  overdueHandling: 'auto_submit',
  graceSeconds: null,
  showResult: 'after_close',
  reviewOptions: { answers: false, analysis: false, scores: true },
  antiCheat: { fullscreen: false, maxBlurCount: 0, disableCopyPaste: false, randomizePerCandidate: false },
  groupScoring: 'per_item',
  instructions: null,
  status: 'draft',
  publishedAt: null,
  questionCount: 4,
  sectionCount: 2,
  remark: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 3,
  sections: [
    {
      id: '11',
      title: 'A1 型题',
      instructions: null,
      defaultScore: 2,
      questionType: null,
      medicalFormat: null,
      shuffleQuestions: null,
      sequential: false,
      slots: [
        {
          questionId: '101',
          questionVersion: null,
          score: 2,
          code: 'Q00000101',
          stem: '首选的抗血小板药物是',
          questionType: 'single_choice',
          medicalFormat: 'A1',
          difficulty: 3,
          status: 'ready',
          childCount: 0,
          points: 2,
        },
      ],
      rules: [],
    },
    {
      id: '12',
      title: '随机题',
      instructions: null,
      defaultScore: 2,
      questionType: null,
      medicalFormat: null,
      shuffleQuestions: null,
      sequential: false,
      slots: [],
      rules: [
        {
          categoryIds: ['2'],
          includeSubcategories: true,
          knowledgePointIds: [],
          tags: [],
          tagMatch: 'any',
          questionType: null,
          medicalFormat: null,
          difficultyMin: 1,
          difficultyMax: 5,
          difficultyMix: null,
          count: 3,
          score: 2,
          excludeUsedWithinDays: null,
          // what the server says of the rule now: never sent back with it
          available: 5,
          availableCapped: true,
          together: { rules: [0], available: 5, requested: 3 },
        },
      ],
    },
  ],
  ...extra,
});

let store: TestStore;
beforeEach(() => {
  store = freshStore(seededSysCodes('common_status'));
});
afterEach(() => vi.unstubAllGlobals());

describe('/exam-paper/list', () => {
  it('publishes a draft after a confirmation, and clones a published paper into a draft it opens', async () => {
    const api = fakeApi({
      'GET /api/assess/paper': () =>
        page([paper('1'), paper('2', { status: 'published', code: 'P2', title: '已发布卷' })]),
      'POST /api/assess/paper/1/publish': () => ({ body: paper('1', { status: 'published' }) }),
      'POST /api/assess/paper/2/clone': (call) => ({ status: 201, body: paper('3', call.body as Partial<Paper>) }),
    });
    const app = renderApp({ store, access: grant(codes), children: <PaperListPage /> });
    render(app.tree);
    const draft = (await screen.findByText('心血管出科考核')).closest('tr') as HTMLElement;
    expect(within(draft).getByText('草稿')).toHaveClass('ant-tag');
    fireEvent.click(within(draft).getByTestId('paper-publish'));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(api.find('POST', '/api/assess/paper/1/publish')).toHaveLength(1));
    expect(api.find('POST', '/api/assess/paper/1/publish')[0].body).toEqual({ version: 3 });

    const published = screen.getByText('已发布卷').closest('tr') as HTMLElement;
    expect(within(published).queryByTestId('row-edit')).toBeNull();
    expect(within(published).queryByTestId('paper-publish')).toBeNull();
    fireEvent.click(within(published).getByTestId('paper-clone'));
    await waitFor(() => expect(screen.getByTestId('paper-clone-code')).toHaveValue('P2-2'));
    fireEvent.click(screen.getByTestId('paper-clone-submit'));
    await waitFor(() => expect(app.history.location.pathname).toBe('/exam-paper/edit/3'));
    expect(api.find('POST', '/api/assess/paper/2/clone')[0].body).toEqual({ code: 'P2-2', title: '已发布卷' });
  });
});

describe('/exam-paper/edit/:id', () => {
  it('shows each rule with how many questions it may draw, follows the totals, and saves the whole paper', async () => {
    const api = fakeApi({
      'GET /api/assess/paper/1': () => ({ body: paper('1') }),
      'GET /api/assess/category/tree': () => ({ body: [] }),
      'GET /api/assess/knowledge-point/tree': () => ({ body: [] }),
      'POST /api/assess/paper/check-rules': (call) => ({
        body: (call.body as { rules: { count: number }[] }).rules.map((r) => ({ requested: r.count, available: 4 })),
      }),
      'PUT /api/assess/paper/1': validatedBy(CreatePaper.partial().passthrough(), (call) => ({
        body: paper('1', call.body as Partial<Paper>),
      })),
    });
    const app = renderApp({
      store,
      access: grant(codes),
      initialPath: '/exam-paper/edit/1',
      routes: [
        { path: '/exam-paper/edit/:id', element: <PaperEditPage /> },
        { path: '/exam-paper/:id/profile', element: <div data-testid="landed" /> },
      ],
    });
    render(app.tree);
    await waitFor(() => expect(screen.getByTestId('paper-code')).toHaveValue('P1'));
    expect(await screen.findByText('可用 4 道')).toBeInTheDocument();
    expect(within(screen.getByTestId('paper-total')).getByText('8')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('rule-count'), { target: { value: '5' } });
    await waitFor(() =>
      expect(within(screen.getByTestId('rule-available')).getByText('可用 4 道')).toHaveClass('ant-tag-error'),
    );
    expect(within(screen.getByTestId('paper-total')).getByText('12')).toBeInTheDocument();
    await waitFor(() =>
      expect(api.find('POST', '/api/assess/paper/check-rules').at(-1)?.body).toMatchObject({
        rules: [{ count: 5, categoryIds: ['2'] }],
        excludeQuestionIds: ['101'],
      }),
    );
    fireEvent.click(screen.getByTestId('paper-save'));
    await screen.findByTestId('landed');
    const body = api.find('PUT', '/api/assess/paper/1')[0].body as Record<string, unknown>;
    expect(body).toMatchObject({
      version: 3,
      sections: [
        { title: 'A1 型题', slots: [{ questionId: '101', score: 2 }] },
        { title: '随机题', rules: [{ count: 5, score: 2, categoryIds: ['2'] }] },
      ],
    });
    expect((body.sections as { slots: object[] }[])[0].slots[0]).toEqual({ questionId: '101', score: 2 });
  });
});

describe('/exam-paper/edit/:id, a rule that may draw case analysis', () => {
  it('answers the paper in order when the availability says a rule of no type may draw a case analysis', async () => {
    let mayDraw = false;
    const api = fakeApi({
      'GET /api/assess/paper/1': () => ({ body: paper('1') }),
      'GET /api/assess/category/tree': () => ({ body: [] }),
      'GET /api/assess/knowledge-point/tree': () => ({ body: [] }),
      'POST /api/assess/paper/check-rules': (call) => ({
        body: (call.body as { rules: { count: number }[] }).rules.map((r) => ({
          requested: r.count,
          available: 4,
          ...(mayDraw && { caseAnalysis: true }),
        })),
      }),
      'PUT /api/assess/paper/1': validatedBy(CreatePaper.partial().passthrough(), (call) => ({
        body: paper('1', call.body as Partial<Paper>),
      })),
    });
    render(
      renderApp({
        store,
        access: grant(codes),
        initialPath: '/exam-paper/edit/1',
        routes: [
          { path: '/exam-paper/edit/:id', element: <PaperEditPage /> },
          { path: '/exam-paper/:id/profile', element: <div data-testid="landed" /> },
        ],
      }).tree,
    );
    expect(await screen.findByText('可用 4 道', {}, slow)).toBeInTheDocument();
    const navigation = screen.getByTestId('paper-navigation');
    // its pool holds none: free is a choice
    await waitFor(() => expect(api.find('POST', '/api/assess/paper/check-rules')).toHaveLength(1), slow);
    expect(within(navigation).getByRole('radio', { name: '自由跳转' })).toBeChecked();
    expect(within(navigation).getByRole('radio', { name: '自由跳转' })).not.toBeDisabled();

    // the bank answers that the rule, now asking more, may draw one
    mayDraw = true;
    fireEvent.change(screen.getByTestId('rule-count'), { target: { value: '4' } });
    await waitFor(
      () => expect(within(navigation).getByRole('radio', { name: '按顺序，不能返回' })).toBeChecked(),
      slow,
    );
    expect(within(navigation).getByRole('radio', { name: '自由跳转' })).toBeDisabled();
    expect(screen.getByTestId('paper-delivery')).toHaveTextContent('含（或可能抽到）案例分析题，须按顺序作答');
    fireEvent.click(screen.getByTestId('paper-save'));
    await screen.findByTestId('landed', {}, slow);
    expect(api.find('PUT', '/api/assess/paper/1')[0].body).toMatchObject({ navigation: 'sequential' });
  });
});

describe('/exam-paper/edit/:id, drag to order', () => {
  it('drags a question and a section into another place (the arrows stay), and saves that order', async () => {
    const base = paper('1');
    const sections = base.sections as NonNullable<Paper['sections']>;
    const first = sections[0] as (typeof sections)[number];
    const slot = first.slots[0] as (typeof first.slots)[number];
    const withTwo = paper('1', {
      sections: [
        { ...first, slots: [slot, { ...slot, questionId: '102', code: 'Q00000102', stem: '第二道题' }] },
        sections[1] as (typeof sections)[number],
      ],
    });
    const api = fakeApi({
      'GET /api/assess/paper/1': () => ({ body: withTwo }),
      'GET /api/assess/category/tree': () => ({ body: [] }),
      'GET /api/assess/knowledge-point/tree': () => ({ body: [] }),
      'POST /api/assess/paper/check-rules': (call) => ({
        body: (call.body as { rules: { count: number }[] }).rules.map((r) => ({ requested: r.count, available: 9 })),
      }),
      'PUT /api/assess/paper/1': validatedBy(CreatePaper.partial().passthrough(), (call) => ({
        body: paper('1', call.body as Partial<Paper>),
      })),
    });
    const app = renderApp({
      store,
      access: grant(codes),
      initialPath: '/exam-paper/edit/1',
      routes: [
        { path: '/exam-paper/edit/:id', element: <PaperEditPage /> },
        { path: '/exam-paper/:id/profile', element: <div data-testid="landed" /> },
      ],
    });
    render(app.tree);
    await waitFor(() => expect(screen.getAllByTestId('slot-stem').map((e) => e.textContent)).toHaveLength(2), slow);
    const drag = (handle: HTMLElement, onto: HTMLElement) => {
      fireEvent.dragStart(handle);
      fireEvent.dragOver(onto);
      fireEvent.drop(onto);
      fireEvent.dragEnd(handle);
    };
    drag(screen.getAllByTestId('slot-drag')[1] as HTMLElement, screen.getAllByTestId('slot-row')[0] as HTMLElement);
    await waitFor(
      () =>
        expect(screen.getAllByTestId('slot-stem').map((e) => e.textContent)).toEqual([
          '第二道题',
          '首选的抗血小板药物是',
        ]),
      slow,
    );
    drag(
      screen.getAllByTestId('section-drag')[1] as HTMLElement,
      screen.getAllByTestId('paper-section')[0] as HTMLElement,
    );
    await waitFor(
      () =>
        expect(screen.getAllByTestId('section-title').map((e) => (e as HTMLInputElement).value)).toEqual([
          '随机题',
          'A1 型题',
        ]),
      slow,
    );
    fireEvent.click(screen.getByTestId('paper-save'));
    await screen.findByTestId('landed', {}, slow);
    expect(api.find('PUT', '/api/assess/paper/1')[0].body).toMatchObject({
      sections: [{ title: '随机题' }, { title: 'A1 型题', slots: [{ questionId: '102' }, { questionId: '101' }] }],
    });
  });
});

describe('/exam-paper/edit/:id, the rules together', () => {
  /** The paper of two sections drawing 3 each from the same category, on its edit screen. */
  const open = () => {
    const rule = { ...(paper('1').sections?.[1]?.rules[0] as object), available: undefined };
    const two = paper('1', {
      sections: [
        { ...(paper('1').sections?.[1] as NonNullable<Paper['sections']>[number]), id: '21', rules: [rule as never] },
        { ...(paper('1').sections?.[1] as NonNullable<Paper['sections']>[number]), id: '22', rules: [rule as never] },
      ],
    });
    type Asked = { rules: { count: number; difficultyMix?: Record<string, number> | null }[] };
    const api = fakeApi({
      'GET /api/assess/paper/1': () => ({ body: two }),
      'GET /api/assess/category/tree': () => ({ body: [] }),
      'GET /api/assess/knowledge-point/tree': () => ({ body: [] }),
      'POST /api/assess/paper/check-rules': (call) => ({
        body: (call.body as Asked).rules.map((r) => ({
          requested: r.count,
          available: 3,
          ...(r.difficultyMix ? { levels: { 1: 2, 3: 0 } } : {}),
          ...((call.body as Asked).rules.length > 1 && !r.difficultyMix
            ? { together: { rules: [0, 1], available: 3, requested: 6 } }
            : {}),
        })),
      }),
      'PUT /api/assess/paper/1': validatedBy(CreatePaper.partial().passthrough(), (call) => ({
        body: paper('1', call.body as Partial<Paper>),
      })),
    });
    const app = renderApp({
      store,
      access: grant(codes),
      initialPath: '/exam-paper/edit/1',
      routes: [
        { path: '/exam-paper/edit/:id', element: <PaperEditPage /> },
        { path: '/exam-paper/:id/profile', element: <div data-testid="landed" /> },
      ],
    });
    render(app.tree);
    return api;
  };

  it('says when the rules together cannot be met, and shows how many questions each level of a mix has', async () => {
    const api = open();
    await waitFor(() => expect(screen.getAllByTestId('paper-rule')).toHaveLength(2), slow);
    // one request for the paper's rules, each told it shares its questions with the other
    const alerts = await screen.findAllByTestId('rule-together', {}, slow);
    expect(alerts).toHaveLength(2);
    expect(alerts[0]).toHaveTextContent('与第 2 部分第 1 条规则共用的可用题目只有 3 道，合计要抽 6 道');
    expect(alerts[1]).toHaveTextContent('第 1 部分第 1 条规则');
    expect(api.find('POST', '/api/assess/paper/check-rules').at(-1)?.body).toMatchObject({
      rules: [{ count: 3 }, { count: 3 }],
    });

    // the first rule draws a mix: 2 of level 1 and 1 of level 3, and level 3 has none
    const first = screen.getAllByTestId('paper-rule')[0] as HTMLElement;
    fireEvent.click(within(first).getByText('按难度配比'));
    fireEvent.change(within(first).getByTestId('rule-mix-3'), { target: { value: '1' } });
    fireEvent.change(within(first).getByTestId('rule-mix-1'), { target: { value: '1' } });
    await waitFor(
      () =>
        expect(api.find('POST', '/api/assess/paper/check-rules').at(-1)?.body).toMatchObject({
          rules: [
            { count: 3, difficultyMix: { 1: 1, 3: 1 } },
            { count: 3, difficultyMix: null },
          ],
        }),
      slow,
    );
    expect(await within(first).findByTestId('rule-mix-available-3', {}, slow)).toHaveTextContent('可用 0');
    expect(within(first).getByTestId('rule-mix-available-3')).toHaveClass('ant-typography-danger');
  });

  it('checks the mix and the pass mark before saving, sets the multiple-answer scoring, and confirms removing a section', async () => {
    const api = open();
    await waitFor(() => expect(screen.getAllByTestId('paper-rule')).toHaveLength(2), slow);
    const first = screen.getAllByTestId('paper-rule')[0] as HTMLElement;
    fireEvent.click(within(first).getByText('按难度配比'));
    fireEvent.change(within(first).getByTestId('rule-mix-3'), { target: { value: '1' } });
    fireEvent.change(within(first).getByTestId('rule-mix-1'), { target: { value: '1' } });
    // the levels must add up to the count, and the pass mark be within the total: said before anything is sent
    fireEvent.change(screen.getByTestId('paper-pass'), { target: { value: '100' } });
    fireEvent.click(screen.getByTestId('paper-save'));
    expect(await screen.findByText('各难度题数之和（2）须等于抽题数（3）', {}, slow)).toBeInTheDocument();
    expect(await screen.findByText('及格分不能高于总分（12）', {}, slow)).toBeInTheDocument();
    expect(api.find('PUT', '/api/assess/paper/1')).toHaveLength(0);

    fireEvent.change(within(first).getByTestId('rule-mix-1'), { target: { value: '2' } });
    fireEvent.change(screen.getByTestId('paper-pass'), { target: { value: '6' } });
    fireEvent.mouseDown(within(screen.getByTestId('paper-scoring')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('少选得部分分', { selector: '.ant-select-item-option-content' }));

    // a section that holds rules is removed only after a confirmation
    const head = (screen.getAllByTestId('paper-section')[1] as HTMLElement).querySelector(
      '.ant-card-head',
    ) as HTMLElement;
    fireEvent.click(head.querySelector('button[aria-label="删除"]') as HTMLElement);
    expect(await screen.findByText('删除该部分及其中的题目和抽题规则？', {}, slow)).toBeInTheDocument();
    expect(screen.getAllByTestId('paper-section')).toHaveLength(2);
    fireEvent.click(document.querySelector('.ant-popconfirm .ant-btn-primary') as HTMLElement);
    await waitFor(() => expect(screen.getAllByTestId('paper-section')).toHaveLength(1), slow);

    fireEvent.click(screen.getByTestId('paper-save'));
    await screen.findByTestId('landed', {}, slow);
    expect(api.find('PUT', '/api/assess/paper/1')[0].body).toMatchObject({
      passScore: 6,
      multiAnswerScoring: 'partial_no_wrong',
      sections: [{ rules: [{ count: 3, difficultyMix: { 1: 2, 3: 1 } }] }],
    });
  });
});

describe('/exam-paper/:id/profile', () => {
  it("shows the questions' images in the candidate's preview (and its printout), from the links the preview brings", async () => {
    const link = (id: string, name: string) => ({
      id,
      name,
      mimeType: 'image/png',
      sizeBytes: 10,
      previewUrl: `/files/${name}`,
      downloadUrl: `/files/${name}?download`,
      expiresAt: '2026-12-01T00:00:00.000Z',
    });
    const preview: PaperPreview = {
      seed: 1,
      totalScore: 2,
      sections: [
        {
          title: 'A1 型题',
          instructions: null,
          sequential: false,
          questions: [
            {
              id: '101',
              code: 'Q101',
              version: 1,
              score: 2,
              drawn: false,
              itemScore: null,
              questionType: 'single_choice',
              medicalFormat: 'A1',
              stem: '心电图如下，诊断是',
              stemMediaFileIds: ['31'],
              options: 'ABCDE'
                .split('')
                .map((key) => ({ key, text: `诊断${key}`, ...(key === 'B' && { mediaIds: ['32'] }) })),
              answer: ['B'],
              analysis: null,
              children: [],
            },
          ],
        },
      ],
      media: [link('31', 'ecg.png'), link('32', 'flutter.png')],
    };
    fakeApi({
      'GET /api/assess/paper/1': () => ({ body: paper('1', { status: 'published' }) }),
      'GET /api/assess/paper/1/preview': () => ({ body: preview }),
      'GET /api/system/audit.*': () => page([]),
    });
    render(
      renderApp({
        store,
        access: grant(codes),
        initialPath: '/exam-paper/1/profile',
        routes: [{ path: '/exam-paper/:id/profile', element: <PaperProfile /> }],
      }).tree,
    );
    const shown = within(await screen.findByTestId('paper-preview'));
    expect(await shown.findByRole('img', { name: 'ecg.png' })).toHaveAttribute('src', '/files/ecg.png');
    expect(shown.getByRole('img', { name: 'flutter.png' })).toHaveAttribute('src', '/files/flutter.png');
  });

  it('previews the paper as a candidate gets it, drawing again on request', async () => {
    const preview = (seed: number): PaperPreview => ({
      seed,
      totalScore: 8,
      sections: [
        {
          title: 'A1 型题',
          instructions: null,
          sequential: false,
          questions: [
            {
              id: String(100 + seed),
              code: `Q${seed}`,
              version: 1,
              score: 2,
              drawn: seed > 0,
              itemScore: null,
              questionType: 'true_false',
              medicalFormat: null,
              stem: `第 ${seed} 次抽到的题`,
              options: null,
              answer: true,
              analysis: null,
              children: [],
            },
          ],
        },
      ],
    });
    const api = fakeApi({
      'GET /api/assess/paper/1': () => ({ body: paper('1', { status: 'published' }) }),
      'GET /api/assess/paper/1/preview': (call) => ({ body: preview(Number(call.query.seed)) }),
      'GET /api/assess/paper/1/export-word': () => ({ body: {} }),
      'GET /api/assess/paper/1/export-pdf': () => ({ body: {} }),
      'GET /api/system/audit.*': () => page([]),
    });
    render(
      renderApp({
        store,
        access: grant(codes),
        initialPath: '/exam-paper/1/profile',
        routes: [{ path: '/exam-paper/:id/profile', element: <PaperProfile /> }],
      }).tree,
    );
    expect(await screen.findByText('第 1 次抽到的题')).toBeInTheDocument();
    expect(within(screen.getByTestId('paper-structure')).getByText('Q00000101')).toBeInTheDocument();
    expect(screen.queryByTestId('paper-profile-publish')).toBeNull();
    fireEvent.click(screen.getByTestId('paper-redraw'));
    expect(await screen.findByText('第 2 次抽到的题')).toBeInTheDocument();
    expect(api.find('GET', '/api/assess/paper/1/preview').map((c) => c.query.seed)).toEqual(['1', '2']);

    // the Word document of the draw shown, with the key as the switch says
    const createObjectURL = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    fireEvent.click(screen.getByTestId('paper-preview-key'));
    fireEvent.click(screen.getByTestId('paper-export-word'));
    await waitFor(() => expect(api.find('GET', '/api/assess/paper/1/export-word')).toHaveLength(1));
    expect(api.find('GET', '/api/assess/paper/1/export-word')[0].query).toEqual({
      seed: '2',
      answers: 'true',
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    // and the same draw as a PDF, now without the key
    fireEvent.click(screen.getByTestId('paper-preview-key'));
    fireEvent.click(screen.getByTestId('paper-export-pdf'));
    await waitFor(() => expect(api.find('GET', '/api/assess/paper/1/export-pdf')).toHaveLength(1));
    expect(api.find('GET', '/api/assess/paper/1/export-pdf')[0].query).toMatchObject({ seed: '2', answers: 'false' });
  });

  it('publishes and closes after a confirmation, clones, and summarises each rule', async () => {
    const mixed = paper('1');
    const rules = mixed.sections?.[1]?.rules as NonNullable<Paper['sections']>[number]['rules'];
    rules[0] = {
      ...(rules[0] as (typeof rules)[number]),
      knowledgePointIds: ['7'],
      medicalFormat: 'A2',
      difficultyMix: { 1: 1, 4: 2 },
    };
    const api = fakeApi({
      'GET /api/assess/paper/1': () => ({ body: mixed }),
      'GET /api/assess/paper/1/preview': (call) => ({
        body: { seed: Number(call.query.seed), totalScore: 8, sections: [] },
      }),
      'GET /api/assess/category/2': () => ({ body: { id: '2', name: '心血管' } }),
      'GET /api/assess/knowledge-point/7': () => ({ body: { id: '7', name: '心力衰竭' } }),
      'POST /api/assess/paper/1/publish': () => ({ body: paper('1', { status: 'published', version: 4 }) }),
      'POST /api/assess/paper/1/clone': (call) => ({ status: 201, body: paper('9', call.body as Partial<Paper>) }),
      'GET /api/system/audit.*': () => page([]),
    });
    const app = renderApp({
      store,
      access: grant(codes),
      initialPath: '/exam-paper/1/profile',
      routes: [
        { path: '/exam-paper/:id/profile', element: <PaperProfile /> },
        { path: '/exam-paper/edit/:id', element: <div data-testid="landed-edit" /> },
      ],
    });
    render(app.tree);
    const summary = await screen.findByTestId('paper-rule-summary', {}, slow);
    await waitFor(
      () => expect(within(summary).getByTestId('rule-summary-categories')).toHaveTextContent('心血管'),
      slow,
    );
    expect(within(summary).getByTestId('rule-summary-categories')).toHaveTextContent('含子分类');
    expect(within(summary).getByTestId('rule-summary-points')).toHaveTextContent('心力衰竭');
    expect(within(summary).getByText('A2')).toBeInTheDocument();
    expect(within(summary).getByTestId('rule-summary-difficulty')).toHaveTextContent('难度 1 × 1，难度 4 × 2');

    fireEvent.click(screen.getByTestId('paper-profile-publish'));
    expect(api.find('POST', '/api/assess/paper/1/publish')).toHaveLength(0);
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(api.find('POST', '/api/assess/paper/1/publish')).toHaveLength(1), slow);

    fireEvent.click(screen.getByTestId('paper-profile-clone'));
    await waitFor(() => expect(screen.getByTestId('paper-clone-code')).toHaveValue('P1-2'), slow);
    fireEvent.click(screen.getByTestId('paper-clone-submit'));
    await waitFor(() => expect(app.history.location.pathname).toBe('/exam-paper/edit/9'), slow);
  });
});

describe('/exam-paper/edit/:id, delivery settings and groups', () => {
  const base = paper('1');
  const first = (base.sections as NonNullable<Paper['sections']>)[0] as NonNullable<Paper['sections']>[number];
  const slot = first.slots[0] as (typeof first.slots)[number];
  const grouped = paper('1', {
    composeMode: 'manual',
    sections: [
      {
        ...first,
        slots: [
          { ...slot, questionId: '201', code: 'Q201', stem: '病例组', questionType: 'case_group', childCount: 3 },
          {
            ...slot,
            questionId: '202',
            code: 'Q202',
            stem: '案例分析',
            questionType: 'case_analysis',
            childCount: 2,
            score: 1,
          },
        ],
      },
    ],
  });

  const open = () => {
    const api = fakeApi({
      'GET /api/assess/paper/1': () => ({ body: grouped }),
      'GET /api/assess/category/tree': () => ({ body: [] }),
      'GET /api/assess/knowledge-point/tree': () => ({ body: [] }),
      'GET /api/assess/question': () => page([]),
      'GET /api/assess/question/tags': () => ({ body: [] }),
      'PUT /api/assess/paper/1': validatedBy(CreatePaper.partial().passthrough(), (call) => ({
        body: paper('1', call.body as Partial<Paper>),
      })),
    });
    render(
      renderApp({
        store,
        access: grant(codes),
        initialPath: '/exam-paper/edit/1',
        routes: [
          { path: '/exam-paper/edit/:id', element: <PaperEditPage /> },
          { path: '/exam-paper/:id/profile', element: <div data-testid="landed" /> },
        ],
      }).tree,
    );
    return api;
  };
  const choose = async (testId: string, label: string) => {
    fireEvent.mouseDown(within(screen.getByTestId(testId)).getByRole('combobox'));
    const options = await screen.findAllByText(label, { selector: '.ant-select-item-option-content' }, slow);
    fireEvent.click(options.at(-1) as HTMLElement);
  };

  it('scores groups as the setting says, holds case analysis to sequential, and picks only the section type', async () => {
    const api = open();
    await waitFor(() => expect(screen.getAllByTestId('slot-stem')).toHaveLength(2), slow);
    // each item scores the slot's score: 2 × 3 + 1 × 2
    expect(within(screen.getByTestId('paper-total')).getByText('8')).toBeInTheDocument();
    expect(screen.getAllByTestId('slot-points')[0]).toHaveTextContent('× 3 小题 = 6 分');
    // a paper holding case analysis is answered in order
    const navigation = screen.getByTestId('paper-navigation');
    await waitFor(
      () => expect(within(navigation).getByRole('radio', { name: '按顺序，不能返回' })).toBeChecked(),
      slow,
    );
    expect(within(navigation).getByRole('radio', { name: '自由跳转' })).toBeDisabled();

    await choose('paper-group-scoring', '分值由小题均分');
    await waitFor(() => expect(within(screen.getByTestId('paper-total')).getByText('3')).toBeInTheDocument(), slow);
    expect(screen.getAllByTestId('slot-points')[0]).toHaveTextContent('3 小题均分');

    // the picker offers only the section's type
    await choose('section-type', '病例组题（A3/A4）');
    fireEvent.click(screen.getByTestId('section-pick'));
    await waitFor(
      () =>
        expect(api.find('GET', '/api/assess/question').at(-1)?.query).toMatchObject({
          questionType: 'case_group',
          status: 'ready',
        }),
      slow,
    );
  }, 150_000);

  it('saves the delivery settings and the section flags', async () => {
    const api = open();
    await waitFor(() => expect(screen.getAllByTestId('slot-stem')).toHaveLength(2), slow);
    fireEvent.change(screen.getByTestId('paper-attempts'), { target: { value: '2' } });
    await choose('paper-grade-method', '最后一次');
    expect(screen.queryByTestId('paper-grace')).toBeNull();
    await choose('paper-overdue', '宽限期内可交卷');
    fireEvent.change(await screen.findByTestId('paper-grace', {}, slow), { target: { value: '60' } });
    await choose('paper-show-result', '手动公布');
    fireEvent.click(screen.getByTestId('paper-review-answers'));
    fireEvent.click(screen.getByTestId('paper-anti-fullscreen'));
    fireEvent.change(screen.getByTestId('paper-anti-blur'), { target: { value: '3' } });
    fireEvent.click(screen.getByTestId('section-sequential'));
    await choose('section-shuffle', '乱序');

    fireEvent.click(screen.getByTestId('paper-save'));
    await screen.findByTestId('landed', {}, slow);
    expect(api.find('PUT', '/api/assess/paper/1')[0].body).toMatchObject({
      groupScoring: 'per_item',
      maxAttempts: 2,
      gradeMethod: 'latest',
      navigation: 'sequential',
      overdueHandling: 'grace_period',
      graceSeconds: 60,
      showResult: 'manual',
      openAt: null,
      closeAt: null,
      reviewOptions: { answers: true, analysis: false, scores: true },
      antiCheat: { fullscreen: true, maxBlurCount: 3, disableCopyPaste: false, randomizePerCandidate: false },
      sections: [{ sequential: true, shuffleQuestions: true, questionType: null, medicalFormat: null }],
    });
  }, 150_000);
});

describe('/exam-paper/:id/profile, settings', () => {
  it('summarises the delivery settings, the sections and the groups, and prints the window and attempts', async () => {
    const base = paper('1');
    const sections = base.sections as NonNullable<Paper['sections']>;
    const first = sections[0] as (typeof sections)[number];
    const second = sections[1] as (typeof sections)[number];
    const set = paper('1', {
      openAt: '2026-12-01T00:00:00.000Z',
      closeAt: '2026-12-01T02:00:00.000Z',
      maxAttempts: 2,
      gradeMethod: 'latest',
      navigation: 'sequential',
      antiCheat: { fullscreen: true, maxBlurCount: 3, disableCopyPaste: false, randomizePerCandidate: false },
      groupScoring: 'split',
      sections: [
        {
          ...first,
          questionType: 'case_group',
          sequential: true,
          slots: [{ ...(first.slots[0] as (typeof first.slots)[number]), childCount: 3, score: 2, points: 2 }],
        },
        { ...second, rules: [{ ...(second.rules[0] as (typeof second.rules)[number]), excludeUsedWithinDays: 30 }] },
      ],
    });
    fakeApi({
      'GET /api/assess/paper/1': () => ({ body: set }),
      'GET /api/assess/paper/1/preview': (call) => ({
        body: {
          seed: Number(call.query.seed),
          totalScore: 8,
          sections: [
            {
              title: 'A1 型题',
              instructions: null,
              sequential: true,
              questions: [
                {
                  id: '101',
                  code: 'Q101',
                  version: 1,
                  score: 2,
                  drawn: false,
                  itemScore: 0.67,
                  questionType: 'case_group',
                  medicalFormat: 'A3',
                  stem: '病例组题干',
                  options: null,
                  answer: null,
                  analysis: null,
                  children: [],
                },
              ],
            },
          ],
        },
      }),
      'GET /api/assess/category/2': () => ({ body: { id: '2', name: '心血管' } }),
      'GET /api/system/audit.*': () => page([]),
    });
    render(
      renderApp({
        store,
        access: grant(codes),
        initialPath: '/exam-paper/1/profile',
        routes: [{ path: '/exam-paper/:id/profile', element: <PaperProfile /> }],
      }).tree,
    );
    expect(await screen.findByText('最后一次', {}, slow)).toBeInTheDocument();
    expect(screen.getByTestId('paper-antiCheat')).toHaveTextContent('全屏作答');
    expect(screen.getByTestId('paper-antiCheat')).toHaveTextContent('切屏上限 3 次');
    expect(screen.getByTestId('paper-reviewOptions')).toHaveTextContent('得分');
    expect(screen.getByText('分值由小题均分')).toBeInTheDocument();
    const structure = screen.getByTestId('paper-structure');
    expect(within(structure).getAllByTestId('section-summary')[0]).toHaveTextContent('病例组题（A3/A4）');
    expect(within(structure).getAllByTestId('section-summary')[0]).toHaveTextContent('按顺序作答，不能返回');
    expect(within(structure).getByTestId('rule-summary-not-used')).toHaveTextContent('30 天内未用');
    expect(within(structure).getByTestId('slot-points')).toHaveTextContent('2');
    const delivery = await screen.findByTestId('paper-preview-delivery', {}, slow);
    expect(delivery).toHaveTextContent('可作答 2 次');
    expect(delivery).toHaveTextContent('按顺序，不能返回');
    expect(delivery.textContent).toMatch(/考试时间 2026-12-01 \d\d:00 至 2026-12-01 \d\d:00/);
    expect(await screen.findByText(/每小题 0.67 分/, {}, slow)).toBeInTheDocument();
  });
});
