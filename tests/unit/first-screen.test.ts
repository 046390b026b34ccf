import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_PAGE_WAIT_MS } from '@/constants';

type FirstScreen = typeof import('@/utils/firstScreen');
let firstScreen: FirstScreen;

beforeEach(async () => {
  vi.resetModules();
  firstScreen = await import('@/utils/firstScreen');
});

const settled = async (promise: Promise<void>) => {
  let done = false;
  promise.then(() => {
    done = true;
  });
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return () => done;
};

describe("the shell's extras and the first page", () => {
  it('do not wait when the console opened on a screen that is not a list', async () => {
    const done = await settled(firstScreen.whenFirstPageShown());
    expect(done()).toBe(true);
  });

  it('wait, opened on a list, until its first page is on screen', async () => {
    firstScreen.awaitFirstPage();
    const done = await settled(firstScreen.whenFirstPageShown());
    expect(done()).toBe(false);
    firstScreen.firstPageShown();
    await vi.waitFor(() => expect(done()).toBe(true));
    // later lists change nothing
    firstScreen.firstPageShown();
    expect(await settled(firstScreen.whenFirstPageShown()).then((d) => d())).toBe(true);
  });

  it('come anyway when no first page is shown in time', async () => {
    vi.useFakeTimers();
    try {
      firstScreen.awaitFirstPage();
      const done = await settled(firstScreen.whenFirstPageShown());
      expect(done()).toBe(false);
      await vi.advanceTimersByTimeAsync(FIRST_PAGE_WAIT_MS);
      expect(done()).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
