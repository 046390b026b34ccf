import { EARLY_ANSWER_TTL_MS, LIST_PAGE_SIZE } from '@/constants';
import request from '@/utils/request';

interface Early {
  answer: Promise<unknown>;
  at: number;
}

/** Calls index.html started before any of the console's code had loaded (umi-plugins/early-answers.ts). */
declare global {
  interface Window {
    __earlyAnswers?: Record<string, Early>;
  }
}

/**
 * Calls a screen needs, started before the code that makes them has loaded: index.html starts the user's, the menu's,
 * the public settings' and the opened list's first page (umi-plugins/early-answers.ts) next to the first download;
 * getInitialState starts the menu's and the list's itself when index.html did not (a start without that script, as in
 * tests). The first call of the same URL takes the answer. A failure is not shown there: that call is made again and
 * handled like any other (a 401 refreshes the session, a message shows). An answer nobody takes within
 * EARLY_ANSWER_TTL_MS is dropped.
 */
const started = new Map<string, Early>(Object.entries(globalThis.window?.__earlyAnswers ?? {}));

export function startEarly(url: string): void {
  if (started.has(url)) return; // index.html started it already
  const answer = request.get(url, { skipErrorHandler: true });
  answer.catch(() => undefined);
  started.set(url, { answer, at: Date.now() });
}

/** The answer started early for `url`, else (or when it failed) `call()`'s. */
export function takeEarly<T>(url: string, call: () => Promise<T>): Promise<T> {
  const early = started.get(url);
  started.delete(url);
  if (!early || Date.now() - early.at > EARLY_ANSWER_TTL_MS) return call();
  return (early.answer as Promise<T>).catch(call);
}

/** The first page of a resource list (`/api/system/admin`) as the list asks for it, before any search or sort. */
export const firstPageUrl = (base: string) => `${base}?current=1&pageSize=${LIST_PAGE_SIZE}`;

/** Forgets every answer started early: they were asked for a session that did not start. */
export function dropEarly(): void {
  started.clear();
}
