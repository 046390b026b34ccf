import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import FollowerPage from '@/pages/message/follower';
import type { WechatAccount } from '@/pages/message/follower/accounts';
import type { Follower } from '@/pages/message/follower/descriptor';
import { BindFollower } from '../../server/src/modules/message/follower/follower.resource';
import { SyncFollowers } from '../../server/src/modules/message/wechat/wechat-account.resource';
import { fakeApi, page, validatedBy } from './fake-api';
import { freshStore, grant, renderApp, seededSysCodes, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const codes = ['list', 'create', 'update', 'delete', 'export', 'sync', 'bind'].map((a) => `message:follower:${a}`);

const account: WechatAccount = {
  id: '7',
  name: '住培公众号',
  appId: 'wx00000000000000a1',
  secretSet: true,
  token: null,
  aesKeySet: false,
  accountType: 'service',
  primaryIndustry: null,
  deputyIndustry: null,
  tags: [{ id: 101, name: '带教老师', count: 1 }],
  lastSyncedAt: null,
  status: 'enabled',
  remark: null,
  followerCount: 2,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: null,
  version: 1,
};
const follower = (id: string, extra: Partial<Follower> = {}): Follower => ({
  id,
  wechatAccountId: '7',
  accountName: '住培公众号',
  openid: `o-${id}`,
  unionid: null,
  nickname: `关注者${id}`,
  avatarUrl: null,
  subscribeStatus: 'subscribed',
  subscribeTime: '2026-11-01T00:00:00.000Z',
  unsubscribeTime: null,
  language: null,
  country: null,
  province: null,
  city: null,
  remark: null,
  tagIds: [],
  boundPersonType: null,
  boundPersonId: null,
  boundPersonName: null,
  boundAt: null,
  lastInteractionAt: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: null,
  version: 2,
  ...extra,
});

let store: TestStore;
beforeEach(() => {
  store = freshStore(seededSysCodes('common_status'));
});
afterEach(() => vi.unstubAllGlobals());

describe('/message/followers', () => {
  it('shows tags by name and who a follower is bound to, and syncs an account', async () => {
    const api = fakeApi({
      'GET /api/message/follower': () =>
        page([
          follower('1', { tagIds: ['101'], boundPersonType: 'trainee', boundPersonId: '5', boundPersonName: '王小明' }),
          follower('2', { nickname: '李老师' }),
        ]),
      'GET /api/message/wechat-account': () => page([account]),
      'POST /api/message/wechat-account/7/sync': validatedBy(SyncFollowers, () => ({
        body: { mode: 'incremental', total: 3, added: 1, updated: 0, unsubscribed: 0 },
      })),
    });
    render(renderApp({ store, access: grant(codes), children: <FollowerPage /> }).tree);
    const bound = (await screen.findByText('王小明')).closest('tr') as HTMLElement;
    expect(await within(bound).findByText('带教老师')).toBeInTheDocument();
    expect(within(bound).getByTestId('follower-unbind')).toBeInTheDocument();
    const free = screen.getByText('李老师').closest('tr') as HTMLElement;
    expect(within(free).getByTestId('follower-bind')).toBeInTheDocument();
    // followers come from WeChat: no create button
    expect(screen.queryByTestId('table-create')).toBeNull();

    fireEvent.click(screen.getByTestId('follower-sync'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('住培公众号'));
    fireEvent.click(within(dialog).getByTestId('follower-sync-submit'));
    await waitFor(() => expect(api.find('POST', '/api/message/wechat-account/7/sync')).toHaveLength(1));
    expect(api.find('POST', '/api/message/wechat-account/7/sync')[0].body).toEqual({ mode: 'incremental' });
  });

  it('binds a follower to a trainee found by name, and offers no sync or bind without the rights', async () => {
    const api = fakeApi({
      'GET /api/message/follower': () => page([follower('2', { nickname: '李老师' })]),
      'GET /api/message/wechat-account': () => page([account]),
      'GET /api/people/trainee': () => page([{ id: '5', name: '王小明', version: 1 }]),
      'POST /api/message/follower/2/bind': validatedBy(BindFollower, () => ({
        body: follower('2', { boundPersonType: 'trainee', boundPersonId: '5', boundPersonName: '王小明' }),
      })),
    });
    const { unmount } = render(renderApp({ store, access: grant(codes), children: <FollowerPage /> }).tree);
    const row = (await screen.findByText('李老师')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('follower-bind'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('王小明'));
    fireEvent.click(within(dialog).getByTestId('follower-bind-submit'));
    await waitFor(() => expect(api.find('POST', '/api/message/follower/2/bind')).toHaveLength(1));
    expect(api.find('POST', '/api/message/follower/2/bind')[0].body).toEqual({
      personType: 'trainee',
      personId: '5',
      version: 2,
    });
    unmount();

    render(renderApp({ store, access: grant(['message:follower:list']), children: <FollowerPage /> }).tree);
    const readOnly = (await screen.findByText('李老师')).closest('tr') as HTMLElement;
    expect(within(readOnly).queryByTestId('follower-bind')).toBeNull();
    expect(screen.queryByTestId('follower-sync')).toBeNull();
  });

  it('manages the official accounts in a drawer, keeping the app secret unless one is typed', async () => {
    const api = fakeApi({
      'GET /api/message/follower': () => page([]),
      'GET /api/message/wechat-account': () => page([account]),
      'PUT /api/message/wechat-account/7': (call) => ({ body: { ...account, ...(call.body as object) } }),
    });
    render(renderApp({ store, access: grant(codes), children: <FollowerPage /> }).tree);
    fireEvent.click(await screen.findByTestId('follower-accounts'));
    const drawer = await screen.findByTestId('wechat-accounts');
    const row = (await within(drawer).findByText('wx00000000000000a1')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-edit'));
    await waitFor(() => expect(screen.getByTestId('form-name')).toHaveValue('住培公众号'), { timeout: 15_000 });
    expect(screen.getByText('已设置；留空则保留原密钥')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('form-name'), { target: { value: '住培服务号' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/message/wechat-account/7')).toHaveLength(1));
    const body = api.find('PUT', '/api/message/wechat-account/7')[0].body as Record<string, unknown>;
    expect(body).toMatchObject({ name: '住培服务号', appId: 'wx00000000000000a1', version: 1 });
    expect(body).not.toHaveProperty('appSecret');
    expect(body).not.toHaveProperty('aesKey');
  });
});
