import { type Browser, chromium, type Download, type Locator, type Page } from 'playwright-core';

/** Debian's Chromium, with the flags this machine's closed network needs; never a downloaded browser. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Signs in at /login as the demo tenant's administrator and waits for the workspace. */
export async function signInAsAdmin(page: Page, baseURL: string): Promise<void> {
  await page.goto(`${baseURL}/#/login`);
  await page.getByTestId('login-tenant').fill('demo');
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill('admin123');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('workspace').waitFor();
}

/**
 * The file a press of `trigger` downloads. A press that lands while its dialog is still opening can start nothing:
 * pressed again (up to three times) when no download has started within ten seconds.
 */
export async function downloadFrom(page: Page, trigger: Locator): Promise<Download> {
  for (let attempt = 1; ; attempt++) {
    const started = page.waitForEvent('download', { timeout: 10_000 });
    await trigger.click();
    try {
      return await started;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}
