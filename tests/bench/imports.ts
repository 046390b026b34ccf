/**
 * Imports and exports at scale (issue 6, item 2), one engine at a time: generated role files of 25,000 and 100,000
 * rows imported as jobs through HTTP (the ratio of the per-row times shows whether it stays linear), the process's
 * RSS growth, the p95 of other requests while the 100,000-row job runs (GET /api/health and an authenticated list
 * of 20 accounts in turn, ten a second), and a streamed export of every role. Each figure is printed beside its budget,
 * with the process's CPU time and the machine's load average while it was taken (on a shared machine a wall-clock
 * figure says as much about the neighbours as about the code).
 */

import os from 'node:os';
import { serve } from '@hono/node-server';
import { createServer } from '../../server/src/server';
import { freePort } from '../e2e/global-setup';
import { roleSheet } from '../support/role-sheet';
import { BENCH_KEY } from './bench-api';
import { signInDemoAdmin } from './demo-sign-in';
import { fetchOnce, p95 } from './measure';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const SMALL_ROWS = ROWS / 4;
const PROBE_MS = 100;
const budgets = { importSeconds: { pglite: 60, postgres: 30 }, exportSeconds: 15, rssMb: 200, p95Ms: 250 };

type Database = Parameters<typeof createServer>[0]['database'];

const verdict = (ok: boolean) => (ok ? 'within' : 'OVER');
const mb = (bytes: number) => bytes / 1024 / 1024;
/** This process's CPU seconds since `from`, and the 1-minute load average now. */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1e6;
};
const context = (cpu: number) =>
  `[cpu ${cpu.toFixed(1)} s, load ${os.loadavg()[0]?.toFixed(1)}/${os.cpus().length} cores]`;

export async function benchImports(label: string, database: Database) {
  const server = await createServer({
    database,
    demo: true,
    logger: false,
    config: { tokenRateLimit: { windowMs: 60_000, max: 1_000_000 }, idNumberKey: BENCH_KEY },
  });
  const port = await freePort();
  const http = serve({ fetch: server.app.fetch, port, hostname: '127.0.0.1' });
  const base = `http://127.0.0.1:${port}`;
  try {
    const token = await signInDemoAdmin(base);
    const auth = { authorization: `Bearer ${token}` };

    const runJob = async (rows: number, prefix: string, probe: boolean) => {
      const file = await roleSheet(rows, prefix);
      const form = new FormData();
      form.set('file', new File([new Uint8Array(file)], `${prefix}.xlsx`));
      form.set('mode', 'insert');
      // npm run bench runs with --expose-gc: the baseline is the process after a full collection, not whatever
      // garbage the previous import left behind
      global.gc?.();
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }, 100);
      const cpu = process.cpuUsage();
      const started = performance.now();
      const res = await fetch(`${base}/api/system/role/import-jobs`, { method: 'POST', headers: auth, body: form });
      if (res.status !== 202) throw new Error(`import job refused: ${res.status} ${await res.text()}`);
      const job = (await res.json()) as { id: string };
      const latencies: number[] = [];
      let failures = 0;
      let status = 'queued';
      let seconds = 0;
      let cpuSeconds = 0;
      const watch = async () => {
        for (;;) {
          const answer = (await (
            await fetchOnce(`${base}/api/system/role/import-jobs/${job.id}`, { headers: auth })
          ).json()) as {
            status: string;
            report: unknown;
          };
          status = answer.status;
          if (['done', 'failed', 'cancelled'].includes(status)) {
            seconds = (performance.now() - started) / 1000;
            cpuSeconds = cpuSince(cpu);
            if (status !== 'done') throw new Error(`import ${status}: ${JSON.stringify(answer.report)}`);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      };
      /** Other users: a request every PROBE_MS (health and a list of accounts in turn), each timed on its own. */
      const others = async () => {
        const paths = ['/api/health', '/api/system/admin?pageSize=20&current=1'];
        const pending: Promise<void>[] = [];
        for (let i = 0; !['done', 'failed', 'cancelled'].includes(status); i++) {
          const t0 = performance.now();
          pending.push(
            fetch(`${base}${paths[i % 2]}`, { headers: auth })
              .then((answer) => answer.arrayBuffer())
              .then(
                () => {
                  latencies.push(performance.now() - t0);
                },
                () => {
                  failures += 1;
                },
              ),
          );
          await new Promise((resolve) => setTimeout(resolve, PROBE_MS));
        }
        await Promise.all(pending);
      };
      await Promise.all([watch(), probe ? others() : Promise.resolve()]);
      clearInterval(sampler);
      return {
        seconds,
        context: context(cpuSeconds),
        rssGrowthMb: mb(rssPeak - rssBefore),
        latencies,
        failures,
        fileKb: file.byteLength / 1024,
      };
    };

    const small = await runJob(SMALL_ROWS, 'bench_small', false);
    const large = await runJob(ROWS, 'bench_large', true);
    const importBudget = budgets.importSeconds[database.kind === 'pglite' ? 'pglite' : 'postgres'];
    const perRow = (r: { seconds: number }, rows: number) => (r.seconds / rows) * 1e6;

    global.gc?.();
    const exportRss = process.memoryUsage().rss;
    let exportPeak = exportRss;
    const sampler = setInterval(() => {
      exportPeak = Math.max(exportPeak, process.memoryUsage().rss);
    }, 100);
    const exportCpu = process.cpuUsage();
    const exportStarted = performance.now();
    const exported = await fetchOnce(`${base}/api/system/role/export`, { headers: auth });
    const exportBytes = (await exported.arrayBuffer()).byteLength;
    const exportSeconds = (performance.now() - exportStarted) / 1000;
    const exportContext = context(cpuSince(exportCpu));
    clearInterval(sampler);

    console.log(`${label}: imports and exports (roles, generated rows)`);
    console.log(
      `  import ${SMALL_ROWS} rows (${small.fileKb.toFixed(0)} KB)      ${small.seconds.toFixed(1)} s ${small.context}`,
    );
    console.log(
      `  import ${ROWS} rows (${large.fileKb.toFixed(0)} KB)     ${large.seconds.toFixed(1)} s (budget ${importBudget} s: ${verdict(large.seconds <= importBudget)}) ${large.context}`,
    );
    console.log(
      `  linearity: ${perRow(small, SMALL_ROWS).toFixed(0)} µs/row at ${SMALL_ROWS}, ${perRow(large, ROWS).toFixed(0)} µs/row at ${ROWS} (ratio ${(perRow(large, ROWS) / perRow(small, SMALL_ROWS)).toFixed(2)})`,
    );
    console.log(
      `  RSS growth during the ${ROWS}-row import  ${large.rssGrowthMb.toFixed(0)} MB (budget ${budgets.rssMb} MB: ${verdict(large.rssGrowthMb <= budgets.rssMb)})`,
    );
    const p = p95(large.latencies);
    console.log(
      `  other requests during it (10/s: health, list of 20 accounts)  p95 ${p.toFixed(1)} ms, n=${large.latencies.length}, ${large.failures} failed (budget ${budgets.p95Ms} ms: ${verdict(p <= budgets.p95Ms)})`,
    );
    console.log(
      `  export of every role (${SMALL_ROWS + ROWS}+ rows, ${(exportBytes / 1024).toFixed(0)} KB)  ${exportSeconds.toFixed(1)} s (budget ${budgets.exportSeconds} s: ${verdict(exportSeconds <= budgets.exportSeconds)}), RSS growth ${mb(exportPeak - exportRss).toFixed(0)} MB ${exportContext}`,
    );
  } finally {
    await new Promise((resolve) => http.close(resolve));
    await server.close();
  }
}
