import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import CourseItemListPage from '@/pages/teaching/course-item';
import type { CourseItem } from '@/pages/teaching/course-item/descriptor';
import MediaStatus from '@/pages/teaching/course-item/MediaStatus';
import CourseItemProfile from '@/pages/teaching/course-item/profile';
import { ReplaceMedia } from '../../server/src/modules/teaching/course-item/course-item.resource';
import { fakeApi, page, validatedBy } from './fake-api';
import { fakeUploads } from './fake-xhr';
import { aCourseItem } from './fixtures/course';
import { freshStore, grant, renderApp, renderAt, seededSysCodes, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const codes = ['list', 'update', 'publish', 'progress'].map((a) => `teaching:course-item:${a}`);

/** A draft video of a lecture (第1讲…), its file processed and playable, 1:34 long. */
const video = (id: string, overrides: Partial<CourseItem> = {}) =>
  aCourseItem({
    id,
    itemType: 'video',
    title: `第${id}讲`,
    fileId: '50',
    fileName: 'lecture.mp4',
    mediaStatus: 'ready',
    mediaDurationSec: 94,
    ...overrides,
  });

let store: TestStore;
beforeEach(() => {
  store = freshStore(seededSysCodes('yes_no'));
});
afterEach(() => vi.unstubAllGlobals());

const openItem = (id: string) =>
  renderAt(
    store,
    `/teach/course/item/${id}/profile`,
    [{ path: '/teach/course/item/:id/profile', element: <CourseItemProfile /> }],
    codes,
  );

describe("a course item's media status", () => {
  it('says waiting, processing, ready with its length, or failed with why (the details on hover)', async () => {
    const shown = (item: Partial<CourseItem>) => {
      const { tree } = renderApp({ store, children: <MediaStatus item={video('1', item)} /> });
      const { unmount } = render(tree);
      const tag = screen.getByTestId('media-status');
      const text = tag.textContent;
      const status = tag.dataset.status;
      unmount();
      return { text, status };
    };
    expect(shown({ mediaStatus: 'pending', mediaDurationSec: null })).toEqual({ text: '等待处理', status: 'pending' });
    expect(shown({ mediaStatus: 'processing', mediaDurationSec: null }).text).toContain('处理中');
    expect(shown({ mediaStatus: 'ready', mediaDurationSec: 3725 }).text).toBe('可播放 · 1:02:05');
    expect(shown({ mediaStatus: 'ready', mediaDurationSec: 94 }).text).toBe('可播放 · 1:34');
    expect(
      shown({ mediaStatus: 'failed', mediaError: 'notMedia', mediaErrorDetail: 'Guessed MIME-type not supported' }),
    ).toEqual({ text: '处理失败: 不是音视频文件', status: 'failed' });

    render(renderApp({ store, children: <MediaStatus item={video('1', { mediaStatus: null })} /> }).tree);
    expect(screen.queryByTestId('media-status')).toBeNull();
  });
});

describe('/teach/course/item/:id/profile of a video', () => {
  it('reads the item again while its media is processed, then shows it ready and stops reading', async () => {
    let reads = 0;
    const api = fakeApi({
      'GET /api/teaching/course-item/9': () => {
        reads += 1;
        return {
          body:
            reads < 3
              ? video('9', { mediaStatus: 'processing', mediaDurationSec: null })
              : video('9', { mediaStatus: 'ready', mediaDurationSec: 94, durationMinutes: 2, version: 2 }),
        };
      },
      'GET /api/teaching/course-item/9/progress': () => ({ body: [] }),
      'GET /api/system/audit-log': () => page([]),
    });
    openItem('9');
    const card = await screen.findByTestId('item-media');
    expect(within(card).getByTestId('media-status')).toHaveAttribute('data-status', 'processing');
    expect(card).toHaveTextContent('处理完成后自动刷新');
    await waitFor(() => expect(within(card).getByTestId('media-status')).toHaveAttribute('data-status', 'ready'), {
      timeout: 20_000,
    });
    expect(card).toHaveTextContent('1:34');
    expect(card).not.toHaveTextContent('处理完成后自动刷新');
    const settled = api.find('GET', '/api/teaching/course-item/9').length;
    await new Promise((r) => setTimeout(r, 2500));
    // done: no more reading
    expect(api.find('GET', '/api/teaching/course-item/9')).toHaveLength(settled);
  });

  it('shows why the media failed, and reads it again on request', async () => {
    const failed = video('8', {
      mediaStatus: 'failed',
      mediaError: 'unreadable',
      mediaErrorDetail: 'Atom size exceeds remaining bytes',
      mediaDurationSec: null,
      version: 3,
    });
    const api = fakeApi({
      'GET /api/teaching/course-item/8': () => ({ body: failed }),
      'GET /api/teaching/course-item/8/progress': () => ({ body: [] }),
      'POST /api/teaching/course-item/8/retry-media': () => ({ body: { ...failed, mediaStatus: 'pending' } }),
      'GET /api/system/audit-log': () => page([]),
    });
    openItem('8');
    const card = await screen.findByTestId('item-media');
    expect(within(card).getByTestId('media-status')).toHaveTextContent('处理失败: 文件已损坏或无法识别');
    expect(within(card).getByTestId('media-error-detail')).toHaveTextContent('Atom size exceeds remaining bytes');
    fireEvent.click(within(card).getByTestId('media-retry'));
    await waitFor(() => expect(api.find('POST', '/api/teaching/course-item/8/retry-media')).toHaveLength(1));
    expect(api.find('POST', '/api/teaching/course-item/8/retry-media')[0]?.body).toEqual({ version: 3 });
  });
});

describe('/teach/course/item/list', () => {
  it("shows each video's media status, replaces a file from its row, and reads the list again meanwhile", async () => {
    const uploads = fakeUploads(61);
    let replaced = false;
    const api = fakeApi({
      'GET /api/teaching/course-item': () =>
        page([
          replaced ? video('1', { mediaStatus: 'pending', mediaDurationSec: null, version: 2 }) : video('1'),
          video('2', { mediaStatus: 'failed', mediaError: 'noDuration', mediaDurationSec: null }),
        ]),
      'GET /api/teaching/course': () => page([]),
      'GET /api/file/file/upload-policy': () => ({
        body: { direct: false, provider: 'local', maxSizeMb: 50, allowedExtensions: ['mp4'] },
      }),
      'POST /api/teaching/course-item/1/replace-media': validatedBy(ReplaceMedia, () => {
        replaced = true;
        return { body: video('1', { mediaStatus: 'pending', mediaDurationSec: null, version: 2 }) };
      }),
    });
    render(renderApp({ store, access: grant(codes), children: <CourseItemListPage /> }).tree);
    const row = (title: string) => screen.getByText(title).closest('tr') as HTMLElement;
    await screen.findByText('第1讲');
    expect(within(row('第1讲')).getByTestId('media-status')).toHaveTextContent('可播放 · 1:34');
    expect(within(row('第2讲')).getByTestId('media-status')).toHaveTextContent('文件中没有时长信息');
    expect(within(row('第2讲')).getByTestId('media-retry')).toBeInTheDocument();
    expect(within(row('第1讲')).queryByTestId('media-retry')).toBeNull();

    const input = row('第1讲').querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['mp4 bytes'], 'v2.mp4', { type: 'video/mp4' })] } });
    await waitFor(() => expect(api.find('POST', '/api/teaching/course-item/1/replace-media')).toHaveLength(1));
    expect(uploads[0]).toMatchObject({
      method: 'POST',
      url: '/api/file/file/upload?name=v2.mp4&purpose=attachment',
    });
    expect(api.find('POST', '/api/teaching/course-item/1/replace-media')[0]?.body).toEqual({
      fileId: '61',
      version: 1,
    });
    await waitFor(() => expect(within(row('第1讲')).getByTestId('media-status')).toHaveTextContent('等待处理'));
    // pending on the page: the list is read again every few seconds
    const lists = api.find('GET', '/api/teaching/course-item').length;
    await waitFor(() => expect(api.find('GET', '/api/teaching/course-item').length).toBeGreaterThan(lists), {
      timeout: 10_000,
    });
  });
});
