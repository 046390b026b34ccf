import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import RichTextEditor from '@/components/richText/RichTextEditor';
import DocumentBasePage, { type DocumentBase } from '@/pages/content/base';
import DocumentListPage from '@/pages/content/document';
import type { Document, DocumentVersion } from '@/pages/content/document/descriptor';
import DocumentProfilePage from '@/pages/content/document/profile';
import { lineDiff } from '@/pages/content/document/profile/diff';
import TagPage, { type Tag } from '@/pages/content/tag';
import { fakeApi, page } from './fake-api';
import { freshStore, grant, renderApp, seededSysCodes, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const codes = [
  ...['list', 'create', 'update', 'delete', 'export', 'publish', 'new-version'].map((a) => `doc:document:${a}`),
  ...['list', 'create', 'update', 'delete', 'merge'].map((a) => `doc:tag:${a}`),
  ...['list', 'create', 'update', 'delete', 'grant'].map((a) => `doc:base:${a}`),
];

const doc = (id: string, extra: Partial<Document> = {}): Document => ({
  id,
  baseId: '1',
  baseName: '规章制度',
  title: '手卫生规范',
  docType: 'regulation',
  docNumber: null,
  issuer: null,
  summary: null,
  contentHtml: '<p>洗手六步法</p>',
  fileId: null,
  fileName: null,
  attachmentFileIds: [],
  tagIds: [],
  tagNames: [],
  versionLabel: 'v1',
  supersedesId: null,
  chainId: id,
  status: 'published',
  publishAt: null,
  publishedAt: '2026-11-01T00:00:00.000Z',
  effectiveFrom: null,
  effectiveTo: null,
  isPinned: false,
  allowDownload: true,
  viewCount: 0,
  downloadCount: 0,
  remark: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: null,
  version: 3,
  ...extra,
});
const tag = (id: string, extra: Partial<Tag> = {}): Tag => ({
  id,
  name: `标签${id}`,
  scope: 'document',
  groupName: null,
  color: null,
  aliases: [],
  usageCount: 0,
  sort: 0,
  status: 'enabled',
  remark: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: null,
  version: 1,
  ...extra,
});
const base = (id: string, extra: Partial<DocumentBase> = {}): DocumentBase => ({
  id,
  code: `B${id}`,
  name: '教学资料',
  description: null,
  visibility: 'restricted',
  ownerOrgId: null,
  ownerOrgName: null,
  sort: 0,
  status: 'enabled',
  remark: null,
  documentCount: 2,
  publishedCount: 1,
  viewCount: 5,
  downloadCount: 1,
  grantCount: 1,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: null,
  version: 2,
  ...extra,
});

let store: TestStore;
beforeEach(() => {
  store = freshStore(seededSysCodes('doc_type', 'common_status'));
});
afterEach(() => vi.unstubAllGlobals());

describe('/doc/list', () => {
  it('marks where a keyword was found, and publishes or takes documents offline by their state', async () => {
    const api = fakeApi({
      'GET /api/content/document': () =>
        page([
          doc('1', {
            title: '临床路径管理办法',
            highlight: {
              title: '<mark>临床路径</mark>管理办法',
              summary: null,
              snippet: '按照<mark>临床路径</mark>开展诊疗&lt;b&gt;',
            },
          }),
          doc('2', { title: '值班制度', status: 'draft' }),
        ]),
      'POST /api/content/document/2/publish': () => ({ body: doc('2') }),
      'POST /api/content/document/1/offline': () => ({ body: doc('1', { status: 'offline' }) }),
    });
    render(renderApp({ store, access: grant(codes), children: <DocumentListPage /> }).tree);
    const snippet = await screen.findByTestId('document-snippet');
    expect(snippet.querySelector('mark')).toHaveTextContent('临床路径');
    // the server's escaped text stays text
    expect(snippet).toHaveTextContent('开展诊疗<b>');
    expect(snippet.querySelector('b')).toBeNull();

    const draft = screen.getByText('值班制度').closest('tr') as HTMLElement;
    expect(within(draft).queryByTestId('document-offline')).toBeNull();
    fireEvent.click(within(draft).getByTestId('document-publish'));
    await waitFor(() => expect(api.find('POST', '/api/content/document/2/publish')).toHaveLength(1));
    expect(api.find('POST', '/api/content/document/2/publish')[0].body).toEqual({ version: 3 });
    const published = (snippet.closest('tr') as HTMLElement) ?? draft;
    fireEvent.click(within(published).getByTestId('document-offline'));
    await waitFor(() => expect(api.find('POST', '/api/content/document/1/offline')).toHaveLength(1));
  });
});

describe('/doc/:id/profile', () => {
  it('shows the kept text, and each version compared with the one before it', async () => {
    const versions: DocumentVersion[] = [
      {
        id: '5',
        title: '手卫生规范',
        versionLabel: 'v2',
        status: 'draft',
        supersedesId: '4',
        publishedAt: null,
        createdAt: '2026-11-02T00:00:00.000Z',
        contentText: '洗手七步法\n擦干',
      },
      {
        id: '4',
        title: '手卫生规范',
        versionLabel: 'v1',
        status: 'published',
        supersedesId: null,
        publishedAt: '2026-11-01T00:00:00.000Z',
        createdAt: '2026-11-01T00:00:00.000Z',
        contentText: '洗手六步法\n擦干',
      },
    ];
    fakeApi({
      'GET /api/content/document/5': () => ({
        body: doc('5', {
          status: 'draft',
          versionLabel: 'v2',
          supersedesId: '4',
          contentHtml: '<p>洗手<strong>七步法</strong></p>',
        }),
      }),
      'GET /api/content/document/5/versions': () => ({ body: versions }),
      'GET /api/system/audit-log': () => page([]),
    });
    render(
      renderApp({
        store,
        access: grant(codes),
        initialPath: '/doc/5/profile',
        routes: [{ path: '/doc/:id/profile', element: <DocumentProfilePage /> }],
      }).tree,
    );
    const content = await screen.findByTestId('document-content');
    expect(within(content).getByText('七步法').tagName).toBe('STRONG');
    expect(screen.getByTestId('document-profile-publish')).toBeInTheDocument();
    const table = await screen.findByTestId('document-versions');
    await within(table).findByText('v1');
    expect(
      within(table).getByText(dayjs('2026-11-01T00:00:00.000Z').format('YYYY-MM-DD HH:mm:ss')),
    ).toBeInTheDocument();
    fireEvent.click(within(table).getAllByRole('button', { name: /展开|Expand/ })[0]);
    const diff = await screen.findByTestId('document-diff');
    expect(diff).toHaveTextContent('− 洗手六步法');
    expect(diff).toHaveTextContent('+ 洗手七步法');
  });

  it('compares lines: kept, taken out, put in', () => {
    expect(lineDiff('a\nb\nc', 'a\nx\nc\nd')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'x' },
      { kind: 'same', text: 'c' },
      { kind: 'added', text: 'd' },
    ]);
  });
});

describe('/doc/tag', () => {
  it('merges tags into one, and detaches a tag in use after a confirmation', async () => {
    const api = fakeApi({
      'GET /api/content/tag': () => page([tag('1', { name: '感染控制', usageCount: 3 }), tag('2', { name: '院感' })]),
      'GET /api/content/tag/options': () => ({
        body: [
          { value: '1', label: '感染控制', color: null, groupName: null },
          { value: '2', label: '院感', color: null, groupName: null },
        ],
      }),
      'POST /api/content/tag/1/merge': () => ({ body: tag('1', { aliases: ['院感'] }) }),
      'POST /api/content/tag/1/detach': () => ({ body: tag('1') }),
    });
    render(renderApp({ store, access: grant(codes), children: <TagPage /> }).tree);
    const row = (await screen.findByText('感染控制')).closest('tr') as HTMLElement;
    const unused = screen.getByText('院感').closest('tr') as HTMLElement;
    expect(within(unused).queryByTestId('tag-detach')).toBeNull();

    fireEvent.click(within(row).getByTestId('tag-detach'));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(api.find('POST', '/api/content/tag/1/detach')).toHaveLength(1));
    expect(api.find('POST', '/api/content/tag/1/detach')[0].body).toEqual({ version: 1 });

    fireEvent.click(within(row).getByTestId('tag-merge-open'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('院感'));
    fireEvent.click(screen.getByTestId('tag-merge-submit'));
    await waitFor(() => expect(api.find('POST', '/api/content/tag/1/merge')).toHaveLength(1));
    expect(api.find('POST', '/api/content/tag/1/merge')[0].body).toEqual({ sourceIds: ['2'], version: 1 });
  });
});

describe('/doc/base', () => {
  it("edits a library's grants as a whole", async () => {
    const api = fakeApi({
      'GET /api/content/document-base': () => page([base('7')]),
      'GET /api/content/document-base/7/grants': () => ({
        body: [{ subjectType: 'role', subjectId: '3', subjectName: '带教老师', permission: 'view' }],
      }),
      'GET /api/system/role/options': () => ({ body: [{ id: '3', code: 'teacher', name: '带教老师' }] }),
      'PUT /api/content/document-base/7/grants': () => ({ body: { base: base('7', { version: 3 }), grants: [] } }),
    });
    render(renderApp({ store, access: grant(codes), children: <DocumentBasePage /> }).tree);
    const row = (await screen.findByText('教学资料')).closest('tr') as HTMLElement;
    expect(within(row).getByText('按授权')).toBeInTheDocument();
    fireEvent.click(within(row).getByTestId('base-grants'));
    fireEvent.click(await screen.findByTestId('base-grants-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/content/document-base/7/grants')).toHaveLength(1));
    expect(api.find('PUT', '/api/content/document-base/7/grants')[0].body).toEqual({
      grants: [{ subjectType: 'role', subjectId: '3', permission: 'view' }],
      version: 2,
    });
  });
});

describe('a first library, a first document', () => {
  it('an empty library list says to create a library first, with the button that opens the form', async () => {
    fakeApi({ 'GET /api/content/document-base': () => page([]) });
    render(renderApp({ store, access: grant(codes), children: <DocumentBasePage /> }).tree);
    const empty = await screen.findByTestId('base-empty');
    expect(empty).toHaveTextContent('还没有文档库');
    fireEvent.click(within(empty).getByTestId('base-empty-create'));
    expect(await screen.findByRole('dialog')).toHaveTextContent('编码');
  });

  it('an empty document list with no library says a library is needed first, and leads to the libraries', async () => {
    fakeApi({
      'GET /api/content/document': () => page([]),
      'GET /api/content/document-base': () => page([]),
    });
    const { tree, history } = renderApp({ store, access: grant(codes), children: <DocumentListPage /> });
    render(tree);
    const empty = await screen.findByTestId('document-no-base');
    expect(empty).toHaveTextContent('请先新建一个文档库');
    fireEvent.click(within(empty).getByTestId('document-no-base-create'));
    await waitFor(() => expect(history.location.pathname).toBe('/doc/base'));
  });

  it('an empty document list while a library exists says nothing of libraries', async () => {
    fakeApi({
      'GET /api/content/document': () => page([]),
      'GET /api/content/document-base': () => page([base('7')]),
    });
    render(renderApp({ store, access: grant(codes), children: <DocumentListPage /> }).tree);
    await waitFor(() => expect(document.querySelector('.ant-empty')).not.toBeNull());
    expect(screen.queryByTestId('document-no-base')).toBeNull();
  });
});

describe('the rich-text editor', () => {
  // jsdom lays nothing out: ProseMirror scrolls the selection into view through ranges' rectangles
  beforeEach(() => {
    const rects = () => Object.assign([] as DOMRect[], { item: () => null }) as unknown as DOMRectList;
    Range.prototype.getClientRects = rects;
    Range.prototype.getBoundingClientRect = () => new DOMRect();
  });

  it('shows the HTML it is given and hands back what the toolbar makes of it', async () => {
    const onChange = vi.fn();
    render(<RichTextEditor value="<p>请假制度</p>" onChange={onChange} />);
    const editor = await screen.findByTestId('rich-text-editor');
    await within(editor).findByText('请假制度');
    fireEvent.click(screen.getByTestId('rich-text-h2'));
    await waitFor(() => expect(onChange.mock.calls.at(-1)?.[0]).toMatch(/^<h2>请假制度<\/h2>/));
  });

  it('tells its form of no change until the text changes: an empty form shows no error before it is touched', async () => {
    const onChange = vi.fn();
    render(<RichTextEditor value="" onChange={onChange} />);
    await screen.findByTestId('rich-text-bold');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(onChange).not.toHaveBeenCalled();
  });
});
