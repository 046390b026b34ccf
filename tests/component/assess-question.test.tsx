import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { message } from 'antd';
import { createPath } from 'history';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import QuestionListPage from '@/pages/assess/question';
import type { Question } from '@/pages/assess/question/descriptor';
import QuestionEditPage from '@/pages/assess/question/edit';
import QuestionProfile from '@/pages/assess/question/profile';
import { CreateQuestion, FindDuplicates } from '../../server/src/modules/assess/question/question.resource';
import { fakeApi, page, validatedBy } from './fake-api';
import {
  aCaseGroup,
  aQuestion,
  aQuestionItem,
  aQuestionVersion,
  fiveDrugs,
  questionProfileRoutes,
  someQuestionStatistics,
} from './fixtures/question';
import { aTaxonomyNode } from './fixtures/taxonomy';
import { freshStore, grant, renderApp, renderAt, seededSysCodes, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const codes = [
  ...['list', 'create', 'update', 'delete', 'export', 'review', 'bulk-update'].map((a) => `assess:question:${a}`),
  'assess:category:manage',
  'assess:knowledge:manage',
];

const node = (id: string, name: string, parentId: string | null = null, hasChildren = false) =>
  aTaxonomyNode(id, name, parentId, { hasChildren, questionCount: 0 });
const internal = node('1', '内科学', null, true);
const cardio = node('2', '心血管', '1');

let store: TestStore;
beforeEach(() => {
  store = freshStore(seededSysCodes('common_status'));
});
afterEach(() => vi.unstubAllGlobals());

const trees = {
  'GET /api/assess/category/tree': (call: { query: Record<string, string> }) => ({
    body: call.query.parentId === '1' ? [cardio] : call.query.parentId ? [] : [internal],
  }),
  'GET /api/assess/knowledge-point/tree': () => ({ body: [] }),
};

describe('/question/list', () => {
  function mount(extra: Parameters<typeof fakeApi>[0] = {}, granted = codes) {
    const api = fakeApi({
      ...trees,
      'GET /api/assess/question': () =>
        page([aQuestion({ id: '1' }), aQuestion({ id: '2', status: 'pending_review', stem: '溶栓的时间窗是' })]),
      ...extra,
    });
    const app = renderApp({ store, access: grant(granted), children: <QuestionListPage /> });
    render(app.tree);
    return { api, history: app.history };
  }

  it('lists questions with their type, format and status; a category of the tree filters the list', async () => {
    const { api } = mount();
    const row = (await screen.findByText('急性心肌梗死首选的抗血小板药物是')).closest('tr') as HTMLElement;
    expect(within(row).getByText('单选题')).toHaveClass('ant-tag');
    expect(within(row).getByText('A1 单句型')).toHaveClass('ant-tag');
    expect(within(row).getByText('草稿')).toHaveClass('ant-tag');
    fireEvent.click(await within(screen.getByTestId('category-tree')).findByText('内科学'));
    await waitFor(() =>
      expect(api.calls.some((c) => c.path === '/api/assess/question' && c.query.categoryId === '1')).toBe(true),
    );
  });

  it("searches by a knowledge point picked from its tree, and the list asks for that point's questions", async () => {
    const { api } = mount({
      'GET /api/assess/knowledge-point/tree': (call) => ({
        body: call.query.parentId ? [] : [{ ...node('7', '心电图'), questionCount: 3 }],
      }),
    });
    const search = await screen.findByTestId('table-search');
    fireEvent.mouseDown(within(search).getByTestId('search-knowledge-point').querySelector('input') as HTMLElement);
    fireEvent.click(await screen.findByText('心电图', { selector: '.ant-select-tree-title' }));
    fireEvent.click(within(search).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.path === '/api/assess/question' && c.query.knowledgePointId === '7')).toBe(true),
    );
  });

  it('lists the questions not used in the last N days', async () => {
    const { api } = mount();
    const search = await screen.findByTestId('table-search');
    const expand = within(search).queryByText(/展\s*开/);
    if (expand) fireEvent.click(expand);
    fireEvent.change(await within(search).findByTestId('filter-not-used'), { target: { value: '30' } });
    fireEvent.click(within(search).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.path === '/api/assess/question' && c.query.notUsedWithinDays === '30')).toBe(true),
    );
  });

  it("filters by a tag picked among the bank's tags", async () => {
    const { api } = mount({ 'GET /api/assess/question/tags': () => ({ body: ['执业医师', '心内'] }) });
    const search = await screen.findByTestId('table-search');
    fireEvent.mouseDown(within(search).getByTestId('search-tag').querySelector('input') as HTMLElement);
    fireEvent.click(await screen.findByText('心内', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(within(search).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.path === '/api/assess/question' && c.query.tag === '心内')).toBe(true),
    );
  });

  it('filters by a specialty of the dictionary', async () => {
    store = freshStore(seededSysCodes('common_status', 'training_specialty'));
    const { api } = mount();
    const search = await screen.findByTestId('table-search');
    fireEvent.mouseDown(within(search).getByLabelText('专业'));
    fireEvent.click(await screen.findByText('外科', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(within(search).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.path === '/api/assess/question' && c.query.specialtyCode === 'surgery')).toBe(
        true,
      ),
    );
  });

  it('says more than the cap match when the server stopped counting a search', async () => {
    mount({
      'GET /api/assess/question': () => ({
        body: { ...page([aQuestion({ id: '1' })]).body, total: 1000, pageSize: 20, totalCapped: true },
      }),
    });
    expect(await screen.findByText('超过 1,000 条，请缩小搜索范围')).toBeInTheDocument();
  });

  it('submits a draft for review, and reviews one awaiting it (a rejection needs a comment)', async () => {
    const { api } = mount({
      'POST /api/assess/question/1/submit': () => ({ body: aQuestion({ id: '1', status: 'pending_review' }) }),
      'POST /api/assess/question/2/review': () => ({ body: aQuestion({ id: '2', status: 'rejected' }) }),
    });
    const draft = (await screen.findByText('急性心肌梗死首选的抗血小板药物是')).closest('tr') as HTMLElement;
    fireEvent.click(within(draft).getByTestId('question-submit'));
    await waitFor(() => expect(api.find('POST', '/api/assess/question/1/submit')).toHaveLength(1));
    expect(api.find('POST', '/api/assess/question/1/submit')[0].body).toEqual({ version: 0 });

    const waiting = screen.getByText('溶栓的时间窗是').closest('tr') as HTMLElement;
    fireEvent.click(within(waiting).getByTestId('question-review'));
    const preview = await screen.findByTestId('question-preview');
    expect(within(preview).getByText('A. 阿司匹林')).toBeInTheDocument();
    fireEvent.click(within(screen.getByTestId('question-decision')).getByText('驳回'));
    fireEvent.click(screen.getByTestId('question-review-submit'));
    expect(await screen.findByText('请输入审核意见')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('question-comment'), { target: { value: '答案有误' } });
    fireEvent.click(screen.getByTestId('question-review-submit'));
    await waitFor(() => expect(api.find('POST', '/api/assess/question/2/review')).toHaveLength(1));
    expect(await screen.findByText('已驳回')).toBeInTheDocument();
    expect(screen.queryByText('已保存')).toBeNull();
    expect(api.find('POST', '/api/assess/question/2/review')[0].body).toEqual({
      decision: 'reject',
      comment: '答案有误',
      version: 0,
    });
  });

  it("shows a fill-in-the-blanks stem's blanks as lines to fill, not as their marker", async () => {
    mount({
      'GET /api/assess/question': () =>
        page([aQuestion({ id: '3', questionType: 'fill_blank', stem: '急性心梗溶栓的时间窗为{{blank}}小时内' })]),
    });
    const stem = await screen.findByTestId('question-stem');
    expect(stem).toHaveTextContent('急性心梗溶栓的时间窗为____小时内');
    expect(stem.textContent).not.toContain('{{blank}}');
  });

  it('imports through the generic dialog, which offers no update mode: an import only adds questions', async () => {
    const { api } = mount({ 'GET /api/assess/question/import-jobs/latest': () => ({ body: null }) }, [
      ...codes,
      'assess:question:import',
    ]);
    fireEvent.click(await screen.findByTestId('table-import'));
    const dialog = await screen.findByTestId('import-modal');
    expect(within(dialog).getByTestId('import-template')).toBeInTheDocument();
    expect(within(dialog).queryAllByRole('radio')).toEqual([]);
    await waitFor(() => expect(api.find('GET', '/api/assess/question/import-jobs/latest')).toHaveLength(1));
  });

  it("reports no check as a failed import, and shows an earlier import's result only until the next check", async () => {
    const failed = [1, 2, 3].map((row) => ({ row, column: '题干', message: '请输入题干' }));
    const job = (dryRun: boolean) => ({
      id: dryRun ? '3' : '2',
      resource: 'assess/question',
      mode: 'insert',
      dryRun,
      status: 'failed',
      done: 3,
      total: 3,
      fileName: 'import-bad.xlsx',
      report: { dryRun, created: 0, updated: 0, failed, failedTotal: 3, failedRows: 3 },
      createdBy: '1',
      createdAt: '2026-03-01T08:00:00.000Z',
      finishedAt: '2026-03-01T08:00:01.000Z',
    });
    const latest = [job(true), job(false)];
    const { api } = mount(
      {
        'GET /api/assess/question/import-jobs/latest': () => ({ body: latest.shift() }),
        'POST /api/assess/question/import': () => ({ body: { dryRun: true, created: 3, updated: 0, failed: [] } }),
      },
      [...codes, 'assess:question:import'],
    );
    const latestAsked = (n: number) =>
      waitFor(() => expect(api.find('GET', '/api/assess/question/import-jobs/latest')).toHaveLength(n));
    // the latest job was a check (a dry run): nothing to report on opening
    fireEvent.click(await screen.findByTestId('table-import'));
    await screen.findByTestId('import-modal');
    await latestAsked(1);
    expect(screen.queryByTestId('import-job-result')).toBeNull();
    expect(screen.queryByTestId('import-failure-totals')).toBeNull();
    fireEvent.click(within(document.querySelector('.ant-modal-footer') as HTMLElement).getByText(/取\s*消/));

    // the latest was an import that failed: said until a new file is checked
    fireEvent.click(screen.getByTestId('table-import'));
    const dialog = await screen.findByTestId('import-modal');
    await latestAsked(2);
    expect(await screen.findByTestId('import-job-result')).toHaveTextContent('上次导入（import-bad.xlsx）失败');
    expect(screen.getByTestId('import-failure-totals')).toHaveTextContent('共 3 处错误');
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'import-good.xlsx')] } });
    await waitFor(() => expect(screen.getByTestId('import-check')).toBeEnabled());
    fireEvent.click(screen.getByTestId('import-check'));
    expect(await screen.findByTestId('import-summary')).toHaveTextContent('0 处错误');
    expect(screen.queryByTestId('import-job-result')).toBeNull();
    expect(screen.queryByTestId('import-failure-totals')).toBeNull();
  });

  it("lists a dry run's likely duplicates apart from its errors: the rows still import", async () => {
    const report = {
      dryRun: true,
      created: 3,
      updated: 0,
      failed: [],
      warnings: [
        {
          row: 2,
          column: '题干',
          message: '与题库中的题目相似：Q00000012（相似度 82%），请确认不是重复题（仍会导入）',
        },
        { row: 4, column: '题干', message: '与本表第 2 行（相似度 90%）相似，请确认不是重复题（仍会导入）' },
      ],
      warningsChecked: { checked: 50, total: 120, message: '相似题只比对了本表前 50 道题（共 120 道），其余未比对' },
    };
    const { api } = mount(
      {
        'GET /api/assess/question/import-jobs/latest': () => ({ body: null }),
        'POST /api/assess/question/import': () => ({ body: report }),
      },
      [...codes, 'assess:question:import'],
    );
    fireEvent.click(await screen.findByTestId('table-import'));
    const dialog = await screen.findByTestId('import-modal');
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'questions.xlsx')] } });
    await waitFor(() => expect(screen.getByTestId('import-check')).toBeEnabled());
    fireEvent.click(screen.getByTestId('import-check'));
    await waitFor(() => expect(api.find('POST', '/api/assess/question/import')).toHaveLength(1));
    const warnings = await screen.findByTestId('import-warnings');
    expect(warnings).toHaveTextContent('2 条提示：不影响导入，请核对');
    expect(within(warnings).getByTestId('import-warnings-checked')).toHaveTextContent('前 50 道题（共 120 道）');
    const rows = within(screen.getByTestId('import-warning-rows')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/^2题干与题库中的题目相似：Q00000012（相似度 82%）/),
      expect.stringMatching(/^4题干与本表第 2 行/),
    ]);
    // no error: the summary says so, and the import may go on
    expect(screen.queryByTestId('import-errors')).toBeNull();
    expect(screen.getByTestId('import-summary')).toHaveTextContent('0 处错误');
    expect(screen.getByTestId('import-commit')).toBeEnabled();
  });

  it('exports the chosen questions from the bulk bar, and all that the filter matches from the toolbar', async () => {
    const createObjectURL = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { api } = mount({ 'GET /api/assess/question/export': () => ({ body: 'xlsx' }) });
    const second = (await screen.findByText('溶栓的时间窗是')).closest('tr') as HTMLElement;
    expect(screen.queryByTestId('batch-export')).toBeNull();
    fireEvent.click(within(second).getByRole('checkbox'));
    fireEvent.click(await screen.findByTestId('batch-export'));
    await waitFor(() => expect(api.find('GET', '/api/assess/question/export')).toHaveLength(1));
    expect(api.find('GET', '/api/assess/question/export')[0].query).toMatchObject({ ids: '2' });
    await waitFor(() => expect(click).toHaveBeenCalled());

    fireEvent.click(screen.getByTestId('table-export'));
    await waitFor(() => expect(api.find('GET', '/api/assess/question/export')).toHaveLength(2));
    expect(api.find('GET', '/api/assess/question/export')[1].query).not.toHaveProperty('ids');
    click.mockRestore();
  });

  it('offers no export of the chosen questions without the export permission', async () => {
    mount(
      {},
      codes.filter((c) => c !== 'assess:question:export'),
    );
    const second = (await screen.findByText('溶栓的时间窗是')).closest('tr') as HTMLElement;
    fireEvent.click(within(second).getByRole('checkbox'));
    expect(await screen.findByTestId('batch-bulk-update')).toBeInTheDocument();
    expect(screen.queryByTestId('batch-export')).toBeNull();
  });

  it('opens the step form to write a question', async () => {
    const { history } = mount();
    fireEvent.click(await screen.findByTestId('table-create'));
    expect(history.location.pathname).toBe('/question/add');
  });
});

describe('/question/add', () => {
  /**
   * Waits for the step holding this field to be the one shown: the form hides the other steps (display: none). Read
   * from the page's own markup, not by `toBeVisible`, which asks jsdom for the computed style of each of the field's
   * ancestors through all of antd's style rules (about a second on a busy machine) at each of the wait's retries.
   */
  const stepShown = (testId: string) =>
    waitFor(() => expect(screen.getByTestId(testId).closest('[style*="display: none"]')).toBeNull());
  /** Presses "next" and waits for the step to open. */
  const next = async (testId: string) => {
    fireEvent.click(screen.getByTestId('step-next'));
    await stepShown(testId);
  };
  /** Presses "back" and waits for the step to open. */
  const back = async (testId: string) => {
    fireEvent.click(screen.getByTestId('step-back'));
    await stepShown(testId);
  };
  /** The form of a new question, and where a saved one lands, as a user granted every code opens it. */
  const openForm = () =>
    renderAt(
      store,
      '/question/add',
      [
        { path: '/question/add', element: <QuestionEditPage /> },
        { path: '/question/:id/profile', element: <div data-testid="landed" /> },
      ],
      codes,
    );
  /** A save the server takes once its schema does: the question comes back as number 9. */
  const saves = {
    'POST /api/assess/question': validatedBy(CreateQuestion, (call) => ({
      status: 201,
      body: aQuestion({ ...(call.body as Partial<Question>), id: '9' }),
    })),
  };
  /** Picks the top category (内科学) of the tree in the first step. */
  const pickCategory = async () => {
    fireEvent.mouseDown((await screen.findByTestId('question-category')).querySelector('input') as HTMLElement);
    fireEvent.click(await screen.findByText('内科学', { selector: '.ant-select-tree-title' }));
  };
  /** Writes the single choice the form starts with up to its options: "选一个", its four options 选项0…选项3. */
  const writeSingleChoice = async () => {
    await pickCategory();
    await next('question-stem');
    fireEvent.change(screen.getByTestId('question-stem'), { target: { value: '选一个' } });
    await next('question-options');
    for (const [i, input] of screen.getAllByTestId('question-options-text').entries())
      fireEvent.change(input, { target: { value: `选项${i}` } });
  };

  it('writes a B1 group step by step, previews it as a candidate reads it, and saves it', async () => {
    const api = fakeApi({
      ...trees,
      'GET /api/assess/question/tags': () => ({ body: ['执业医师', '心内'] }),
      'POST /api/assess/question/duplicates': () => ({ body: [] }),
      ...saves,
    });
    const app = openForm();

    fireEvent.click(within(await screen.findByTestId('question-type')).getByText('共用选项题（B1）'));
    expect(within(screen.getByTestId('question-format')).getByLabelText('B1 标准配伍型')).toBeChecked();
    await pickCategory();

    await next('question-stem');
    fireEvent.change(screen.getByTestId('question-stem'), { target: { value: '以下药物各用于' } });
    const stems = screen.getAllByTestId('child-stem');
    fireEvent.change(stems[0], { target: { value: '抗血小板' } });
    fireEvent.change(stems[1], { target: { value: '溶栓' } });

    await next('question-options');
    const texts = screen.getAllByTestId('question-options-text');
    expect(texts).toHaveLength(5);
    for (const [i, o] of fiveDrugs.entries()) fireEvent.change(texts[i], { target: { value: o.text } });
    const keys = screen.getAllByTestId('child-answer-key');
    fireEvent.click(within(keys[0]).getByLabelText('A'));
    fireEvent.click(within(keys[1]).getByLabelText('E'));

    await next('question-analysis');
    fireEvent.change(screen.getByTestId('question-analysis'), { target: { value: '配伍' } });
    // each item has its own analysis too
    const itemAnalyses = screen.getAllByTestId('child-analysis');
    expect(itemAnalyses).toHaveLength(2);
    fireEvent.change(itemAnalyses[1], { target: { value: '尿激酶溶栓' } });
    // the bank's tags are offered, and a new one may be typed
    const tagInput = screen.getByTestId('question-tags').querySelector('input') as HTMLElement;
    fireEvent.mouseDown(tagInput);
    fireEvent.click(await screen.findByText('执业医师', { selector: '.ant-select-item-option-content' }));
    fireEvent.change(tagInput, { target: { value: '配伍题' } });
    fireEvent.keyDown(tagInput, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await next('question-step-preview');
    const preview = screen.getByTestId('question-preview');
    expect(within(preview).getByText('E. 尿激酶')).toBeInTheDocument();
    expect(within(preview).getAllByTestId('preview-item')).toHaveLength(3);
    await waitFor(() => expect(api.find('POST', '/api/assess/question/duplicates')).toHaveLength(1));

    fireEvent.click(screen.getByTestId('question-save'));
    await screen.findByTestId('landed');
    const body = api.find('POST', '/api/assess/question')[0].body;
    expect(body).toMatchObject({
      categoryId: '1',
      questionType: 'option_group',
      medicalFormat: 'B1',
      stem: '以下药物各用于',
      options: fiveDrugs,
      answer: null,
      analysis: '配伍',
      tags: ['执业医师', '配伍题'],
      children: [
        { stem: '抗血小板', answer: ['A'], analysis: null },
        { stem: '溶栓', answer: ['E'], analysis: '尿激酶溶栓' },
      ],
    });
    expect(app.history.location.pathname).toBe('/question/9/profile');
  });

  it('writes a case analysis whose stage options carry weights (one that adds at least), with its specialty, outline item, year and time', async () => {
    store = freshStore(seededSysCodes('common_status', 'training_specialty'));
    const api = fakeApi({
      ...trees,
      'GET /api/assess/question/tags': () => ({ body: [] }),
      'POST /api/assess/question/duplicates': () => ({ body: [] }),
      ...saves,
    });
    openForm();

    fireEvent.click(within(await screen.findByTestId('question-type')).getByText('案例分析题'));
    await pickCategory();
    await next('question-stem');
    fireEvent.change(screen.getByTestId('question-stem'), { target: { value: '男，62岁，突发胸痛2小时。' } });
    const stems = screen.getAllByTestId('child-stem');
    fireEvent.change(stems[0], { target: { value: '首先应进行的检查是' } });
    fireEvent.change(stems[1], { target: { value: '应给予' } });

    fireEvent.click(screen.getByTestId('step-next'));
    await waitFor(() =>
      expect(screen.getAllByTestId('child-options')[0].closest('[style*="display: none"]')).toBeNull(),
    );
    const texts = screen.getAllByTestId('child-options-text');
    expect(texts).toHaveLength(10);
    for (const [i, input] of texts.entries()) fireEvent.change(input, { target: { value: `选项${i}` } });
    // a stage is weighed, not ticked: no box marks its answer
    expect(screen.queryAllByTestId('child-options-correct')).toHaveLength(0);
    const weights = screen.getAllByTestId('child-options-weight');
    const weigh = (i: number, value: string) => {
      fireEvent.change(weights[i], { target: { value } });
      fireEvent.blur(weights[i]);
    };
    weigh(0, '2');
    weigh(1, '1');
    weigh(4, '-1');
    // the second stage has no option that adds: refused on this step
    fireEvent.click(screen.getByTestId('step-next'));
    expect(await screen.findByText('须至少一个正分值的选项')).toBeVisible();
    expect(screen.getAllByTestId('child-options')[1]).toBeVisible();
    weigh(7, '3');

    await next('question-analysis');
    fireEvent.mouseDown(within(screen.getByTestId('question-specialty')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('内科', { selector: '.ant-select-item-option-content' }));
    fireEvent.change(screen.getByTestId('question-syllabus'), { target: { value: '心血管-急性冠脉综合征' } });
    fireEvent.change(screen.getByTestId('question-source-year'), { target: { value: '2023' } });
    fireEvent.change(screen.getByTestId('question-seconds'), { target: { value: '300' } });

    await next('question-step-preview');
    const preview = screen.getByTestId('question-preview');
    // the answers (the weights) are the author's to ask for
    expect(within(preview).queryAllByTestId('preview-weight')).toEqual([]);
    fireEvent.click(within(preview).getByTestId('preview-show-answer'));
    expect(
      within(preview)
        .getAllByTestId('preview-weight')
        .map((tag) => tag.textContent),
    ).toEqual(['+2', '+1', '0', '0', '-1', '0', '0', '+3', '0', '0']);
    expect(
      within(preview)
        .getAllByTestId('preview-stage-most')
        .map((e) => e.textContent),
    ).toEqual(['本步满分 3', '本步满分 3']);

    fireEvent.click(screen.getByTestId('question-save'));
    await screen.findByTestId('landed');
    const body = api.find('POST', '/api/assess/question')[0].body as Question;
    expect(body).toMatchObject({
      questionType: 'case_analysis',
      medicalFormat: 'CASE',
      specialtyCode: 'internal_medicine',
      syllabusRef: '心血管-急性冠脉综合征',
      sourceYear: 2023,
      estimatedSeconds: 300,
    });
    expect(body.children?.map((c) => [c.answer, c.options?.map((o) => o.weight)])).toEqual([
      [
        ['A', 'B'],
        [2, 1, 0, 0, -1],
      ],
      [['C'], [0, 0, 3, 0, 0]],
    ]);
    // a long journey through every step on a shared machine
  }, 150_000);

  it('opens the step of the field the server refuses and shows its reason there', async () => {
    fakeApi({
      ...trees,
      'POST /api/assess/question/duplicates': () => ({ body: [] }),
      'POST /api/assess/question': () => ({
        status: 400,
        body: {
          code: 'common.validation',
          message: '请求参数不正确',
          fields: [{ field: 'answer', message: '单选题须正好一个正确答案' }],
        },
      }),
    });
    openForm();
    await writeSingleChoice();
    fireEvent.click(screen.getAllByTestId('question-options-correct')[1]);
    await next('question-analysis');
    await next('question-step-preview');
    fireEvent.click(screen.getByTestId('question-save'));
    expect(await screen.findByText('单选题须正好一个正确答案')).toBeVisible();
    expect(screen.getByTestId('question-options')).toBeVisible();
  });

  it("names the item or scoring point a list's field belongs to, never its path in the form", async () => {
    fakeApi({ ...trees });
    openForm();
    fireEvent.click(within(await screen.findByTestId('question-type')).getByText('病例组题（A3/A4）'));
    await pickCategory();
    await next('question-stem');
    fireEvent.change(screen.getByTestId('question-stem'), { target: { value: '男，62岁' } });
    fireEvent.click(screen.getByTestId('step-next'));
    expect(await screen.findByText('请输入第 1 道子题的题干', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('请输入第 2 道子题的题干')).toBeInTheDocument();
    expect(screen.queryByText(/0,stem/)).toBeNull();

    fireEvent.click(screen.getByTestId('step-back'));
    await stepShown('question-type');
    fireEvent.click(within(screen.getByTestId('question-type')).getByText('简答题'));
    await next('question-stem');
    await next('question-reference');
    fireEvent.change(screen.getByTestId('question-reference'), { target: { value: '阿司匹林' } });
    fireEvent.click(screen.getByTestId('add-point'));
    fireEvent.click(screen.getByTestId('step-next'));
    expect(await screen.findByText('请输入第 1 个得分点', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByText(/0,text/)).toBeNull();
  });

  it('checks on the answer step how many options a choice marks correct, in the words of the server', async () => {
    fakeApi({ ...trees });
    openForm();
    await writeSingleChoice();
    fireEvent.click(screen.getByTestId('step-next'));
    expect(await screen.findByText('单选题须正好一个正确答案', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByTestId('question-options')).toBeVisible();
    fireEvent.click(screen.getAllByTestId('question-options-correct')[2]);
    await next('question-analysis');

    await back('question-options');
    await back('question-stem');
    await back('question-type');
    fireEvent.click(within(screen.getByTestId('question-type')).getByText('多选题'));
    await next('question-stem');
    await next('question-options');
    for (const [i, input] of screen.getAllByTestId('question-options-text').entries())
      fireEvent.change(input, { target: { value: `选项${i}` } });
    fireEvent.click(screen.getAllByTestId('question-options-correct')[0]);
    fireEvent.click(screen.getByTestId('step-next'));
    expect(await screen.findByText('多选题须至少 2 个正确答案', {}, { timeout: 5000 })).toBeInTheDocument();
    fireEvent.click(screen.getAllByTestId('question-options-correct')[1]);
    await next('question-analysis');
  });

  it("keeps the preview open on an exact duplicate's refusal, with the consent to save it beside the reason", async () => {
    const refusal = '与已有题目 Q00000034 内容相同（确认仍要保存请勾选“允许重复”）';
    const api = fakeApi({
      ...trees,
      'POST /api/assess/question/duplicates': () => ({ body: [] }),
      'POST /api/assess/question': (call) =>
        (call.body as CreateQuestion).allowDuplicate
          ? { status: 201, body: aQuestion({ id: '9' }) }
          : {
              status: 400,
              body: {
                code: 'common.validation',
                message: '请求参数不正确',
                fields: [{ field: 'allowDuplicate', message: refusal }],
              },
            },
    });
    openForm();
    await writeSingleChoice();
    fireEvent.click(screen.getAllByTestId('question-options-correct')[1]);
    await next('question-analysis');
    await next('question-step-preview');
    expect(screen.getByTestId('allow-duplicate').closest('.ant-form-item-hidden')).not.toBeNull();
    fireEvent.click(screen.getByTestId('question-save'));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(screen.getByTestId('question-step-preview')).toBeInTheDocument();
    const consent = screen.getByTestId('allow-duplicate');
    expect(consent.closest('.ant-form-item-hidden')).toBeNull();
    fireEvent.click(consent);
    fireEvent.click(screen.getByTestId('question-save'));
    await screen.findByTestId('landed');
    expect(api.find('POST', '/api/assess/question')[1].body).toMatchObject({ allowDuplicate: true });
  });

  it("takes as many options as the format's rule, keeping those written when the format changes", async () => {
    const api = fakeApi({
      ...trees,
      'POST /api/assess/question/duplicates': () => ({ body: [] }),
      ...saves,
    });
    openForm();
    const format = async (label: string) => {
      await back('question-stem');
      await back('question-format');
      fireEvent.click(within(screen.getByTestId('question-format')).getByLabelText(label));
      await next('question-stem');
      await next('question-options');
    };
    const texts = () => screen.getAllByTestId('question-options-text').map((i) => (i as HTMLInputElement).value);
    // the delete buttons of the options step, found by their label: a query by role would weigh each button's
    // visibility through jsdom's computed styles, seconds a call on a busy machine
    const deletable = () =>
      within(screen.getByTestId('question-options'))
        .queryAllByLabelText('删除')
        .filter((e) => e.tagName === 'BUTTON').length;

    fireEvent.click(within(await screen.findByTestId('question-type')).getByText('多选题'));
    await pickCategory();
    await next('question-stem');
    fireEvent.change(screen.getByTestId('question-stem'), { target: { value: '急性心肌梗死的治疗包括' } });
    await next('question-options');
    // a plain multiple choice starts with four options and keeps at least three
    const written = ['阿司匹林', '肝素', '华法林', '氯吡格雷'];
    for (const [i, input] of screen.getAllByTestId('question-options-text').entries())
      fireEvent.change(input, { target: { value: written[i] } });
    expect(deletable()).toBe(4);

    // X takes four or more: the four written stay, none may go, a fifth may be added
    await format('X 多选型');
    expect(texts()).toEqual(written);
    expect(deletable()).toBe(0);
    fireEvent.click(screen.getByTestId('question-options-add'));
    expect(texts()).toEqual([...written, '']);
    fireEvent.change(screen.getAllByTestId('question-options-text')[4], { target: { value: '尿激酶' } });
    fireEvent.click(screen.getAllByTestId('question-options-correct')[0]);
    fireEvent.click(screen.getAllByTestId('question-options-correct')[2]);
    expect(deletable()).toBe(5);
    await next('question-analysis');
    await next('question-step-preview');
    fireEvent.click(screen.getByTestId('question-save'));
    await screen.findByTestId('landed');
    expect(api.find('POST', '/api/assess/question')[0].body).toMatchObject({
      questionType: 'multiple_choice',
      medicalFormat: 'X',
      options: [...written, '尿激酶'].map((text, i) => ({ key: 'ABCDE'[i], text })),
      answer: ['A', 'C'],
    });
  });

  it('keeps the options written when a single choice becomes A1, which takes exactly five', async () => {
    fakeApi(trees);
    openForm();
    await writeSingleChoice();
    await back('question-stem');
    await back('question-format');
    fireEvent.click(within(screen.getByTestId('question-format')).getByLabelText('A1 单句型'));
    await next('question-stem');
    await next('question-options');
    const texts = screen.getAllByTestId('question-options-text').map((i) => (i as HTMLInputElement).value);
    expect(texts).toEqual(['选项0', '选项1', '选项2', '选项3', '']);
    expect(screen.queryByTestId('question-options-add')).toBeNull();
  });

  it('finds a deep category by what is typed, offering enabled categories only', async () => {
    const valve = { ...node('3', '心脏瓣膜病', '2'), path: '/1/2/3/', depth: 2 };
    const api = fakeApi({
      'GET /api/assess/category/tree': (call: { query: Record<string, string> }) => ({
        body: call.query.keyword
          ? [internal, { ...cardio, hasChildren: true }, valve]
          : call.query.parentId
            ? []
            : [internal],
      }),
      'GET /api/assess/knowledge-point/tree': () => ({ body: [] }),
    });
    openForm();
    const input = within(await screen.findByTestId('question-category')).getByRole('combobox');
    fireEvent.mouseDown(input);
    await screen.findByText('内科学', { selector: '.ant-select-tree-title' });
    fireEvent.change(input, { target: { value: '瓣膜' } });
    // (the title marks what was typed in it)
    const title = (_: string, el: Element | null) =>
      Boolean(el?.classList.contains('ant-select-tree-title') && el.textContent === '心脏瓣膜病');
    fireEvent.click(await screen.findByText(title, {}, { timeout: 3000 }));
    await waitFor(() =>
      expect(within(screen.getByTestId('question-category')).getByText('心脏瓣膜病')).toBeInTheDocument(),
    );
    const asked = api.calls.filter((c) => c.path === '/api/assess/category/tree');
    expect(asked.find((c) => c.query.keyword === '瓣膜')?.query.status).toBe('enabled');
    expect(asked.every((c) => c.query.status === 'enabled')).toBe(true);
  });

  it('says before its steps are walked that a question awaiting review is not changed, and offers no save', async () => {
    fakeApi({
      ...trees,
      'GET /api/assess/question/5': () => ({ body: aQuestion({ id: '5', status: 'pending_review' }) }),
      'GET /api/assess/question/5/attachments': () => ({ body: [] }),
      'POST /api/assess/question/duplicates': () => ({ body: [] }),
    });
    renderAt(store, '/question/edit/5', [{ path: '/question/edit/:id', element: <QuestionEditPage /> }], codes);
    expect(await screen.findByTestId('question-locked')).toHaveTextContent('题目处于“待审核”状态，不能修改');
    await next('question-stem');
    await next('question-options');
    await next('question-analysis');
    await next('question-step-preview');
    expect(screen.getByTestId('question-save')).toBeDisabled();
  });

  it("links each likely duplicate to its profile by the router's address, in a new tab that keeps the form", async () => {
    fakeApi({
      ...trees,
      'POST /api/assess/question/duplicates': () => ({
        body: [{ id: '6', code: 'Q00000006', stem: '选一个', status: 'ready', exact: true, similarity: 1 }],
      }),
    });
    const app = renderApp({
      store,
      access: grant(codes),
      initialPath: '/question/add',
      routes: [{ path: '/question/add', element: <QuestionEditPage /> }],
    });
    // the app's history is a hash one (.umirc.ts): its addresses start with '#'
    app.history.createHref = (to) => `#${typeof to === 'string' ? to : createPath(to)}`;
    render(app.tree);
    await writeSingleChoice();
    fireEvent.click(screen.getAllByTestId('question-options-correct')[1]);
    await next('question-analysis');
    await next('question-step-preview');
    const link = (await within(screen.getByTestId('question-duplicates')).findByText('Q00000006')).closest('a');
    expect(link).toHaveAttribute('href', '#/question/6/profile');
    expect(link).toHaveAttribute('target', '_blank');
    expect(screen.getByTestId('allow-duplicate')).toBeInTheDocument();
  });
});

describe('/question/:id/profile', () => {
  const openProfile = (id: string) =>
    renderAt(
      store,
      `/question/${id}/profile`,
      [{ path: '/question/:id/profile', element: <QuestionProfile /> }],
      codes,
    );

  it('shows the question as a candidate reads it and what each version changed', async () => {
    const ready = aQuestion({ id: '5', status: 'ready', currentVersion: 2, stem: '男，60岁。首选药物是' });
    const versions = [
      aQuestionVersion(2, ready, { changeNote: '改年龄' }),
      aQuestionVersion(1, { ...ready, stem: '男，56岁。首选药物是' }),
    ];
    let duplicateAsked: unknown;
    fakeApi(
      questionProfileRoutes(ready, {
        'GET /api/assess/question/5/versions': () => ({ body: versions }),
        'GET /api/assess/question/5/papers': () => ({
          body: [{ paperId: '8', code: 'P8', title: '出科考核', status: 'published', questionVersion: 1 }],
        }),
        'GET /api/assess/question/5/statistics': () => ({
          body: someQuestionStatistics({
            usageCount: 3,
            versionCount: 2,
            papers: { draft: 1, published: 1, closed: 1 },
            lastUsedAt: '2026-03-01T08:00:00.000Z',
            drawableBy: [{ paperId: '9', code: 'P9', title: '随机卷' }],
          }),
        }),
        'POST /api/assess/question/duplicates': validatedBy(FindDuplicates, (call) => {
          duplicateAsked = call.body;
          return {
            body: [
              {
                id: '6',
                code: 'Q00000006',
                stem: '男，61岁。首选药物是',
                status: 'ready',
                exact: false,
                similarity: 0.82,
              },
            ],
          };
        }),
      }),
    );
    openProfile('5');
    const preview = await screen.findByTestId('question-preview');
    expect(within(preview).getByText('男，60岁。首选药物是')).toBeInTheDocument();
    const diff = await screen.findByTestId('version-diff');
    expect(within(diff).getByText('男，56岁。首选药物是')).toBeInTheDocument();
    expect(within(diff).getByText('男，60岁。首选药物是')).toBeInTheDocument();
    expect(screen.getAllByTestId('question-version')).toHaveLength(2);
    // the paper that pins version 1 shows beside it
    const first = screen.getAllByTestId('question-version')[1];
    expect(await within(first).findByText('P8 出科考核')).toBeInTheDocument();
    expect(screen.getByTestId('profile-edit')).toHaveAttribute('href', '/question/edit/5');
    // how it is used: the figures, the draft paper that may draw it, the questions most like it (itself left out)
    const statistics = screen.getByTestId('question-statistics');
    expect(await within(statistics).findByText('组卷次数')).toBeInTheDocument();
    expect(within(statistics).getByText('3')).toBeInTheDocument();
    expect(within(statistics).getByText('另有 1 份草稿')).toBeInTheDocument();
    expect(within(screen.getByTestId('question-drawable-by')).getByText('P9 随机卷').closest('a')).toHaveAttribute(
      'href',
      '/exam-paper/9/profile',
    );
    const similar = await within(screen.getByTestId('question-similar')).findByText('Q00000006 82%');
    expect(similar.closest('a')).toHaveAttribute('href', '/question/6/profile');
    expect(duplicateAsked).toMatchObject({ stem: '男，60岁。首选药物是', excludeId: '5' });
  });

  it('says a question submitted from its profile was submitted for review', async () => {
    const draft = aQuestion({ id: '5', status: 'draft' });
    const api = fakeApi(
      questionProfileRoutes(draft, {
        'POST /api/assess/question/5/submit': () => ({ body: { ...draft, status: 'pending_review', version: 1 } }),
      }),
    );
    const toast = vi.spyOn(message, 'success');
    openProfile('5');
    fireEvent.click(await screen.findByTestId('profile-submit'));
    await waitFor(() => expect(api.find('POST', '/api/assess/question/5/submit')).toHaveLength(1));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('已提交审核'), { timeout: 10_000 });
  });

  it('shows what a version changed field by field as a reader reads it, an item written again unchanged not at all', async () => {
    const v1 = aCaseGroup({ id: '7' });
    // the edit wrote the items again (new ids), changed the second one's analysis, the category, format, difficulty, score
    const v2 = aQuestion({
      ...v1,
      categoryId: '3',
      categoryName: '外科学',
      medicalFormat: 'A4',
      difficulty: 4,
      suggestedScore: 2,
      currentVersion: 2,
      status: 'ready',
      children: [
        aQuestionItem({ id: '71', stem: '最可能的诊断是', subOrder: 1 }),
        aQuestionItem({ id: '72', stem: '首选的检查是', subOrder: 2, analysis: '心电图最快' }),
      ],
    });
    fakeApi(
      questionProfileRoutes(v2, {
        'GET /api/assess/question/7/versions': () => ({
          body: [aQuestionVersion(2, v2), aQuestionVersion(1, v1)],
        }),
      }),
    );
    openProfile('7');
    const diff = await screen.findByTestId('version-diff');
    const rows = within(diff)
      .getAllByRole('row')
      .slice(1)
      .map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent));
    expect(rows).toEqual([
      ['分类', '心血管', '外科学'],
      ['医学题型', 'A3 病例组型', 'A4 病例串型'],
      ['难度', expect.any(String), expect.any(String)],
      ['建议分值', '', '2'],
      ['第 2 小题 · 解析', '', '心电图最快'],
    ]);
    expect(rows[2][1]).not.toBe(rows[2][2]);
    expect(within(diff).queryByText(/"id"/)).toBeNull();
  });

  it("shows a case analysis stage's weights, its specialty, and a version's change of either", async () => {
    store = freshStore(seededSysCodes('common_status', 'training_specialty'));
    const stage = (id: string, weights: number[], subOrder = 1) =>
      aQuestionItem({
        id,
        subOrder,
        stem: '首先应进行的检查是',
        options: ['心电图', '心肌标志物', '腹部CT'].map((text, i) => ({ key: 'ABC'[i], text, weight: weights[i] })),
        answer: ['A', 'B'],
      });
    const v1 = aQuestion({
      id: '8',
      questionType: 'case_analysis',
      medicalFormat: 'CASE',
      stem: '男，62岁，突发胸痛。',
      options: null,
      answer: null,
      specialtyCode: 'internal_medicine',
      childCount: 2,
      children: [stage('81', [1, 1, 0]), stage('82', [2, 1, -1], 2)],
    });
    const v2 = aQuestion({
      ...v1,
      specialtyCode: 'emergency',
      sourceYear: 2024,
      currentVersion: 2,
      children: [stage('91', [2, 1, -1]), stage('92', [2, 1, -1], 2)],
    });
    const versions = [v2, v1].map((v) => aQuestionVersion(v.currentVersion, v, { createdByName: null }));
    fakeApi(questionProfileRoutes(v2, { 'GET /api/assess/question/8/versions': () => ({ body: versions }) }));
    openProfile('8');
    const preview = (await screen.findAllByTestId('question-preview'))[0];
    // as a candidate meets it: no answer, the case and its first stage, the next one when asked for
    expect(within(preview).queryAllByTestId('preview-weight')).toEqual([]);
    expect(within(preview).queryByTestId('preview-answer')).toBeNull();
    expect(within(preview).getAllByTestId('preview-item')).toHaveLength(2);
    fireEvent.click(within(preview).getByTestId('preview-next-stage'));
    expect(within(preview).getAllByTestId('preview-item')).toHaveLength(3);
    expect(within(preview).queryByTestId('preview-next-stage')).toBeNull();
    // with the answers, every stage at once
    fireEvent.click(within(preview).getByTestId('preview-show-answer'));
    expect(
      within(preview)
        .getAllByTestId('preview-weight')
        .map((tag) => tag.textContent),
    ).toEqual(['+2', '+1', '-1', '+2', '+1', '-1']);
    expect(within(preview).getAllByTestId('preview-stage-most')[0]).toHaveTextContent('本步满分 3');
    const diff = await screen.findByTestId('version-diff');
    const rows = within(diff)
      .getAllByRole('row')
      .slice(1)
      .map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent));
    expect(rows).toEqual([
      ['来源年份', '', '2024'],
      ['专业', '内科', '急诊科'],
      [
        '第 1 小题 · 选项',
        'A. 心电图 ✓ (+1)\nB. 心肌标志物 ✓ (+1)\nC. 腹部CT (0)',
        'A. 心电图 ✓ (+2)\nB. 心肌标志物 ✓ (+1)\nC. 腹部CT (-1)',
      ],
    ]);
    expect(screen.getAllByText('急诊科').length).toBeGreaterThan(0);
  });

  it("shows a short answer's scoring points with their scores beside its reference answer, once the answers are asked for", async () => {
    const essay = aQuestion({
      id: '4',
      questionType: 'short_answer',
      medicalFormat: null,
      stem: '简述急性心肌梗死的治疗原则',
      options: null,
      answer: {
        reference: '尽早再灌注',
        points: [
          { text: '再灌注治疗', score: 3 },
          { text: '抗血小板', score: 2 },
        ],
      },
    });
    fakeApi(questionProfileRoutes(essay));
    openProfile('4');
    const preview = await screen.findByTestId('question-preview');
    expect(within(preview).queryByText('尽早再灌注')).toBeNull();
    fireEvent.click(within(preview).getByTestId('preview-show-answer'));
    expect(within(preview).getByTestId('preview-answer')).toHaveTextContent('尽早再灌注');
    expect(
      within(preview)
        .getAllByTestId('preview-point')
        .map((li) => li.textContent),
    ).toEqual(['再灌注治疗（3 分）', '抗血小板（2 分）']);
  });

  it("asks for a group's likely duplicates by its stems and options, as the server's schema takes them", async () => {
    const group = aCaseGroup({ id: '6' });
    let asked: unknown;
    fakeApi(
      questionProfileRoutes(group, {
        'POST /api/assess/question/duplicates': validatedBy(FindDuplicates, (call) => {
          asked = call.body;
          return { body: [] };
        }),
      }),
    );
    openProfile('6');
    await waitFor(() =>
      expect(asked).toMatchObject({
        stem: '男，56岁，胸痛3小时。',
        children: [{ stem: '最可能的诊断是' }, { stem: '首选的检查是' }],
        excludeId: '6',
      }),
    );
    expect(await within(screen.getByTestId('question-similar')).findByText('无')).toBeInTheDocument();
  });
});
