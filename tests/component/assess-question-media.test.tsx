import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Question } from '@/pages/assess/question/descriptor';
import QuestionEditPage from '@/pages/assess/question/edit';
import QuestionProfile from '@/pages/assess/question/profile';
import { CreateQuestion } from '../../server/src/modules/assess/question/question.resource';
import { fakeApi, validatedBy } from './fake-api';
import { fakeUploads } from './fake-xhr';
import { anAttachment } from './fixtures/file';
import { aQuestion, aQuestionVersion, questionProfileRoutes } from './fixtures/question';
import { aTaxonomyNode } from './fixtures/taxonomy';
import { freshStore, renderAt, seededSysCodes, type TestStore } from './harness';

// the step form's walk is long on a busy machine
vi.setConfig({ testTimeout: 150_000 });

const codes = ['list', 'create', 'update', 'review'].map((a) => `assess:question:${a}`);

const category = aTaxonomyNode('1', '影像学', null, { code: 'imaging', questionCount: 0 });
const options = ['窦性心律', '房颤', '房扑', '室速', '室颤'].map((text, i) => ({ key: 'ABCDE'[i], text }));
/** An ECG to read, of the imaging category: B (atrial fibrillation) the answer. */
const anEcgQuestion = (overrides: Partial<Question> = {}) =>
  aQuestion({
    categoryId: '1',
    categoryName: '影像学',
    stem: '心电图如下，诊断是',
    options,
    answer: ['B'],
    tags: [],
    ...overrides,
  });

let store: TestStore;
beforeEach(() => {
  store = freshStore(seededSysCodes('common_status'));
});
afterEach(() => vi.unstubAllGlobals());

describe('/question/add with images', () => {
  const next = async (testId: string) => {
    fireEvent.click(screen.getByTestId('step-next'));
    await waitFor(() => expect(screen.getByTestId(testId)).toBeVisible());
  };

  it("uploads images to the stem as thumbnails, reorders and removes them, the candidate's preview shows them; a non-image is not sent", async () => {
    const uploads = fakeUploads(71);
    const api = fakeApi({
      'GET /api/assess/category/tree': () => ({ body: [category] }),
      'GET /api/assess/knowledge-point/tree': () => ({ body: [] }),
      'GET /api/assess/question/tags': () => ({ body: [] }),
      'GET /api/file/file/upload-policy': () => ({
        body: { direct: false, provider: 'local', maxSizeMb: 50, allowedExtensions: ['png'] },
      }),
      'GET /api/file/file/\\d+/link': (call) => {
        const id = call.path.split('/')[4];
        const name = id === '71' ? 'ecg.png' : 'film.png';
        return { body: { url: `/files/${name}`, expiresAt: '2026-12-01T00:00:00Z', mimeType: 'image/png', name } };
      },
      'POST /api/assess/question/duplicates': () => ({ body: [] }),
      'POST /api/assess/question': validatedBy(CreateQuestion, (call) => ({
        status: 201,
        body: anEcgQuestion({ ...(call.body as Partial<Question>), id: '9' }),
      })),
    });
    renderAt(
      store,
      '/question/add',
      [
        { path: '/question/add', element: <QuestionEditPage /> },
        { path: '/question/:id/profile', element: <div data-testid="landed" /> },
      ],
      codes,
    );
    fireEvent.mouseDown(within(await screen.findByTestId('question-category')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('影像学', { selector: '.ant-select-tree-title' }));
    await next('question-stem');
    fireEvent.change(screen.getByTestId('question-stem'), { target: { value: '心电图如下，诊断是' } });

    const field = screen.getByTestId('question-stem-media');
    const input = field.querySelector('input[type=file]') as HTMLInputElement;
    const png = (name: string) => new File(['png bytes'], name, { type: 'image/png' });
    fireEvent.change(input, { target: { files: [png('ecg.png'), png('film.png')] } });
    const thumbnail = await within(field).findByRole('img', { name: 'ecg.png' });
    expect(thumbnail).toHaveAttribute('src', '/files/ecg.png');
    await within(field).findByRole('img', { name: 'film.png' });
    expect(uploads[0]).toEqual({ method: 'POST', url: '/api/file/file/upload?name=ecg.png&purpose=attachment' });
    // reordered (the film first), then the ECG removed
    const names = () =>
      within(field)
        .getAllByRole('img', { name: /\.png$/ })
        .map((i) => i.getAttribute('alt'));
    expect(names()).toEqual(['ecg.png', 'film.png']);
    fireEvent.click(within(field).getAllByRole('button', { name: '后移' })[0] as HTMLElement);
    expect(names()).toEqual(['film.png', 'ecg.png']);
    fireEvent.click(within(field).getAllByTestId('question-stem-media-remove')[1] as HTMLElement);
    expect(names()).toEqual(['film.png']);

    await next('question-options');
    // an option takes images too; a document is refused before it is sent
    fireEvent.click(screen.getByTestId('question-options-images'));
    const optionImages = screen.getAllByTestId('question-options-media')[0] as HTMLElement;
    fireEvent.change(optionImages.querySelector('input[type=file]') as HTMLInputElement, {
      target: { files: [new File(['text'], 'notes.txt', { type: 'text/plain' })] },
    });
    expect(await screen.findByText('只能添加图片（PNG、JPEG、GIF 或 WebP）')).toBeInTheDocument();
    expect(uploads).toHaveLength(2);
    const texts = screen.getAllByTestId('question-options-text');
    for (const [i, text] of texts.entries()) fireEvent.change(text, { target: { value: `选项${i}` } });
    fireEvent.click(screen.getAllByTestId('question-options-correct')[1] as HTMLElement);
    await next('question-analysis');
    await next('question-step-preview');
    const preview = screen.getByTestId('question-preview');
    expect(within(preview).getByRole('img', { name: 'film.png' })).toHaveAttribute('src', '/files/film.png');
    expect(within(preview).queryByRole('img', { name: 'ecg.png' })).toBeNull();

    fireEvent.click(screen.getByTestId('question-save'));
    await screen.findByTestId('landed');
    expect(api.find('POST', '/api/assess/question')[0].body).toMatchObject({
      stem: '心电图如下，诊断是',
      stemMediaFileIds: ['72'],
    });
  });
});

describe('/question/:id/profile with images', () => {
  it("shows the stem's and an option's images, and a version that changed the stem's image", async () => {
    const now = anEcgQuestion({
      id: '5',
      status: 'ready',
      currentVersion: 2,
      stemMediaFileIds: ['12'],
      options: options.map((o) => (o.key === 'C' ? { ...o, mediaIds: ['13'] } : o)),
    });
    const versions = [aQuestionVersion(2, now), aQuestionVersion(1, { ...now, stemMediaFileIds: ['11'] })];
    fakeApi(
      questionProfileRoutes(now, {
        'GET /api/assess/question/5/attachments': () => ({
          body: [
            anAttachment('11', 'old-ecg.png'),
            anAttachment('12', 'new-ecg.png'),
            anAttachment('13', 'flutter.png'),
          ],
        }),
        'GET /api/assess/question/5/versions': () => ({ body: versions }),
      }),
    );
    renderAt(store, '/question/5/profile', [{ path: '/question/:id/profile', element: <QuestionProfile /> }], codes);
    const preview = (await screen.findAllByTestId('question-preview'))[0] as HTMLElement;
    expect(await within(preview).findByRole('img', { name: 'new-ecg.png' })).toHaveAttribute(
      'src',
      '/files/new-ecg.png',
    );
    expect(within(preview).getByRole('img', { name: 'flutter.png' })).toBeInTheDocument();
    const diff = await screen.findByTestId('version-diff');
    const row = within(diff).getByText('题干图片').closest('tr') as HTMLElement;
    expect(within(row).getByText('old-ecg.png')).toBeInTheDocument();
    expect(within(row).getByText('new-ecg.png')).toBeInTheDocument();
  });
});
