import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Picks `option` in the select `testId`, typing to filter its (virtual) list, until the select shows it: a click that
 * lands while the list re-renders under the filter may pick nothing, or another option.
 */
export async function choose(page: Page, testId: string, option: string): Promise<void> {
  const shown = page.locator('.ant-form-item', { has: page.getByTestId(testId) }).locator('.ant-select-selection-item');
  const item = page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: new RegExp(`^${option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });
  await expect
    .poll(
      async () => {
        if ((await shown.count()) && (await shown.first().innerText()) === option) return true;
        // bounded: a dialog that closed meanwhile fails this attempt, for the caller to open it again
        await page.getByTestId(testId).click({ force: true, timeout: 5_000 });
        await page.keyboard.press('ControlOrMeta+A'); // the filter an attempt before typed, if its list is still open
        await page.keyboard.type(option);
        await item
          .first()
          .click({ timeout: 5_000 })
          .catch(() => undefined);
        return (await shown.count()) > 0 && (await shown.first().innerText()) === option;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
}

/**
 * Presses a dialog's submit button (`testId`) until the dialog closes. CI saw a press while a dialog opened change
 * nothing; a press while it saves is ignored by its loading button, so pressing again is safe.
 */
export async function submitUntilClosed(page: Page, testId: string): Promise<void> {
  const submit = page.getByTestId(testId);
  await submit.waitFor();
  await expect
    .poll(
      async () => {
        if (await submit.isVisible()) await submit.click({ timeout: 2_000 }).catch(() => undefined);
        return submit.isVisible();
      },
      { timeout: 15_000, interval: 1_000 },
    )
    .toBe(false);
}

/**
 * Presses `trigger` until the element `testId` (a dialog's field, an import's errors) shows. CI saw a press on a list's
 * row action, while the list rendered again, open nothing, and a press on an import's check start nothing; pressing
 * again once nothing opened (or a dry run is done) is safe.
 */
export async function openUntilShown(
  page: Page,
  trigger: Locator,
  testId: string,
  { timeout = 30_000 }: { timeout?: number } = {},
): Promise<void> {
  const shown = page.getByTestId(testId);
  await expect
    .poll(
      async () => {
        if (await shown.isVisible()) return true;
        await trigger.click({ timeout: 5_000 }).catch(() => undefined);
        return shown
          .waitFor({ timeout: 2_000 })
          .then(() => true)
          .catch(() => false);
      },
      { timeout, interval: 500 },
    )
    .toBe(true);
}
