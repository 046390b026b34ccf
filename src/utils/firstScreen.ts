import { useEffect, useState } from 'react';
import { FIRST_PAGE_WAIT_MS } from '@/constants';

/**
 * When the console opens on a list screen, what its first row does not need — the shell's header actions, tab bar and
 * menu entries, and the list's own search form (in the room it took last time), toolbar, row actions and pagination —
 * renders once the list's first page has: on a cold start these would otherwise take their share of the script time
 * before the first row. getInitialState says the console opened on such a list (`awaitFirstPage`); the list says when
 * its first page (or its failure) is on screen (`firstPageShown`), and so does the tab outlet when a 403 or 404 screen
 * shows instead; FIRST_PAGE_WAIT_MS later they come anyway (a screen that failed to load). Opened on any other screen,
 * nothing waits.
 */
let waitingForPage = false;
const waiting = new Set<() => void>();

function release() {
  if (!waitingForPage) return;
  waitingForPage = false;
  for (const resume of waiting) resume();
  waiting.clear();
}

export function awaitFirstPage(): void {
  waitingForPage = true;
  setTimeout(release, FIRST_PAGE_WAIT_MS);
}

/** A list's page (or its failure) is on screen: once the browser has painted it, the rest renders. */
export function firstPageShown(): void {
  if (!waitingForPage) return;
  requestAnimationFrame(() => setTimeout(release));
}

export function whenFirstPageShown(): Promise<void> {
  return waitingForPage ? new Promise((resolve) => waiting.add(resolve)) : Promise.resolve();
}

/** false while the console waits for the first page of the list it opened on. */
export function useFirstPageShown(): boolean {
  const [shown, setShown] = useState(!waitingForPage);
  useEffect(() => {
    if (shown) return;
    let live = true;
    whenFirstPageShown().then(() => live && setShown(true));
    return () => {
      live = false;
    };
  }, [shown]);
  return shown;
}
