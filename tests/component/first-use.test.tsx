import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InitialState } from '@/utils/session';
import { fakeApi } from './fake-api';
import { freshStore, renderApp, type TestStore } from './harness';

const model = vi.hoisted(() => ({
  initialState: undefined as InitialState | undefined,
  setInitialState: vi.fn(),
}));
vi.mock('@umijs/max', async (importOriginal) => {
  const original = await importOriginal<{ history: unknown }>();
  // history is created per test (createHistory): read it live
  return {
    ...original,
    get history() {
      return original.history;
    },
    useModel: () => model,
  };
});

const { default: FirstUsePassword } = await import('@/components/password/FirstUsePassword');

const me = {
  userId: '9',
  userName: 'boss',
  displayName: '老板',
  email: null,
  mobile: null,
  version: 0,
  permissions: [],
  roles: [],
  tenant: { id: '3', code: 'gamma', name: 'Gamma' },
  orgId: null,
  clientType: 'console',
  mustChangePassword: true,
};
const policy = '密码至少 8 位，且须同时包含字母和数字';
const slow = { timeout: 15_000 };

vi.setConfig({ testTimeout: 60_000 });
let store: TestStore;
beforeEach(() => {
  store = freshStore();
  model.initialState = { name: '老板', currentUser: me };
  model.setInitialState = vi.fn(async (update: (s: InitialState) => InitialState) => {
    model.initialState = update(model.initialState!);
  });
});
afterEach(() => vi.unstubAllGlobals());

const itemOf = (testId: string) => screen.getByTestId(testId).closest('.ant-form-item') as HTMLElement;

function fill(current: string, next: string) {
  fireEvent.change(screen.getByTestId('current-password'), { target: { value: current } });
  fireEvent.change(screen.getByTestId('new-password'), { target: { value: next } });
  fireEvent.change(screen.getByTestId('confirm-password'), { target: { value: next } });
  fireEvent.click(screen.getByTestId('change-password-submit'));
}

describe('the forced password change at first sign-in', () => {
  it('explains why, shows the server objection on the new password, and lets the user in once changed', async () => {
    const answers = [
      {
        status: 400,
        body: {
          family: 'CLIENT_ERROR',
          code: 'auth.passwordPolicy',
          message: policy,
          fields: [{ field: 'newPassword', message: policy }],
        },
      },
      { status: 204 },
    ];
    const calls = fakeApi({
      'POST /api/auth/password': () => answers.shift(),
      'GET /api/dictionary/catalog/syscodes': () => ({
        body: [
          { type: 'common_status', value: 'enabled', label: '启用', labelEn: 'Enabled', color: 'success', sort: 0 },
        ],
      }),
      'GET /api/dictionary/catalog/errcodes': () => ({ body: [] }),
    });
    render(renderApp({ store, children: <FirstUsePassword /> }).tree);
    expect(screen.getByText('设置新密码')).toBeInTheDocument();
    expect(screen.getByText(/老板，你当前的密码是他人设置的初始密码/)).toBeInTheDocument();

    fill('Initial123', 'weakweak');
    expect(await within(itemOf('new-password')).findByText(policy, {}, slow)).toBeInTheDocument();
    expect(calls.find('GET', '/api/dictionary/catalog/syscodes')).toHaveLength(0);
    expect(model.initialState?.currentUser?.mustChangePassword).toBe(true);

    fill('Initial123', 'MyOwn2026pw');
    await waitFor(() => expect(model.initialState?.currentUser?.mustChangePassword).toBe(false), slow);
    expect(calls.find('POST', '/api/auth/password')[1].body).toEqual({
      currentPassword: 'Initial123',
      newPassword: 'MyOwn2026pw',
    });
    expect(store.getState().root.sysCodes).toHaveLength(1);
  });

  it('offers sign-out instead', async () => {
    const calls = fakeApi({ 'POST /api/auth/logout': () => ({ status: 204 }) });
    const { tree, history } = renderApp({ store, initialPath: '/dashboard/workspace', children: <FirstUsePassword /> });
    render(tree);
    fireEvent.click(screen.getByTestId('first-use-sign-out'));
    await waitFor(() => expect(calls.find('POST', '/api/auth/logout')).toHaveLength(1), slow);
    await waitFor(() => expect(model.initialState?.currentUser).toBeUndefined(), slow);
    expect(history.location.pathname).toBe('/login');
  });
});
