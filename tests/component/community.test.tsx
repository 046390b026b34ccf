import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import PostListPage from '@/pages/community/post';
import type { Post, ReplyThread } from '@/pages/community/post/descriptor';
import PostProfilePage from '@/pages/community/post/profile';
import ReportPage, { type ReportCase } from '@/pages/community/report';
import { fakeApi, page } from './fake-api';
import { freshStore, grant, renderApp, seededSysCodes, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const codes = [
  ...['list', 'create', 'update', 'delete', 'moderate', 'pin', 'feature', 'lock', 'move'].map(
    (a) => `community:post:${a}`,
  ),
  ...['list', 'resolve'].map((a) => `community:report:${a}`),
];

const post = (id: string, extra: Partial<Post> = {}): Post => ({
  id,
  boardId: '1',
  boardName: '病例讨论',
  authorType: 'admin',
  authorId: '1',
  authorName: '管理员',
  title: '一例罕见病',
  contentHtml: '<p>见<strong>附图</strong></p>',
  attachmentFileIds: [],
  status: 'published',
  isPinned: false,
  pinnedUntil: null,
  isFeatured: false,
  isLocked: false,
  viewCount: 0,
  likeCount: 0,
  replyCount: 0,
  reportCount: 0,
  lastReplyAt: null,
  reviewComment: null,
  reviewedBy: null,
  reviewedAt: null,
  hiddenReason: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: null,
  version: 2,
  ...extra,
});
const reportCase = (id: string, extra: Partial<ReportCase> = {}): ReportCase => ({
  id,
  targetType: 'post',
  targetId: '3',
  targetSnapshot: {
    title: '被举报的帖子',
    excerpt: '正文',
    authorType: 'admin',
    authorId: '1',
    authorName: '管理员',
    postId: '3',
  },
  targetStatus: 'published',
  reportCount: 2,
  reasons: ['other', 'spam'],
  potentialSpam: true,
  autoHidden: false,
  status: 'pending',
  resolution: null,
  handledBy: null,
  handledByName: null,
  handledAt: null,
  handleNote: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: null,
  version: 4,
  ...extra,
});

let store: TestStore;
beforeEach(() => {
  store = freshStore();
});
afterEach(() => vi.unstubAllGlobals());

describe('/post/list', () => {
  it('approves a post waiting for approval, and rejects one with a comment', async () => {
    const api = fakeApi({
      'GET /api/community/post': () =>
        page([post('1', { status: 'pending_review' }), post('2', { title: '广告', status: 'pending_review' })]),
      'POST /api/community/post/1/approve': () => ({ body: post('1') }),
      'POST /api/community/post/2/reject': () => ({ body: post('2', { status: 'rejected' }) }),
    });
    render(renderApp({ store, access: grant(codes), children: <PostListPage /> }).tree);
    const first = (await screen.findByText('一例罕见病')).closest('tr') as HTMLElement;
    expect(within(first).queryByTestId('post-hide')).toBeNull();
    fireEvent.click(within(first).getByTestId('post-approve'));
    await waitFor(() => expect(api.find('POST', '/api/community/post/1/approve')).toHaveLength(1));
    expect(api.find('POST', '/api/community/post/1/approve')[0].body).toEqual({ version: 2 });

    const second = screen.getByText('广告').closest('tr') as HTMLElement;
    fireEvent.click(within(second).getByTestId('post-reject'));
    fireEvent.change(await screen.findByTestId('post-reason'), { target: { value: '与版块无关' } });
    fireEvent.click(screen.getByTestId('post-reason-submit'));
    await waitFor(() => expect(api.find('POST', '/api/community/post/2/reject')).toHaveLength(1));
    expect(api.find('POST', '/api/community/post/2/reject')[0].body).toEqual({ comment: '与版块无关', version: 2 });
  });

  it('opens a new post with no error under its empty text, and asks for the text when it is sent empty', async () => {
    const api = fakeApi({
      'GET /api/community/post': () => page([]),
      'GET /api/community/board': () => page([{ id: '1', name: '病例讨论' }]),
      'POST /api/community/post': () => ({ body: post('9') }),
    });
    render(renderApp({ store, access: grant(codes), children: <PostListPage /> }).tree);
    fireEvent.click(await screen.findByTestId('table-create'));
    const editor = await screen.findByTestId('rich-text-editor', {}, { timeout: 5000 });
    const field = editor.closest('.ant-form-item') as HTMLElement;
    await screen.findByTestId('rich-text-bold');
    // the editor has mounted and set itself editable: nothing typed, nothing wrong yet
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(field.querySelector('.ant-form-item-explain-error')).toBeNull();
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(field.querySelector('.ant-form-item-explain-error')).not.toBeNull());
    expect(api.find('POST', '/api/community/post')).toHaveLength(0);
  });
});

describe('/post/:id/profile/', () => {
  it('shows the kept text, the thread one level deep, and the reports on the post', async () => {
    const threads: ReplyThread[] = [
      {
        id: '10',
        postId: '3',
        parentReplyId: null,
        authorType: 'admin',
        authorId: '1',
        authorName: '张医生',
        contentHtml: '<p>一楼</p>',
        attachmentFileIds: [],
        status: 'published',
        hiddenReason: null,
        likeCount: 0,
        createdAt: '2026-11-01T00:00:00.000Z',
        version: 0,
        replies: [
          {
            id: '11',
            postId: '3',
            parentReplyId: '10',
            authorType: 'admin',
            authorId: '1',
            authorName: '李医生',
            contentHtml: '<p>回复一楼</p>',
            attachmentFileIds: [],
            status: 'hidden',
            hiddenReason: '无关',
            likeCount: 0,
            createdAt: '2026-11-01T00:00:00.000Z',
            version: 1,
          },
        ],
      },
    ];
    fakeApi({
      'GET /api/community/post/3': () => ({ body: post('3', { replyCount: 2, reportCount: 2 }) }),
      'GET /api/community/post/3/replies': () => ({ body: threads }),
      'GET /api/community/report': () => page([reportCase('7')]),
      'GET /api/system/audit-log': () => page([]),
    });
    render(
      renderApp({
        store,
        access: grant(codes),
        initialPath: '/post/3/profile/',
        routes: [{ path: '/post/:id/profile', element: <PostProfilePage /> }],
      }).tree,
    );
    const content = await screen.findByTestId('post-content');
    expect(within(content).getByText('附图').tagName).toBe('STRONG');
    const thread = screen.getByTestId('post-thread');
    await within(thread).findByText('回复一楼');
    expect(within(thread).getByText('无关')).toBeInTheDocument();
    const reports = screen.getByTestId('post-reports');
    await within(reports).findByText('垃圾广告');
    expect(within(reports).getByText('待处理')).toBeInTheDocument();
    // times as the rest of the console writes them, not the browser's 11/1/2026, 8:00:00 AM
    const at = dayjs('2026-11-01T00:00:00.000Z').format('YYYY-MM-DD HH:mm:ss');
    expect(within(thread).getAllByText(at)).toHaveLength(2);
    expect(within(reports).getByText(at)).toBeInTheDocument();
  });
});

describe('/report/list', () => {
  it('shows one case per target with its count and reasons, and hides the content from the case', async () => {
    const api = fakeApi({
      'GET /api/community/report': () =>
        page([
          reportCase('7'),
          reportCase('8', {
            targetType: 'user',
            targetId: '5',
            targetSnapshot: {
              title: null,
              excerpt: null,
              authorType: 'admin',
              authorId: '5',
              authorName: '王五',
              postId: null,
            },
            targetStatus: 'disabled',
          }),
        ]),
      'POST /api/community/report/7/resolve': () => ({
        body: reportCase('7', { status: 'resolved', resolution: 'hide', targetStatus: 'hidden' }),
      }),
    });
    store = freshStore(seededSysCodes('admin_user_status'));
    render(renderApp({ store, access: grant(codes), children: <ReportPage /> }).tree);
    const row = (await screen.findByText('被举报的帖子')).closest('tr') as HTMLElement;
    // the content's status by its label, a post's or a user's
    expect(within(row).getByText('已发布')).toBeInTheDocument();
    expect(within(row).queryByText('published')).toBeNull();
    const user = screen.getAllByText('王五')[0]?.closest('tr') as HTMLElement;
    expect(within(user).getByText('停用')).toBeInTheDocument();
    expect(within(row).getByText('垃圾广告')).toBeInTheDocument();
    expect(within(row).getByText('其他')).toBeInTheDocument();
    fireEvent.click(within(row).getByTestId('case-resolve'));
    fireEvent.click(await screen.findByTestId('case-resolve-submit'));
    await waitFor(() => expect(api.find('POST', '/api/community/report/7/resolve')).toHaveLength(1));
    expect(api.find('POST', '/api/community/report/7/resolve')[0].body).toEqual({ action: 'hide', version: 4 });
  });
});
