import { describe, expect, it } from 'vitest';
import model, { ACTION_FIELDS, initialRootState } from '@/models/root';
import { persistConfig } from '@/utils/store';

describe('root model', () => {
  it('is the dva namespace "root" with the defaults of spec.md §3', () => {
    expect(model.namespace).toBe('root');
    expect(model.state).toEqual({
      appSettings: {},
      userInfo: { userName: '', permissions: [], token: '' },
      tenantId: '',
      orgId: '',
      collapsed: false,
      curTab: [],
      lastActiveTabPath: '',
      theme: 'light',
      reloadPath: 'null',
      token: { accessToken: '', refreshToken: '', type: 'bearer' },
      clientType: '',
      sysCodes: [],
      errCodes: [],
    });
  });

  it('has exactly one reducer per SET_* action', () => {
    expect(Object.keys(model.reducers).sort()).toEqual(
      [
        'SET_USERINFO',
        'SET_TOKEN',
        'SET_SYSCODE',
        'SET_APP_SETTINGS',
        'SET_ORGANIZATION_ID',
        'SET_TENANT_ID',
        'SET_CLIENT_TYPE',
        'SET_ERRCODE',
        'SET_COLLAPSED',
        'SET_CURTAB',
        'SET_LAST_ACTIVE_TABPATH',
        'SET_THEME',
        'SET_RELOADPATH',
      ].sort(),
    );
  });

  it.each(Object.entries(ACTION_FIELDS))('%s replaces exactly %s with the payload', (type, field) => {
    const payload = { marker: type };
    const next = model.reducers[type as keyof typeof ACTION_FIELDS](initialRootState, { type, payload });
    expect(next[field]).toBe(payload);
    const { [field]: _changed, ...rest } = next;
    const { [field]: _before, ...restBefore } = initialRootState;
    expect(rest).toEqual(restBefore);
    expect(initialRootState[field]).not.toBe(payload);
  });

  it('SET_TOKEN {} empties the token (the 401 flow)', () => {
    const signedIn = { ...initialRootState, token: { accessToken: 'a', refreshToken: 'r', type: 'bearer' } };
    expect(model.reducers.SET_TOKEN(signedIn, { type: 'SET_TOKEN', payload: {} }).token).toEqual({});
  });

  it('is persisted under "root", on every change, restore time-out 5000 ms', () => {
    expect(persistConfig.key).toBe('root');
    expect(persistConfig.throttle).toBe(0);
    expect(persistConfig.timeout).toBe(5000);
  });
});
