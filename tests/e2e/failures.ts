import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach } from 'vitest';

/**
 * On a failed test, what the page showed: a screenshot and its visible text in the system's temporary folder, the
 * paths printed, so that a failure in CI can be read after the browser has gone.
 */
export function keepFailures(name: string, current: () => Page | undefined): void {
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
    console.error(`e2e: the page at the failure of "${task.name}": ${base}.png, ${base}.txt`);
  });
}
