/**
 * Uploads at size (issue 11): a file of UPLOAD_MB megabytes sent over loopback HTTP to the built-in local disk, then
 * to an S3-compatible server, as the console sends it; the API and s3rver each in a child process, so that the memory
 * measured is the API's alone
 * (the raw bytes as the body, streamed from a generator: the client holds no copy either). Prints the time and the
 * growth of the API process's resident memory over its level before the upload (sampled every 20 ms) beside the budget,
 * after a small upload to the same store has loaded what a first upload loads (the S3 client, the type sniffer).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { createServer } from '../../server/src/server';

const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 100);
const BUDGET_RSS_MB = 50;
const CHUNK = 64 * 1024;

type Database = Parameters<typeof createServer>[0]['database'];

/**
 * `mb` megabytes of a PDF (its signature, then spaces), made chunk by chunk as the request pulls it (a stream made with
 * Readable.toWeb would read its source ahead of the socket and hold it all).
 */
function pdfStream(mb: number): ReadableStream<Uint8Array> {
  const total = mb * 1024 * 1024;
  let sent = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= total) return controller.close();
        const chunk = Buffer.alloc(Math.min(CHUNK, total - sent), 0x20);
        if (sent === 0) chunk.write('%PDF-1.4\n');
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 4 },
  );
}

/** s3rver in a child process; answers its endpoint once it listens. */
async function startS3Child(): Promise<{ endpoint: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 's3rver-child.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (data: Buffer) => resolve(data.toString().trim()));
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
  });
  return { endpoint, child };
}

/** The API in a child process (api-server.ts), so that the memory measured is the server's alone. */
async function startApiChild(database: Database, dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'api-server.ts')], {
    env: { ...process.env, BENCH_DATABASE_OPTIONS: JSON.stringify(database), BENCH_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (data: Buffer) => resolve(data.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the API exited with ${code}`)));
  });
  const { url, token } = JSON.parse(line) as { url: string; token: string };
  return { child, url, token };
}

/** A process's resident memory, in bytes (Linux). */
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) * 1024;

export async function benchFiles(label: string, database: Database) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'medu-bench-files-'));
  const api = await startApiChild(database, dataDir);
  const base = api.url;
  const s3 = await startS3Child();
  try {
    const token = api.token;
    const pid = api.child.pid as number;
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}/api${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    await call('PUT', '/system/settings/upload.maxSizeMb', { value: UPLOAD_MB + 10, version: 0 });

    /** The upload's figures; a first, small upload to the same store (`mb` 2) loads what any first upload loads. */
    const upload = async (where: string, mb = UPLOAD_MB) => {
      const before = rssOf(pid);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssOf(pid));
      }, 20);
      const started = performance.now();
      const res = await fetch(`${base}/api/file/file/upload?name=bench.pdf`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/pdf' },
        body: pdfStream(mb),
        duplex: 'half',
      } as RequestInit);
      const stored = (await res.json()) as { sizeBytes?: number };
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      if (res.status !== 201) throw new Error(`upload to ${where}: ${res.status} ${JSON.stringify(stored)}`);
      if (mb !== UPLOAD_MB) return;
      const growth = (peak - before) / 1024 / 1024;
      const verdict = growth <= BUDGET_RSS_MB ? 'within' : 'OVER';
      console.log(
        `  ${UPLOAD_MB} MB upload to ${where}: ${seconds.toFixed(1)} s, RSS growth ${growth.toFixed(1)} MB ` +
          `(budget ≤ ${BUDGET_RSS_MB} MB: ${verdict}); stored ${stored.sizeBytes} bytes`,
      );
    };

    console.log(`${label}: files`);
    await upload('the local disk', 2);
    await upload('the local disk');
    const config = await call('POST', '/file/storage', {
      name: 'bench-s3',
      provider: 's3',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: 'medu-bench',
      pathStyle: true,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
    await call('POST', `/file/storage/${config.id}/set-master`, { version: config.version });
    await upload('the S3 server', 2);
    await upload('the S3 server');
  } finally {
    s3.child.kill();
    const exited = new Promise((resolve) => api.child.once('exit', resolve));
    api.child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}
