/**
 * npm run bench — prints figures, asserts nothing.
 *  1. gzipped JavaScript loaded by the sign-in screen and by the first screen after sign-in (built console,
 *     Debian's Chromium, cold cache), against the budgets;
 *  2. sign-in (POST /api/auth/token) and GET /api/auth/me latency, median and p95, over loopback HTTP,
 *     on the embedded engine and on PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local server);
 *  3. the cost of an authenticated list (request-cost.ts): median at one connection, throughput at 50 connections.
 *  4. imports and exports of 100,000 generated rows on both engines (imports.ts).
 * BENCH_ONLY=bundles,latency,request-cost,imports runs only the sections named.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { createServer } from '../../server/src/server';
import { launchChromium } from '../e2e/browser';
import { ensureBuilt, freePort, startServer } from '../e2e/global-setup';
import { demoAdminGrant } from './demo-sign-in';
import { benchImports } from './imports';
import { benchRequestCost } from './request-cost';

const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 40);
const ME_CALLS = Number(process.env.BENCH_ME_CALLS ?? 300);
const BUDGET_KB = { signIn: 350, firstScreen: 700 };
const only = process.env.BENCH_ONLY?.split(',');
const runs = (section: string) => !only || only.includes(section);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `median ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms (n=${samples.length})`;
}

async function recordJs(page: Page, action: () => Promise<unknown>): Promise<{ files: number; gzipKb: number }> {
  const bodies: Promise<Buffer>[] = [];
  const onResponse = (response: import('playwright-core').Response) => {
    if (new URL(response.url()).pathname.endsWith('.js')) bodies.push(response.body());
  };
  page.on('response', onResponse);
  await action();
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  const buffers = await Promise.all(bodies);
  const gzipBytes = buffers.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0);
  return { files: buffers.length, gzipKb: gzipBytes / 1024 };
}

async function benchBundles() {
  ensureBuilt();
  const server = await startServer();
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const signIn = await recordJs(page, () => page.goto(`${server.url}/#/login`));
    await page.getByTestId('login-username').waitFor();
    await page.getByTestId('login-username').fill('admin');
    await page.getByTestId('login-password').fill('admin123');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('workspace').waitFor();
    const storage = await context.storageState();
    await context.close();

    // A cold load of the first screen for a signed-in user: everything it needs, nothing cached.
    const signedIn = await browser.newContext({ storageState: storage });
    const firstPage = await signedIn.newPage();
    const firstScreen = await recordJs(firstPage, async () => {
      await firstPage.goto(`${server.url}/#/`);
      await firstPage.getByTestId('workspace').waitFor();
    });
    await signedIn.close();

    const line = (name: string, r: { files: number; gzipKb: number }, budget: number) =>
      `  ${name.padEnd(28)} ${r.gzipKb.toFixed(1).padStart(7)} KB gzipped in ${r.files} files (budget ${budget} KB: ${
        r.gzipKb <= budget ? 'within' : 'OVER'
      })`;
    console.log('JavaScript loaded (cold cache):');
    console.log(line('sign-in screen', signIn, BUDGET_KB.signIn));
    console.log(line('first screen after sign-in', firstScreen, BUDGET_KB.firstScreen));
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
    config: { tokenRateLimit: { windowMs: 60_000, max: 1_000_000 } },
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
  for (const section of ['latency', 'imports'] as const) {
    if (!runs(section)) continue;
    const bench = section === 'latency' ? benchEngine : benchImports;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'medu-bench-'));
    try {
      await bench('Embedded PGlite (on disk)', { kind: 'pglite', dataDir });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    try {
      await withScratchPostgres(pgUrl, (url) => bench('PostgreSQL server', { kind: 'postgres', url }));
    } catch (error) {
      console.log(`PostgreSQL server: skipped (${(error as Error).message})`);
    }
  }

  if (runs('request-cost')) await benchRequestCost((run) => withScratchPostgres(pgUrl, run));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
