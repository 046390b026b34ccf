import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Early = typeof import('@/utils/early');
const get = vi.fn((url: string) => Promise.resolve(`fresh ${url}`));

/** early.ts as a fresh start would load it, with the answers index.html started (umi-plugins/early-answers.ts). */
async function start(answers: Record<string, Promise<unknown>>): Promise<Early> {
  vi.resetModules();
  vi.doMock('@/utils/request', () => ({ default: { get } }));
  window.__earlyAnswers = Object.fromEntries(
    Object.entries(answers).map(([url, answer]) => {
      answer.catch(() => undefined);
      return [url, { answer, at: Date.now() }];
    }),
  );
  return import('@/utils/early');
}

beforeEach(() => get.mockClear());
afterEach(() => {
  window.__earlyAnswers = undefined;
  vi.doUnmock('@/utils/request');
});

describe('answers asked for by index.html before the console loaded', () => {
  it('are taken once by the first call of their URL, which then makes no call of its own', async () => {
    const early = await start({ '/api/auth/me': Promise.resolve({ userId: '7' }) });
    const call = vi.fn(() => Promise.resolve({ userId: 'called' }));
    expect(await early.takeEarly('/api/auth/me', call)).toEqual({ userId: '7' });
    expect(call).not.toHaveBeenCalled();
    expect(await early.takeEarly('/api/auth/me', call)).toEqual({ userId: 'called' });
  });

  it('are asked for again through the request layer when they failed (an expired token, a refusal)', async () => {
    const early = await start({ '/api/auth/menus': Promise.reject(new Error('401')) });
    const call = vi.fn(() => Promise.resolve(['menu']));
    expect(await early.takeEarly('/api/auth/menus', call)).toEqual(['menu']);
    expect(call).toHaveBeenCalledOnce();
  });

  it('are not asked for a second time by getInitialState', async () => {
    const early = await start({ '/api/auth/menus': Promise.resolve(['from index.html']) });
    early.startEarly('/api/auth/menus');
    early.startEarly('/api/system/admin?current=1&pageSize=10');
    expect(get.mock.calls.map(([url]) => url)).toEqual(['/api/system/admin?current=1&pageSize=10']);
    expect(await early.takeEarly('/api/auth/menus', () => Promise.resolve([]))).toEqual(['from index.html']);
  });
});
