/**
 * What one authenticated request costs: `GET /api/system/admin?current=1&pageSize=20` (a full page of 20 rows) against
 * the API in a child process on 127.0.0.1, on the embedded engine and on PostgreSQL. Prints the median at one
 * connection and the throughput of autocannon at 50 connections, beside the budgets.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
// @ts-expect-error autocannon ships no type declarations
import autocannon from 'autocannon';
import type { DatabaseOptions } from '../../server/src/db/database';

const LIST_PATH = '/api/system/admin?current=1&pageSize=20';
const SEQUENTIAL_CALLS = Number(process.env.BENCH_LIST_CALLS ?? 500);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 30);
const LOAD_CONNECTIONS = 50;
const BUDGET = { medianMs: 5, reqPerSec: { pglite: 300, postgres: 800 } };
const root = path.resolve(__dirname, '../..');

interface RunningApi {
  url: string;
  token: string;
  /** CPU time the server process has used so far (user + system), in ms: a figure the machine's load hardly moves. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** utime and stime of /proc/<pid>/stat, in clock ticks of 10 ms (USER_HZ 100 on Linux). */
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function startApi(database: DatabaseOptions): Promise<RunningApi> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/api-server.ts'], {
    cwd: root,
    env: { ...process.env, BENCH_DATABASE_OPTIONS: JSON.stringify(database) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench API exited with ${code}`)));
  });
  const { url, token } = JSON.parse(firstLine) as { url: string; token: string };
  return {
    url,
    token,
    cpuMs: () => processCpuMs(child.pid as number),
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? Number.NaN;

/** Median wall time of `path` at one connection, and the server's CPU time per request. */
async function sequential(api: RunningApi, path: string, auth: boolean): Promise<{ ms: number; cpuMs: number }> {
  const headers = auth ? { authorization: `Bearer ${api.token}` } : undefined;
  const samples: number[] = [];
  let cpuBefore = 0;
  for (let i = 0; i < SEQUENTIAL_CALLS + 20; i++) {
    if (i === 20) cpuBefore = api.cpuMs();
    const started = performance.now();
    const res = await fetch(`${api.url}${path}`, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${path} failed: ${res.status}`);
    if (i >= 20) samples.push(performance.now() - started);
  }
  return { ms: median(samples), cpuMs: (api.cpuMs() - cpuBefore) / SEQUENTIAL_CALLS };
}

interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

function load(api: RunningApi): Promise<LoadResult> {
  return autocannon({
    url: `${api.url}${LIST_PATH}`,
    connections: LOAD_CONNECTIONS,
    duration: LOAD_SECONDS,
    headers: { authorization: `Bearer ${api.token}` },
  });
}

async function benchEngine(label: string, engine: 'pglite' | 'postgres', database: DatabaseOptions) {
  const api = await startApi(database);
  try {
    const page = (await (
      await fetch(`${api.url}${LIST_PATH}`, { headers: { authorization: `Bearer ${api.token}` } })
    ).json()) as { data: unknown[] };
    if (page.data.length !== 20) throw new Error(`the list answered ${page.data.length} rows, not 20`);
    const health = await sequential(api, '/api/health', false);
    const { ms, cpuMs } = await sequential(api, LIST_PATH, true);
    const r = await load(api);
    const rpsBudget = BUDGET.reqPerSec[engine];
    const clean = r.errors === 0 && r.non2xx === 0;
    console.log(`${label}: GET ${LIST_PATH} (authenticated, 20 rows)`);
    console.log(
      `  one connection       median ${ms.toFixed(2)} ms (n=${SEQUENTIAL_CALLS}; budget ≤ ${BUDGET.medianMs} ms: ${ms <= BUDGET.medianMs ? 'within' : 'OVER'}); ` +
        `server CPU ${cpuMs.toFixed(2)} ms a request`,
    );
    console.log(
      `  for scale: GET /api/health (no token, one statement) median ${health.ms.toFixed(2)} ms, server CPU ${health.cpuMs.toFixed(2)} ms a request`,
    );
    console.log(
      `  ${LOAD_CONNECTIONS} connections, ${LOAD_SECONDS} s  ${r.requests.average.toFixed(0)} req/s (budget ≥ ${rpsBudget}: ${
        r.requests.average >= rpsBudget ? 'within' : 'UNDER'
      }), p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ${r.requests.total} requests, ` +
        `${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx (budget 0: ${clean ? 'within' : 'OVER'})`,
    );
  } finally {
    await api.stop();
  }
}

export async function benchRequestCost(
  withScratchPostgres: (run: (url: string) => Promise<void>) => Promise<void>,
  engine: (kind: 'pglite' | 'postgres') => boolean = () => true,
) {
  if (engine('pglite')) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'medu-bench-'));
    try {
      await benchEngine('Embedded PGlite (on disk)', 'pglite', { kind: 'pglite', dataDir });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (engine('postgres'))
    try {
      await withScratchPostgres((url) => benchEngine('PostgreSQL server', 'postgres', { kind: 'postgres', url }));
    } catch (error) {
      console.log(`PostgreSQL server: request cost skipped (${(error as Error).message})`);
    }
}
