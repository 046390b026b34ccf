import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

const root = path.resolve(__dirname, '../..');

function newestMtime(entry: string): number {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(full)
    .filter((name) => name !== '.umi' && name !== '.umi-production' && name !== '.umi-test')
    .reduce((latest, name) => Math.max(latest, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

/** Builds the console when dist/ is missing or older than its sources (`npm run build`: with the compiled server). */
export function ensureBuilt(): void {
  const index = path.join(root, 'dist/index.html');
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  const sources = Math.max(newestMtime('src'), newestMtime('.umirc.ts'), newestMtime('public'));
  if (built > sources) return;
  console.log('e2e: building the console (npm run build)…');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts `npm start`'s entry point on a free port with a fresh embedded database. */
export async function startServer(
  extraEnv: Record<string, string> = {},
  /** How long it may take to answer its health check (the demo content takes longer to seed on a busy machine). */
  healthyWithinMs = 120_000,
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'medu-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    // the key kept outside DATA_DIR, as by default, but in a folder of the run rather than the user's config folder
    ID_NUMBER_KEY_FILE: `${dataDir}.key`,
    LOG_LEVEL: 'warn',
    // every journey signs in from 127.0.0.1, many times a minute: the sign-in rate limit is the API tests' to check
    AUTH_TOKEN_RATE_LIMIT: '1000',
    // the journeys start from an empty demo tenant (some count what they add): no demo content
    DEMO_CONTENT: 'false',
    // the journeys' S3 server (s3rver) listens on loopback, which a tenant may reach only when allowed
    OUTBOUND_PRIVATE_TENANTS: 'demo',
    ...extraEnv,
  };
  // the embedded database, whatever .env.local says (an empty value counts as set)
  env.DATABASE_URL = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + healthyWithinMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not become healthy in ${healthyWithinMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    dataDir,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(`${dataDir}.key`, { force: true });
    },
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

export default async function setup(project: TestProject) {
  ensureBuilt();
  const server = await startServer();
  project.provide('baseURL', server.url);
  return () => server.stop();
}
