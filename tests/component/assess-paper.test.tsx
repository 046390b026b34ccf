import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { message } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import PaperListPage from '@/pages/assess/paper';
import type { Paper } from '@/pages/assess/paper/descriptor';
import PaperEditPage from '@/pages/assess/paper/edit';
import PaperProfile from '@/pages/assess/paper/profile';
import { CheckRules, CreatePaper } from '../../server/src/modules/assess/paper/paper.resource';
import { fakeApi, page, validatedBy } from './fake-api';
import { anAttachment } from './fixtures/file';
import {
  aDrawnSection,
  aPaper,
  aPaperPreview,
  aPaperRule,
  aPaperSlot,
  aPlacedSection,
  aPreviewQuestion,
} from './fixtures/paper';
import { freshStore, grant, renderApp, renderAt, seededSysCodes, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });
/** Waits long enough for a form's validation or a debounced request on a loaded machine. */
const slow = { timeout: 10_000 };

const codes = [
  ...['list', 'create', 'update', 'delete', 'export', 'publish', 'close', 'clone', 'export-word', 'export-pdf'].map(
    (a) => `assess:paper:${a}`,
  ),
  'assess:question:list',
];

let store: TestStore;
beforeEach(() => {
  store = freshStore(seededSysCodes('common_status'));
});
afterEach(() => vi.unstubAllGlobals());

type Routes = Parameters<typeof fakeApi>[0];
/** What the editor of paper 1 reads and writes: the paper, the (empty) trees, and a save the server's schema takes. */
const editorRoutes = (paper: Paper, more: Routes = {}): Routes => ({
  'GET /api/assess/paper/1': () => ({ body: paper }),
  'GET /api/assess/category/tree': () => ({ body: [] }),
  'GET /api/assess/knowledge-point/tree': () => ({ body: [] }),
  'PUT /api/assess/paper/1': validatedBy(CreatePaper.partial().passthrough(), (call) => ({
    body: aPaper({ ...(call.body as Partial<Paper>), id: '1' }),
  })),
  ...more,
});
/** The server's check of the rules: each may draw `available` questions. */
const eachRuleDraws = (available: number): Routes => ({
  'POST /api/assess/paper/check-rules': (call) => ({
    body: (call.body as { rules: { count: number }[] }).rules.map((r) => ({ requested: r.count, available })),
  }),
});
/** The editor of paper 1, and where a saved paper lands. */
const openEditor = () =>
  renderAt(
    store,
    '/exam-paper/edit/1',
    [
      { path: '/exam-paper/edit/:id', element: <PaperEditPage /> },
      { path: '/exam-paper/:id/profile', element: <div data-testid="landed" /> },
    ],
    codes,
  );
/** The profile of paper 1, and where a clone lands. */
const openProfile = () =>
  renderAt(
    store,
    '/exam-paper/1/profile',
    [
      { path: '/exam-paper/:id/profile', element: <PaperProfile /> },
      { path: '/exam-paper/edit/:id', element: <div data-testid="landed-edit" /> },
    ],
    codes,
  );

describe('/exam-paper/list', () => {
  it('publishes a draft after a confirmation, and clones a published paper into a draft it opens', async () => {
    const api = fakeApi({
      'GET /api/assess/paper': () =>
        page([aPaper(), aPaper({ id: '2', status: 'published', code: 'P2', title: '已发布卷' })]),
      'POST /api/assess/paper/1/publish': () => ({ body: aPaper({ id: '1', status: 'published' }) }),
      'POST /api/assess/paper/2/clone': (call) => ({
        status: 201,
        body: aPaper({ ...(call.body as Partial<Paper>), id: '3' }),
      }),
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
    const api = fakeApi(editorRoutes(aPaper(), eachRuleDraws(4)));
    openEditor();
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

describe('/exam-paper/add', () => {
  it('brings the first missing field into view and focus when saved without it', async () => {
    fakeApi({
      'GET /api/assess/category/tree': () => ({ body: [] }),
      'GET /api/assess/knowledge-point/tree': () => ({ body: [] }),
    });
    render(
      renderApp({
        store,
        access: grant(codes),
        initialPath: '/exam-paper/add',
        routes: [{ path: '/exam-paper/add', element: <PaperEditPage /> }],
      }).tree,
    );
    fireEvent.click(await screen.findByTestId('paper-save', {}, slow));
    await waitFor(() => expect(screen.getByTestId('paper-code')).toHaveFocus(), slow);
  });
});

describe('/exam-paper/edit/:id, a rule that may draw case analysis', () => {
  it('answers the paper in order when the availability says a rule of no type may draw a case analysis', {
    timeout: 150_000,
  }, async () => {
    let mayDraw = false;
    const api = fakeApi({
      'GET /api/assess/paper/1': () => ({ body: aPaper() }),
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
        body: aPaper({ ...(call.body as Partial<Paper>), id: '1' }),
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
    // asking fewer again, it can no longer draw one: the free navigation chosen before comes back
    mayDraw = false;
    fireEvent.change(screen.getByTestId('rule-count'), { target: { value: '3' } });
    await waitFor(() => expect(within(navigation).getByRole('radio', { name: '自由跳转' })).toBeChecked(), slow);
    expect(within(navigation).getByRole('radio', { name: '自由跳转' })).not.toBeDisabled();
    mayDraw = true;
    fireEvent.change(screen.getByTestId('rule-count'), { target: { value: '4' } });
    await waitFor(
      () => expect(within(navigation).getByRole('radio', { name: '按顺序，不能返回' })).toBeChecked(),
      slow,
    );
    fireEvent.click(screen.getByTestId('paper-save'));
    await screen.findByTestId('landed', {}, slow);
    expect(api.find('PUT', '/api/assess/paper/1')[0].body).toMatchObject({ navigation: 'sequential' });
  });
});

describe('/exam-paper/edit/:id, a rule the server says may draw case analysis', () => {
  it('checks and saves that rule without what the server said of it (the demo practice paper)', async () => {
    const paper = aPaper({
      navigation: 'sequential',
      sections: [aDrawnSection([aPaperRule({ caseAnalysis: true })])],
    });
    const api = fakeApi(
      editorRoutes(paper, {
        'POST /api/assess/paper/check-rules': validatedBy(CheckRules, (call) => ({
          body: (call.body as CheckRules).rules.map((r) => ({ requested: r.count, available: 5, caseAnalysis: true })),
        })),
      }),
    );
    openEditor();
    expect(await screen.findByText('可用 5 道', {}, slow)).toBeInTheDocument();
    expect(screen.queryByText('不允许的字段')).toBeNull();
    fireEvent.click(screen.getByTestId('paper-save'));
    await screen.findByTestId('landed', {}, slow);
    expect(api.find('PUT', '/api/assess/paper/1')[0].body).toMatchObject({ sections: [{ rules: [{ count: 3 }] }] });
  });
});

describe('/exam-paper/edit/:id, drag to order', () => {
  it('drags a question and a section into another place (the arrows stay), and saves that order', async () => {
    const withTwo = aPaper({
      sections: [
        aPlacedSection([aPaperSlot(), aPaperSlot({ questionId: '102', code: 'Q00000102', stem: '第二道题' })]),
        aDrawnSection(),
      ],
    });
    const api = fakeApi(editorRoutes(withTwo, eachRuleDraws(9)));
    openEditor();
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
    const rule = aPaperRule({ available: undefined });
    const two = aPaper({ sections: [aDrawnSection([rule], { id: '21' }), aDrawnSection([rule], { id: '22' })] });
    type Asked = { rules: { count: number; difficultyMix?: Record<string, number> | null }[] };
    const api = fakeApi(
      editorRoutes(two, {
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
      }),
    );
    openEditor();
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
  it("offers a draft's edit, publish and clone as buttons in the profile's header", async () => {
    fakeApi({
      'GET /api/assess/paper/1': () => ({ body: aPaper({ id: '1', status: 'draft' }) }),
      'GET /api/assess/paper/1/preview': () => ({ body: aPaperPreview([]) }),
      'GET /api/system/audit.*': () => page([]),
    });
    const app = openProfile();
    const header = await screen.findByTestId('profile-actions', {}, slow);
    const edit = within(header).getByTestId('paper-edit');
    expect(edit.tagName).toBe('BUTTON');
    expect(within(header).getByTestId('paper-profile-publish')).toBeInTheDocument();
    expect(within(header).getByTestId('paper-profile-clone')).toBeInTheDocument();
    fireEvent.click(edit);
    await waitFor(() => expect(app.history.location.pathname).toBe('/exam-paper/edit/1'), slow);
  });

  it("shows the questions' images in the candidate's preview (and its printout), from the links the preview brings", async () => {
    const preview = aPaperPreview(
      [
        aPreviewQuestion({
          stem: '心电图如下，诊断是',
          stemMediaFileIds: ['31'],
          options: 'ABCDE'
            .split('')
            .map((key) => ({ key, text: `诊断${key}`, ...(key === 'B' && { mediaIds: ['32'] }) })),
          answer: ['B'],
        }),
      ],
      { totalScore: 2, media: [anAttachment('31', 'ecg.png'), anAttachment('32', 'flutter.png')] },
    );
    fakeApi({
      'GET /api/assess/paper/1': () => ({ body: aPaper({ id: '1', status: 'published' }) }),
      'GET /api/assess/paper/1/preview': () => ({ body: preview }),
      'GET /api/system/audit.*': () => page([]),
    });
    openProfile();
    const shown = within(await screen.findByTestId('paper-preview'));
    expect(await shown.findByRole('img', { name: 'ecg.png' })).toHaveAttribute('src', '/files/ecg.png');
    expect(shown.getByRole('img', { name: 'flutter.png' })).toHaveAttribute('src', '/files/flutter.png');
  });

  it('says in place of the preview, once and in words, why the bank can no longer draw the paper', async () => {
    const toast = vi.spyOn(message, 'error');
    fakeApi({
      'GET /api/assess/paper/1': () => ({ body: aPaper({ id: '1', status: 'draft' }) }),
      'GET /api/assess/paper/1/preview': () => ({
        status: 400,
        body: {
          family: 'CLIENT_ERROR',
          code: 'common.validation',
          message: '请求参数不正确',
          fields: [{ field: 'sections.0.rules.0.count', message: '题库已变化，该规则抽不够题目' }],
        },
      }),
      'GET /api/system/audit.*': () => page([]),
    });
    openProfile();
    expect(await screen.findByTestId('paper-preview-refused', {}, slow)).toHaveTextContent(
      '第 1 部分第 1 条规则：题库已变化，该规则抽不够题目',
    );
    await new Promise((done) => setTimeout(done, 300));
    expect(toast).not.toHaveBeenCalled();
  });

  it("numbers the questions on from one section to the next, a group's items under its number, as the Word document does", async () => {
    const item = (subOrder: number, stem: string) => ({
      id: `20${subOrder}`,
      subOrder,
      stem,
      options: null,
      answer: null,
      analysis: null,
    });
    const preview = aPaperPreview([
      aPreviewQuestion({ id: '101', stem: '第一题' }),
      aPreviewQuestion({ id: '102', stem: '第二题' }),
    ]);
    preview.sections.push({
      title: 'A3 型题',
      instructions: null,
      sequential: false,
      questions: [
        aPreviewQuestion({
          id: '103',
          questionType: 'case_group',
          medicalFormat: 'A3',
          stem: '男，56岁，胸痛3小时。',
          itemScore: 2,
          children: [item(1, '最可能的诊断是'), item(2, '首选的检查是')],
        }),
        aPreviewQuestion({ id: '104', stem: '第四题' }),
      ],
    });
    fakeApi({
      'GET /api/assess/paper/1': () => ({ body: aPaper({ id: '1', status: 'published' }) }),
      'GET /api/assess/paper/1/preview': () => ({ body: preview }),
      'GET /api/system/audit.*': () => page([]),
    });
    openProfile();
    await screen.findByText('第四题', {}, slow);
    const numbered = within(screen.getByTestId('paper-preview'))
      .getAllByTestId('preview-item')
      .map((item) => [
        within(item).queryByTestId('preview-number')?.textContent,
        within(item).getByTestId('preview-stem').textContent,
      ]);
    expect(numbered).toEqual([
      ['1.', '第一题'],
      ['2.', '第二题'],
      ['3.', '男，56岁，胸痛3小时。'],
      ['(1)', '最可能的诊断是'],
      ['(2)', '首选的检查是'],
      ['4.', '第四题'],
    ]);
  });

  it('previews the paper as a candidate gets it, drawing again on request', async () => {
    const preview = (seed: number) =>
      aPaperPreview(
        [
          aPreviewQuestion({
            id: String(100 + seed),
            code: `Q${seed}`,
            drawn: seed > 0,
            questionType: 'true_false',
            medicalFormat: null,
            stem: `第 ${seed} 次抽到的题`,
            answer: true,
          }),
        ],
        { seed },
      );
    const api = fakeApi({
      'GET /api/assess/paper/1': () => ({ body: aPaper({ id: '1', status: 'published' }) }),
      'GET /api/assess/paper/1/preview': (call) => ({ body: preview(Number(call.query.seed)) }),
      'GET /api/assess/paper/1/export-word': () => ({ body: {} }),
      'GET /api/assess/paper/1/export-pdf': () => ({ body: {} }),
      'GET /api/system/audit.*': () => page([]),
    });
    openProfile();
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
    const mixed = aPaper({
      sections: [
        aPlacedSection(),
        aDrawnSection([aPaperRule({ knowledgePointIds: ['7'], medicalFormat: 'A2', difficultyMix: { 1: 1, 4: 2 } })]),
      ],
    });
    const api = fakeApi({
      'GET /api/assess/paper/1': () => ({ body: mixed }),
      'GET /api/assess/paper/1/preview': (call) => ({
        body: { seed: Number(call.query.seed), totalScore: 8, sections: [] },
      }),
      'GET /api/assess/category/2': () => ({ body: { id: '2', name: '心血管' } }),
      'GET /api/assess/knowledge-point/7': () => ({ body: { id: '7', name: '心力衰竭' } }),
      'POST /api/assess/paper/1/publish': () => ({ body: aPaper({ id: '1', status: 'published', version: 4 }) }),
      'POST /api/assess/paper/1/clone': (call) => ({
        status: 201,
        body: aPaper({ ...(call.body as Partial<Paper>), id: '9' }),
      }),
      'GET /api/system/audit.*': () => page([]),
    });
    const app = openProfile();
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
  const grouped = aPaper({
    composeMode: 'manual',
    sections: [
      aPlacedSection([
        aPaperSlot({ questionId: '201', code: 'Q201', stem: '病例组', questionType: 'case_group', childCount: 3 }),
        aPaperSlot({
          questionId: '202',
          code: 'Q202',
          stem: '案例分析',
          questionType: 'case_analysis',
          childCount: 2,
          score: 1,
        }),
      ]),
    ],
  });

  const open = () => {
    const api = fakeApi(
      editorRoutes(grouped, {
        'GET /api/assess/question': () => page([]),
        'GET /api/assess/question/tags': () => ({ body: [] }),
      }),
    );
    openEditor();
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
    // a search keeps them: the picker's form does not offer what the section fixes
    const picker = within(await screen.findByTestId('question-picker', {}, slow));
    const form = await picker.findByTestId('table-search', {}, slow);
    expect(within(form).queryByText('状态')).toBeNull();
    expect(within(form).queryByText('题型')).toBeNull();
    fireEvent.change(within(form).getAllByRole('textbox')[0], { target: { value: '胸痛' } });
    fireEvent.click(within(form).getByTestId('table-search-submit'));
    await waitFor(
      () =>
        expect(api.find('GET', '/api/assess/question').at(-1)?.query).toMatchObject({
          keyword: '胸痛',
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
    const set = aPaper({
      openAt: '2026-12-01T00:00:00.000Z',
      closeAt: '2026-12-01T02:00:00.000Z',
      maxAttempts: 2,
      gradeMethod: 'latest',
      navigation: 'sequential',
      antiCheat: { fullscreen: true, maxBlurCount: 3, disableCopyPaste: false, randomizePerCandidate: false },
      groupScoring: 'split',
      sections: [
        aPlacedSection([aPaperSlot({ childCount: 3, score: 2, points: 2 })], {
          questionType: 'case_group',
          sequential: true,
        }),
        aDrawnSection([aPaperRule({ excludeUsedWithinDays: 30 })]),
      ],
    });
    fakeApi({
      'GET /api/assess/paper/1': () => ({ body: set }),
      'GET /api/assess/paper/1/preview': (call) => ({
        body: aPaperPreview(
          [
            aPreviewQuestion({
              itemScore: 0.67,
              questionType: 'case_group',
              medicalFormat: 'A3',
              stem: '病例组题干',
            }),
          ],
          { seed: Number(call.query.seed) },
          { sequential: true },
        ),
      }),
      'GET /api/assess/category/2': () => ({ body: { id: '2', name: '心血管' } }),
      'GET /api/system/audit.*': () => page([]),
    });
    openProfile();
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
