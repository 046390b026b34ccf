import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach } from 'vitest';

/** How many of a page's latest events a failure prints. */
const KEPT_EVENTS = 60;

/** What the page did lately, by page: its API answers, console errors and warnings, and dialogs shown and gone. */
const events = new WeakMap<Page, string[]>();

/** In the page, from its next load on: a console line whenever a dialog (a modal or a drawer) shows or goes. */
function watchDialogs() {
  const shown = new Set<Element>();
  const title = (dialog: Element) =>
    dialog.querySelector('.ant-modal-title, .ant-drawer-title')?.textContent?.trim() ?? '(untitled)';
  const check = () => {
    const now = new Set(document.querySelectorAll('.ant-modal-wrap:not([style*="display: none"]), .ant-drawer-open'));
    for (const dialog of now) if (!shown.has(dialog)) console.info(`e2e-dialog shown: ${title(dialog)}`);
    for (const dialog of shown) if (!now.has(dialog)) console.info(`e2e-dialog gone: ${title(dialog)}`);
    shown.clear();
    for (const dialog of now) shown.add(dialog);
  };
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['style', 'class'],
  });
}

function watch(page: Page) {
  if (events.has(page)) return;
  const log: string[] = [];
  events.set(page, log);
  const started = Date.now();
  const note = (line: string) => {
    log.push(`${((Date.now() - started) / 1000).toFixed(1).padStart(7)} s  ${line}`);
    if (log.length > KEPT_EVENTS) log.shift();
  };
  page.on('console', (message) => {
    const text = message.text();
    if (text.startsWith('e2e-dialog') || ['error', 'warning'].includes(message.type()))
      note(`${message.type()}: ${text.slice(0, 300)}`);
  });
  page.on('pageerror', (error) => note(`page error: ${error.message}`));
  page.on('framenavigated', (frame) => frame === page.mainFrame() && note(`at ${frame.url()}`));
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/'))
      note(`${response.request().method()} ${url.pathname}${url.search.slice(0, 120)} → ${response.status()}`);
  });
  page.on('requestfailed', (request) =>
    note(`${request.method()} ${request.url()} failed: ${request.failure()?.errorText}`),
  );
  void page.addInitScript(watchDialogs).catch(() => undefined);
}

/**
 * On a failed test, what the page showed: a screenshot and its visible text in the system's temporary folder, the
 * paths printed; and printed too, so that CI's log tells it after the machine has gone, the start of that text and the
 * page's latest events (API answers, console errors, dialogs shown and gone). A page is watched from the first test
 * that runs with it; dialogs from its next load on.
 */
export function keepFailures(name: string, current: () => Page | undefined): void {
  beforeEach(() => {
    const page = current();
    if (page) watch(page);
  });
  afterEach(async ({ task }) => {
    const page = current();
    if (task.result?.state !== 'fail' || !page) return;
    const base = path.join(os.tmpdir(), `e2e-${name}-${Date.now()}`);
    await page.screenshot({ path: `${base}.png`, fullPage: true }).catch(() => undefined);
    const text = await page
      .locator('body')
      .innerText()
      .catch((error: Error) => error.message);
    writeFileSync(`${base}.txt`, `${page.url()}\n\n${text}`);
    console.error(
      [
        `e2e: the page at the failure of "${task.name}": ${base}.png, ${base}.txt`,
        `at ${page.url()}, showing:`,
        text.replace(/\s+/g, ' ').slice(0, 1_500),
        'its latest events:',
        ...(events.get(page) ?? ['(not watched)']),
      ].join('\n'),
    );
  });
}
