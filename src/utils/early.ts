import { EARLY_ANSWER_TTL_MS, LIST_PAGE_SIZE } from '@/constants';
import request from '@/utils/request';

/**
 * Calls a screen needs, started before the code that makes them has loaded: getInitialState starts the menu's
 * alongside the signed-in user's own, instead of after the layout has loaded, and the first page of the list screen
 * the console opens on, instead of after that screen has rendered. The first call of the same URL takes
 * the answer. A failure is not shown there: that call is made again and handled like any other (a 401 refreshes the
 * session, a message shows). An answer nobody takes within EARLY_ANSWER_TTL_MS is dropped.
 */
const started = new Map<string, { answer: Promise<unknown>; at: number }>();

export function startEarly(url: string): void {
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
