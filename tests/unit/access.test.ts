import { describe, expect, it } from 'vitest';
import access from '@/access';
import type { CurrentUser } from '@/services/auth';

const user = (permissions: string[]): CurrentUser => ({
  userId: '1',
  userName: 'admin',
  displayName: '管理员',
  email: null,
  mobile: null,
  version: 0,
  permissions,
  roles: [],
  tenant: { id: '2', code: 'demo', name: 'Demo' },
  orgId: null,
  clientType: 'console',
  mustChangePassword: false,
});

describe('access', () => {
  it('allows the admin area without an initial state', () => {
    expect(access(undefined).canAdmin).toBe(true);
  });

  it('denies the admin area when the initial state carries the name dontHaveAccess', () => {
    expect(access({ name: 'dontHaveAccess' }).canAdmin).toBe(false);
    expect(access({ name: 'someone' }).canAdmin).toBe(true);
  });

  it('has one true entry per permission code of the signed-in user, nothing else', () => {
    const map = access({ name: '管理员', currentUser: { ...user(['dashboard:workspace:view', 'system:admin:list']) } });
    expect(map['dashboard:workspace:view']).toBe(true);
    expect(map['system:admin:list']).toBe(true);
    expect(map['account:profile:view']).toBeUndefined();
    expect(Object.keys(map).sort()).toEqual([
      'canAdmin',
      'dashboard:workspace:view',
      'platformOperator',
      'system:admin:list',
    ]);
  });

  it('marks the users of the platform tenant, and only them, as platform operators', () => {
    expect(access({ currentUser: user([]) }).platformOperator).toBe(false);
    const operator = { ...user([]), tenant: { id: '1', code: 'platform', name: 'Platform' } };
    expect(access({ currentUser: operator }).platformOperator).toBe(true);
  });

  it('gives a signed-out user no codes', () => {
    expect(access({ settings: {} })).toEqual({ canAdmin: true, platformOperator: false });
  });
});
