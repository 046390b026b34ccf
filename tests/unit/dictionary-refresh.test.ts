import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { refreshSysCodes } from '@/services/dictionary';
import { getRootState } from '@/utils/store';

const answer = (etag: string, body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', etag } });

describe('refreshSysCodes', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('dispatches SET_SYSCODE when the ETag changed and skips an unchanged one', async () => {
    const first = [{ type: 'gender', value: 'male', label: '男', labelEn: 'Male', color: 'blue', sort: 0 }];
    const second = [{ ...first[0], label: '男性' }];
    const bodies = [answer('"a"', first), answer('"a"', first), answer('"b"', second)];
    const fetch = vi.fn(async () => bodies.shift()!);
    vi.stubGlobal('fetch', fetch);
    expect(await refreshSysCodes()).toBe(true);
    expect(getRootState().sysCodes).toEqual(first);
    expect(await refreshSysCodes()).toBe(false);
    expect(await refreshSysCodes()).toBe(true);
    expect(getRootState().sysCodes).toEqual(second);
    expect(fetch).toHaveBeenCalledTimes(3);
  });
});
