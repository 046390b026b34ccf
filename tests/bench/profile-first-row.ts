/**
 * A diagnostic, not part of `npm run bench`: one cold load of /#/system/admin after sign-in with the CPU throttled ×4,
 * as the bench's first-row figure is taken, printing where its time goes: when each request and chunk started and
 * ended against the first table row, the style tags antd still had to write at run time, and the CPU profile's
 * heaviest scripts and functions. The profile is also written to `<out-dir>/first-row.cpuprofile` (open it in
 * Chromium's DevTools; build with source maps to read it: `devtool: 'source-map'` in a local .umirc.<env>.ts).
 *
 *   npx tsx tests/bench/profile-first-row.ts [out-dir]
 */

import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium } from '../e2e/browser';
import { ensureBuilt, startServer } from '../e2e/global-setup';

const out = process.argv[2] ?? os.tmpdir();

const watchFirstRow = `(() => {
  const check = () => {
    const row = document.querySelector('.ant-table-row');
    if (row && row.getBoundingClientRect().height > 0) window.firstRowAt = performance.now();
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

const pathOf = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');

function heaviest(profile: Profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const byScript = new Map<string, number>();
  const byFunction = new Map<string, number>();
  samples.forEach((id, i) => {
    const frame = nodes.get(id)?.callFrame;
    if (!frame) return;
    const spent = deltas[i + 1] ?? 0;
    const script = pathOf(frame.url) || `(${frame.functionName || 'native'})`;
    const fn = `${frame.functionName || '(anonymous)'} ${script}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
    byScript.set(script, (byScript.get(script) ?? 0) + spent);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + spent);
  });
  const top = (spent: Map<string, number>, count: number) =>
    [...spent]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, us]) => `  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`)
      .join('\n');
  return { scripts: top(byScript, 20), functions: top(byFunction, 30) };
}

async function main() {
  ensureBuilt();
  const server = await startServer();
  const browser = await launchChromium();
  try {
    const signIn = await browser.newContext();
    const first = await signIn.newPage();
    await first.goto(`${server.url}/#/login`);
    await first.getByTestId('login-username').fill('admin');
    await first.getByTestId('login-password').fill('admin123');
    await first.getByTestId('login-submit').click();
    await first.getByTestId('workspace').waitFor();
    const storage = await signIn.storageState();
    await signIn.close();

    const context = await browser.newContext({ storageState: storage });
    const page = await context.newPage();
    await page.addInitScript({ content: watchFirstRow });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(`${server.url}/#/system/admin`);
    await page.waitForFunction(() => 'firstRowAt' in window, undefined, { timeout: 60_000 });
    const { profile } = await cdp.send('Profiler.stop');
    const file = path.join(out, 'first-row.cpuprofile');
    writeFileSync(file, JSON.stringify(profile));

    const firstRow = await page.evaluate(() => (window as unknown as { firstRowAt: number }).firstRowAt);
    const requests = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => ({
        url: entry.name,
        start: entry.startTime,
        end: (entry as PerformanceResourceTiming).responseEnd,
      })),
    );
    const styles = await page.evaluate(() =>
      [...document.querySelectorAll('style[data-css-hash]')].map((style) => style.textContent?.slice(0, 60)),
    );

    console.log(`first table row at ${firstRow.toFixed(0)} ms (CPU ×4)`);
    console.log('requests (start – end, ms):');
    for (const { url, start, end } of requests)
      console.log(`  ${start.toFixed(0).padStart(6)} – ${end.toFixed(0).padStart(6)}  ${pathOf(url)}`);
    console.log(`antd styles written at run time: ${styles.length}`);
    for (const style of styles) console.log(`  ${style}`);
    const { scripts, functions } = heaviest(profile as Profile);
    console.log(`self time by script:\n${scripts}`);
    console.log(`self time by function:\n${functions}`);
    console.log(`profile: ${file}`);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
