import { Provider as ModelProvider } from '@@/plugin-model';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { history } from '@umijs/max';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import Login from '@/pages/login';
import type { InitialState } from '@/utils/session';
import { fakeApi } from './fake-api';
import { freshStore, renderApp, type TestStore } from './harness';

const me = (permissions: string[]) => ({
  userId: '1',
  userName: 'admin',
  displayName: '管理员',
  email: null,
  mobile: null,
  version: 0,
  permissions,
  roles: [],
  tenant: { id: '2', code: 'demo', name: '示例医院' },
  orgId: null,
  clientType: 'console',
  mustChangePassword: false,
});

let store: TestStore;
beforeEach(() => {
  store = freshStore();
});
afterEach(() => vi.unstubAllGlobals());

function signInScreen(initial: InitialState, path: string) {
  // biome-ignore lint/correctness/noComponentHookFactories: the stand-in for useModel of one mounted screen, made once per test
  function useInitialState() {
    const [initialState, set] = useState(initial);
    const setInitialState = async (next: InitialState | ((s: InitialState) => InitialState)) =>
      set((state) => (typeof next === 'function' ? next(state) : next));
    return { initialState, setInitialState, loading: false };
  }
  const routes = [
    { path: '/login', element: <Login /> },
    { path: '*', element: <p data-testid="landed" /> },
  ];
  const { tree } = renderApp({ store, routes, initialPath: path });
  render(<ModelProvider models={{ '@@initialState': useInitialState }}>{tree}</ModelProvider>);
}

function serve(permissions: string[]) {
  return fakeApi({
    'POST /api/auth/token': () => ({
      body: { access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 60, refresh_expires_in: 600 },
    }),
    'GET /api/auth/me': () => ({ body: me(permissions) }),
    'GET /api/dictionary/catalog/syscodes': () => ({ body: [] }),
    'GET /api/dictionary/catalog/errcodes': () => ({ body: [] }),
    'GET /api/system/settings/public': () => ({ body: {} }),
  });
}

async function submit() {
  fireEvent.change(screen.getByTestId('login-username'), { target: { value: 'admin' } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'admin123' } });
  fireEvent.click(screen.getByTestId('login-submit'));
  await screen.findByTestId('landed', undefined, { timeout: 10_000 });
}

describe('sign-in and the page asked for', () => {
  it('returns to the deep link after sign-in', async () => {
    serve(['dashboard:workspace:view', 'system:admin:list']);
    signInScreen({ settings: {} }, '/login?redirect=%2Fsystem%2Fadmin%2F7%2Fprofile%3Ftab%3Daudit');
    await submit();
    expect(`${history.location.pathname}${history.location.search}`).toBe('/system/admin/7/profile?tab=audit');
    expect(store.getState().root.token).toMatchObject({ accessToken: 'a' });
  });

  it('never follows a redirect out of the app: lands on the first screen the user may open', async () => {
    serve(['system:role:list']);
    signInScreen({ settings: {} }, '/login?redirect=https%3A%2F%2Fevil.example%2F');
    await submit();
    expect(history.location.pathname).toBe('/system/role');
  });

  it('sends a signed-in user on from the sign-in screen, to the page asked for', async () => {
    signInScreen(
      { settings: {}, currentUser: me(['dashboard:workspace:view']) },
      '/login?redirect=%2Faccount%2Fcenter',
    );
    await screen.findByTestId('landed');
    expect(history.location.pathname).toBe('/account/center');
  });

  it('sends a signed-in user without a deep link to their workspace', async () => {
    signInScreen({ settings: {}, currentUser: me(['dashboard:workspace:view']) }, '/login');
    await screen.findByTestId('landed');
    expect(history.location.pathname).toBe('/dashboard/workspace');
  });
});
