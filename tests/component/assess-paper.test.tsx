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
        },
      ],
      rules: [],
    },
    {
      id: '12',
      title: '随机题',
      instructions: null,
      defaultScore: 2,
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
          count: 3,
          score: 2,
          available: 5,
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

describe('/exam-paper/:id/profile', () => {
  it('previews the paper as a candidate gets it, drawing again on request', async () => {
    const preview = (seed: number): PaperPreview => ({
      seed,
      totalScore: 8,
      sections: [
        {
          title: 'A1 型题',
          instructions: null,
          questions: [
            {
              id: String(100 + seed),
              code: `Q${seed}`,
              version: 1,
              score: 2,
              drawn: seed > 0,
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
    expect(api.find('GET', '/api/assess/paper/1/export-word')[0].query).toEqual({ seed: '2', answers: 'true' });
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    // and the same draw as a PDF, now without the key
    fireEvent.click(screen.getByTestId('paper-preview-key'));
    fireEvent.click(screen.getByTestId('paper-export-pdf'));
    await waitFor(() => expect(api.find('GET', '/api/assess/paper/1/export-pdf')).toHaveLength(1));
    expect(api.find('GET', '/api/assess/paper/1/export-pdf')[0].query).toEqual({ seed: '2', answers: 'false' });
  });
});
