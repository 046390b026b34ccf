/**
 * npm run bench — prints figures, asserts nothing.
 *  1. the built console in Debian's Chromium, cold cache, median of 3 runs: gzipped JavaScript of the sign-in screen
 *     and of a list screen (/system/admin) opened after sign-in, and that list's first table row with the CPU
 *     throttled ×4, against the budgets;
 *  2. sign-in (POST /api/auth/token) and GET /api/auth/me latency, median and p95, over loopback HTTP,
 *     on the embedded engine and on PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local server);
 *  3. the cost of an authenticated list (request-cost.ts): median at one connection, throughput at 50 connections.
 *  4. imports and exports of 100,000 generated rows on both engines (imports.ts);
 *  5. trainee searches over 200,000 generated trainees on both engines (people.ts);
 *  6. a 100 MB upload to the local disk and to an S3 server, its time and memory, on both engines (files.ts);
 *  7. question bank lists over 1,000,000 generated questions on PostgreSQL, 100,000 embedded (questions.ts);
 *  8. a batch of 100,000 in-app messages and the inbox's unread count, on both engines (messages.ts);
 *  9. document searches over 100,000 generated documents, on both engines (documents.ts);
 * 10. backups of the demo tenant and of 100,000 trainees, and the restore of the latter, on both engines (backups.ts).
 * BENCH_ONLY=bundles,latency,request-cost,imports,people,files,questions,messages,documents,backups runs only the
 * sections named;
 * BENCH_ENGINE=pglite or postgres runs the database sections on that engine only.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import pg from 'pg';
import type { BrowserContext, Page } from 'playwright-core';
import { createServer } from '../../server/src/server';
import { launchChromium } from '../e2e/browser';
import { ensureBuilt, freePort, startServer } from '../e2e/global-setup';
import { benchBackups } from './backups';
import { BENCH_KEY } from './bench-api';
import { demoAdminGrant } from './demo-sign-in';
import { benchDocuments } from './documents';
import { benchFiles } from './files';
import { benchImports } from './imports';
import { benchMessages } from './messages';
import { benchPeople } from './people';
import { benchQuestions } from './questions';
import { benchRequestCost } from './request-cost';

const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 40);
const ME_CALLS = Number(process.env.BENCH_ME_CALLS ?? 300);
const BUDGET = { signInKb: 250, listKb: 550, firstRowSeconds: 2.5 };
const BUNDLE_RUNS = 3;
const LIST_PATH = '/#/system/admin';
const only = process.env.BENCH_ONLY?.split(',');
const runs = (section: string) => !only || only.includes(section);
const engines = process.env.BENCH_ENGINE?.split(',');
const engine = (kind: 'pglite' | 'postgres') => !engines || engines.includes(kind);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `median ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms (n=${samples.length})`;
}

async function recordJs(page: Page, action: () => Promise<unknown>): Promise<number> {
  const bodies: Promise<Buffer>[] = [];
  const onResponse = (response: import('playwright-core').Response) => {
    if (new URL(response.url()).pathname.endsWith('.js')) bodies.push(response.body());
  };
  page.on('response', onResponse);
  await action();
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  const buffers = await Promise.all(bodies);
  return buffers.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0) / 1024;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/**
 * Records, in the page, when the first table row is laid out (ms since navigation start), checked every frame.
 * A string, not a function: tsx would wrap a function's inner names in a helper the page does not have.
 */
const watchFirstRow = `(() => {
  const check = () => {
    const row = document.querySelector('.ant-table-row');
    if (row && row.getBoundingClientRect().height > 0) window.firstRowAt = performance.now();
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

async function benchBundles() {
  ensureBuilt();
  const server = await startServer();
  const browser = await launchChromium();
  try {
    const signInKb: number[] = [];
    let storage: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;
    for (let run = 0; run < BUNDLE_RUNS; run++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      signInKb.push(
        await recordJs(page, async () => {
          await page.goto(`${server.url}/#/login`);
          await page.getByTestId('login-username').waitFor();
        }),
      );
      if (!storage) {
        await page.getByTestId('login-username').fill('admin');
        await page.getByTestId('login-password').fill('admin123');
        await page.getByTestId('login-submit').click();
        await page.getByTestId('workspace').waitFor();
        storage = await context.storageState();
      }
      await context.close();
    }

    // A signed-in user opens the list cold: a fresh context (no cache) with the session in local storage.
    const listKb: number[] = [];
    const firstRow: number[] = [];
    for (let run = 0; run < BUNDLE_RUNS; run++) {
      const context = await browser.newContext({ storageState: storage });
      const page = await context.newPage();
      await page.addInitScript({ content: watchFirstRow });
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      listKb.push(
        await recordJs(page, async () => {
          await page.goto(`${server.url}${LIST_PATH}`);
          await page.waitForFunction(() => 'firstRowAt' in window, undefined, { timeout: 60_000 });
        }),
      );
      firstRow.push((await page.evaluate(() => (window as unknown as { firstRowAt: number }).firstRowAt)) / 1000);
      await context.close();
    }

    const line = (name: string, figure: string, budget: string, within: boolean) =>
      `  ${name.padEnd(44)} ${figure.padStart(10)} (budget ${budget}: ${within ? 'within' : 'OVER'})`;
    const kb = (values: number[]) => `${median(values).toFixed(1)} KB`;
    console.log(`Console, cold cache, median of ${BUNDLE_RUNS} runs:`);
    console.log(
      line('sign-in screen, gzipped JS', kb(signInKb), `${BUDGET.signInKb} KB`, median(signInKb) <= BUDGET.signInKb),
    );
    console.log(
      line(
        `${LIST_PATH} after sign-in, gzipped JS`,
        kb(listKb),
        `${BUDGET.listKb} KB`,
        median(listKb) <= BUDGET.listKb,
      ),
    );
    console.log(
      line(
        `${LIST_PATH} first table row, CPU ×4`,
        `${median(firstRow).toFixed(2)} s`,
        `${BUDGET.firstRowSeconds} s`,
        median(firstRow) <= BUDGET.firstRowSeconds,
      ),
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

async function timeRequests(baseUrl: string) {
  const post = () =>
    fetch(`${baseUrl}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(demoAdminGrant),
    });
  const warm = await post();
  if (!warm.ok) throw new Error(`sign-in failed: ${warm.status} ${await warm.text()}`);
  const { access_token: token } = (await warm.json()) as { access_token: string };

  const signIn: number[] = [];
  for (let i = 0; i < SIGN_INS; i++) {
    const started = performance.now();
    const res = await post();
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`sign-in failed: ${res.status}`);
    signIn.push(performance.now() - started);
  }
  const me: number[] = [];
  for (let i = 0; i < ME_CALLS; i++) {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`me failed: ${res.status}`);
    me.push(performance.now() - started);
  }
  return { signIn, me };
}

async function benchEngine(label: string, database: Parameters<typeof createServer>[0]['database']) {
  const server = await createServer({
    database,
    demo: true,
    logger: false,
    config: { tokenRateLimit: { windowMs: 60_000, max: 1_000_000 }, idNumberKey: BENCH_KEY },
  });
  const port = await freePort();
  const http = serve({ fetch: server.app.fetch, port, hostname: '127.0.0.1' });
  try {
    const { signIn, me } = await timeRequests(`http://127.0.0.1:${port}`);
    console.log(`${label}:`);
    console.log(`  POST /api/auth/token (password grant, argon2id)  ${summary(signIn)}`);
    console.log(`  GET  /api/auth/me                                 ${summary(me)}`);
  } finally {
    await new Promise((resolve) => http.close(resolve));
    await server.close();
  }
}

async function withScratchPostgres(url: string, run: (scratchUrl: string) => Promise<void>) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const name = `medu_bench_${process.pid}_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const scratch = new URL(url);
    scratch.pathname = `/${name}`;
    await run(scratch.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

async function main() {
  if (runs('bundles')) await benchBundles();

  const pgUrl =
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const benches = {
    latency: benchEngine,
    imports: benchImports,
    people: benchPeople,
    files: benchFiles,
    questions: benchQuestions,
    messages: benchMessages,
    documents: benchDocuments,
    backups: benchBackups,
  };
  const sections = ['latency', 'imports', 'people', 'files', 'questions', 'messages', 'documents', 'backups'] as const;
  for (const section of sections) {
    if (!runs(section)) continue;
    const bench = benches[section];
    if (engine('pglite')) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'medu-bench-'));
      try {
        await bench('Embedded PGlite (on disk)', { kind: 'pglite', dataDir });
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    if (engine('postgres'))
      try {
        await withScratchPostgres(pgUrl, (url) => bench('PostgreSQL server', { kind: 'postgres', url }));
      } catch (error) {
        console.log(`PostgreSQL server: skipped (${(error as Error).message})`);
      }
  }

  if (runs('request-cost')) await benchRequestCost((run) => withScratchPostgres(pgUrl, run), engine);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
