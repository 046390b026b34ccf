import { beforeEach, describe, expect, it } from 'vitest';
import { dispatchRoot, getRootState, readPersistedRoot } from '@/utils/store';

const persisted = (root: object) =>
  localStorage.setItem(
    'persist:root',
    JSON.stringify({ root: JSON.stringify(root), _persist: '{"version":-1,"rehydrated":true}' }),
  );

describe('state before the dva store exists (getInitialState runs first)', () => {
  beforeEach(() => localStorage.clear());

  it('reads the persisted root state from local storage, over the defaults', () => {
    persisted({ token: { accessToken: 'a', refreshToken: 'r', type: 'bearer' }, theme: 'dark' });
    expect(readPersistedRoot()?.token).toEqual({ accessToken: 'a', refreshToken: 'r', type: 'bearer' });
    expect(getRootState().theme).toBe('dark');
    expect(getRootState().reloadPath).toBe('null');
  });

  it('keeps early dispatches and shows them in the state', () => {
    persisted({ tenantId: '1' });
    dispatchRoot('SET_TENANT_ID', '2');
    expect(getRootState().tenantId).toBe('2');
  });
});
