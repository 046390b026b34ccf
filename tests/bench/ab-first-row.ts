/**
 * A diagnostic, not part of `npm run bench`: the bench's list figures (gzipped JS and first table row at CPU ×4, cold)
 * for several built consoles, run in turn (A, B, C, A, B, C, …) so that a shared machine's load falls on each alike.
 *
 *   npx tsx tests/bench/ab-first-row.ts ROUNDS DIST_DIR…
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium } from '../e2e/browser';
import { freePort } from '../e2e/global-setup';

const root = path.resolve(__dirname, '../..');
const [roundsArg, ...dists] = process.argv.slice(2);
const rounds = Number(roundsArg);

const watchFirstRow = `(() => {
  const check = () => {
    const row = document.querySelector('.ant-table-row');
    if (row && row.getBoundingClientRect().height > 0) {
      window.firstRowAt = performance.now();
      performance.mark('firstRow');
    }
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
  const seen = new MutationObserver(() => {
    if (!document.querySelector('.ant-table-row')) return;
    performance.mark('rowInserted');
    seen.disconnect();
  });
  seen.observe(document, { childList: true, subtree: true });
})();`;

async function start(dist: string) {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'medu-ab-'));
  symlinkSync(path.resolve(dist), path.join(cwd, 'dist'));
  symlinkSync(path.join(root, 'node_modules'), path.join(cwd, 'node_modules'));
  const dataDir = path.join(cwd, 'data');
  mkdirSync(dataDir);
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
    cwd,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      AUTH_TOKEN_RATE_LIMIT: '1000',
      DEMO_CONTENT: 'false',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 180_000; ; ) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error('server not healthy');
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    stop: () => {
      child.kill('SIGTERM');
      return new Promise((r) => child.once('exit', r)).then(() => rmSync(cwd, { recursive: true, force: true }));
    },
  };
}

async function signedIn(browser: Browser, url: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${url}/#/login`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill('admin123');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('workspace').waitFor();
  const storage = await context.storageState();
  await context.close();
  return storage;
}

async function once(browser: Browser, url: string, storage: Awaited<ReturnType<BrowserContext['storageState']>>) {
  const context = await browser.newContext({ storageState: storage });
  const page = await context.newPage();
  await page.addInitScript({ content: watchFirstRow });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const bodies: Promise<Buffer>[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.endsWith('.js')) bodies.push(response.body());
  });
  await browser.startTracing(page, {
    categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'],
  });
  await page.goto(`${url}/#/system/admin`);
  await page.waitForFunction(() => 'firstRowAt' in window, undefined, { timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  const firstRow = (await page.evaluate(() => (window as unknown as { firstRowAt: number }).firstRowAt)) / 1000;
  const cpu = mainThreadCpu(trace.traceEvents);
  const rows = rowsCpu(trace.traceEvents);
  const breakdown = byName(trace.traceEvents);
  if (process.env.AB_BREAKDOWN) console.log(breakdown);
  const kb = (await Promise.all(bodies)).reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0) / 1024;
  await context.close();
  return { firstRow, kb, cpu, rows };
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}

const NAMES = [
  'Layout',
  'UpdateLayoutTree',
  'EvaluateScript',
  'FunctionCall',
  'v8.compile',
  'ParseHTML',
  'ParseAuthorStyleSheet',
  'TimerFire',
  'FireAnimationFrame',
  'RunMicrotasks',
  'MajorGC',
  'MinorGC',
  'Paint',
  'PrePaint',
  'Layerize',
  'EventDispatch',
  'ResourceReceivedData',
];

/** Main-thread CPU (ms) and counts by event name before the first row's mark. */
function byName(events: TraceEvent[]) {
  const mark = events.find((e) => e.name === 'firstRow' && e.cat.includes('user_timing'));
  if (!mark) return {};
  const out: Record<string, string> = {};
  for (const name of NAMES) {
    const hits = events.filter(
      (e) => e.pid === mark.pid && e.tid === mark.tid && e.name === name && e.ph === 'X' && e.ts <= mark.ts,
    );
    out[name] = `${(hits.reduce((sum, e) => sum + (e.tdur ?? 0), 0) / 1000).toFixed(0)} ms ×${hits.length}`;
  }
  return out;
}

/** CPU (ms) of the main thread's tasks from the one that put the first row in the page to the first row's mark. */
function rowsCpu(events: TraceEvent[]): number {
  const mark = events.find((e) => e.name === 'firstRow' && e.cat.includes('user_timing'));
  const inserted = events.find((e) => e.name === 'rowInserted' && e.cat.includes('user_timing'));
  if (!mark || !inserted) return Number.NaN;
  const tasks = events.filter((e) => e.pid === mark.pid && e.tid === mark.tid && e.name === 'RunTask' && e.ph === 'X');
  const first = tasks.find((e) => e.ts <= inserted.ts && e.ts + (e.dur ?? 0) >= inserted.ts);
  if (!first) return Number.NaN;
  return tasks.filter((e) => e.ts >= first.ts && e.ts <= mark.ts).reduce((sum, e) => sum + (e.tdur ?? 0), 0) / 1000;
}

/** The renderer main thread's CPU time (ms) in top-level tasks that ended before the first row's mark. */
function mainThreadCpu(events: TraceEvent[]): number {
  const mark = events.find((e) => e.name === 'firstRow' && e.cat.includes('user_timing'));
  if (!mark) return Number.NaN;
  return (
    events
      .filter(
        (e) =>
          e.pid === mark.pid &&
          e.tid === mark.tid &&
          e.name === 'RunTask' &&
          e.ph === 'X' &&
          e.ts + (e.dur ?? 0) <= mark.ts + 50_000,
      )
      .reduce((sum, e) => sum + (e.tdur ?? 0), 0) / 1000
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function main() {
  const servers = [];
  for (const dist of dists) servers.push(await start(dist));
  const browser = await launchChromium();
  try {
    const storages = [];
    for (const server of servers) storages.push(await signedIn(browser, server.url));
    const figures = dists.map(() => ({
      firstRow: [] as number[],
      kb: [] as number[],
      cpu: [] as number[],
      rows: [] as number[],
    }));
    for (let round = 0; round < rounds; round++)
      for (const [i, server] of servers.entries()) {
        const { firstRow, kb, cpu, rows } = await once(browser, server.url, storages[i]!);
        figures[i]!.rows.push(rows);
        figures[i]!.firstRow.push(firstRow);
        figures[i]!.kb.push(kb);
        figures[i]!.cpu.push(cpu);
        console.log(
          `round ${round + 1} ${path.basename(dists[i]!)}: ${firstRow.toFixed(2)} s, main thread CPU ${cpu.toFixed(0)} ms, rows task CPU ${rows.toFixed(0)} ms, ${kb.toFixed(1)} KB`,
        );
      }
    for (const [i, dist] of dists.entries()) {
      const f = figures[i]!;
      console.log(
        `${path.basename(dist).padEnd(20)} first row median ${median(f.firstRow).toFixed(2)} s [${f.firstRow.map((v) => v.toFixed(2)).join(' ')}], CPU median ${median(f.cpu).toFixed(0)} ms [${f.cpu.map((v) => v.toFixed(0)).join(' ')}], rows CPU median ${median(f.rows).toFixed(0)} ms [${f.rows.map((v) => v.toFixed(0)).join(' ')}], min first row ${Math.min(...f.firstRow).toFixed(2)} s, JS ${median(f.kb).toFixed(1)} KB`,
      );
    }
  } finally {
    await browser.close();
    for (const server of servers) await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
