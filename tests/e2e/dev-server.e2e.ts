import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, signInAsAdmin } from './browser';
import { keepFailures } from './failures';
import { freePort } from './global-setup';

/** The first start bundles the console and its dependencies (1–2 min on two cores); then the mock seeds the demo. */
const START_LIMIT_MS = 360_000;

const root = path.resolve(__dirname, '../..');
let dev: ChildProcess | undefined;
let output = '';
let baseURL = '';
let browser: Browser;
let page: Page;
keepFailures('dev-server', () => page);

/** Both bundles (the console's and, with MFSU, its dependencies') are done: the page served is the console's. */
async function bundled(url: string): Promise<boolean> {
  try {
    const status = await (await fetch(`${url}/__umi/api/bundle-status`)).json();
    return Boolean(status.bundleStatus?.done && (!status.mfsuBundleStatus || status.mfsuBundleStatus.done));
  } catch {
    return false;
  }
}

beforeAll(async () => {
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  // PORT from the environment, as a developer would set it: it wins over the 8000 of `.env`
  dev = spawn('npm', ['run', 'dev'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), BROWSER: 'none', HMR: 'none' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  dev.stdout?.on('data', keep);
  dev.stderr?.on('data', keep);
  const deadline = Date.now() + START_LIMIT_MS;
  while (!(await bundled(baseURL))) {
    if (dev.exitCode !== null) throw new Error(`npm run dev exited with ${dev.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm run dev did not serve port ${port} in time:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
}, START_LIMIT_MS + 60_000);

afterAll(async () => {
  await browser?.close();
  if (dev?.pid && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev?.once('exit', resolve));
    process.kill(-dev.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (dev.exitCode === null) process.kill(-dev.pid, 'SIGKILL');
  }
});

describe('npm run dev: the console on the mock, which mounts the real API on demo data', () => {
  it('listens on the PORT of the environment and answers the API there', async () => {
    const health = await fetch(`${baseURL}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
  }, 180_000);

  it('signs in as the demo administrator and opens a list with the demo content', async () => {
    await signInAsAdmin(page, baseURL);
    await page.goto(`${baseURL}/#/trainee/list`);
    await expect.poll(() => page.locator('.ant-table-row').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(await page.locator('.ant-message-error').count()).toBe(0);
  }, 240_000);
});
