import type { Page } from 'playwright-core';
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
        await page.getByTestId(testId).click({ force: true });
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
