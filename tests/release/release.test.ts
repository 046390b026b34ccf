import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, freePort } from '../e2e/global-setup';

const root = path.resolve(__dirname, '../..');

/** The bytes under a folder. */
function sizeOf(full: string): number {
  const stat = statSync(full, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(full).reduce((sum, name) => sum + sizeOf(path.join(full, name)), 0);
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Runs a command to its end; its output goes into the error when it fails. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

describe('the release: dist/ and the production packages alone', () => {
  const started = Date.now();
  /** How long each step took, printed at the end: what the release test's minutes go to. */
  const steps: string[] = [];
  let stepStarted = Date.now();
  const step = (name: string) => {
    steps.push(`${name} ${((Date.now() - stepStarted) / 1000).toFixed(0)} s`);
    stepStarted = Date.now();
  };
  const host = mkdtempSync(path.join(os.tmpdir(), 'medu-release-'));
  const dataDir = path.join(host, 'data');
  let server: ChildProcess | undefined;
  let url = '';
  let serverLog = '';

  beforeAll(async () => {
    // the console when it is older than its sources, then the compiled server (a few seconds) from the sources as they are
    ensureBuilt();
    const compiled = run(process.execPath, ['server/build.mjs'], root);
    expect(compiled.status, compiled.output).toBe(0);
    step('build');

    // what a host receives: dist/, package.json and package-lock.json
    cpSync(path.join(root, 'dist'), path.join(host, 'dist'), { recursive: true });
    cpSync(path.join(root, 'package.json'), path.join(host, 'package.json'));
    cpSync(path.join(root, 'package-lock.json'), path.join(host, 'package-lock.json'));

    // npm's own variables of the run that started vitest (`npm run test:release`) are not the host's
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
    const flags = ['--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'];
    let install = run('npm', ['ci', ...flags], host, env);
    step('npm ci');
    // as in .ci/run: npm 11's `npm ci` refuses a lock file without other platforms' optional packages, which the
    // registry mirror reached here lacks; `npm install` then installs the locked versions this platform needs
    if (install.status !== 0 && /Missing: .* from lock file/.test(install.output)) {
      install = run('npm', ['install', ...flags], host, env);
      step('npm install');
    }
    expect(install.status, install.output).toBe(0);

    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['dist/server/main.js'], {
      cwd: host,
      env: {
        ...env,
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        DEMO_CONTENT: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (chunk) => {
      serverLog += chunk;
    });
    server.stderr?.on('data', (chunk) => {
      serverLog += chunk;
    });
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the release exited with ${server.exitCode}:\n${serverLog}`);
      const res = await fetch(`${url}/api/health`).catch(() => undefined);
      if (res?.ok) break;
      if (Date.now() > deadline) throw new Error(`the release did not answer /api/health in 120 s:\n${serverLog}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    step('start');
  });

  async function stop() {
    if (!server || server.exitCode !== null) return;
    const exited = new Promise((r) => server?.once('exit', r));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (server.exitCode === null) server.kill('SIGKILL');
  }

  afterAll(async () => {
    await stop();
    step('checks');
    const sizes = `dist/ ${mb(sizeOf(path.join(host, 'dist')))}, production node_modules ${mb(sizeOf(path.join(host, 'node_modules')))}`;
    console.log(`release: ${sizes}; ${((Date.now() - started) / 1000).toFixed(0)} s: ${steps.join(', ')}`);
    // removing 200 MB of small files took this machine's disk most of a minute: it goes on after the test
    spawn('rm', ['-rf', host], { detached: true, stdio: 'ignore' }).unref();
  });

  it('holds no TypeScript, tsx, bundler or Umi in its node_modules', () => {
    const modules = path.join(host, 'node_modules');
    expect(existsSync(path.join(modules, 'hono'))).toBe(true);
    for (const name of ['typescript', 'tsx', 'esbuild', 'umi', '@umijs', 'webpack', 'vite', 'vitest', 'antd']) {
      expect(existsSync(path.join(modules, name)), name).toBe(false);
    }
  });

  it('answers its health check and signs in the demo administrator', async () => {
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    const token = await fetch(`${url}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'password',
        tenant: 'demo',
        client_id: 'console',
        username: 'admin',
        password: 'admin123',
      }),
    });
    const body = (await token.json()) as { access_token?: string };
    expect(token.status, JSON.stringify(body)).toBe(200);
    const me = await fetch(`${url}/api/auth/me`, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(me.status).toBe(200);
  });

  it('serves the console: its page and the scripts the page names', async () => {
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    const script = /<script[^>]*\ssrc="\/?([^"]+\.js)"/.exec(html)?.[1];
    expect(script, html).toBeDefined();
    const res = await fetch(`${url}/${script}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
  });

  it('runs its migrations from the compiled files: the database it started is up to date', async () => {
    // the embedded database is one process's: the server lets go of it first
    await stop();
    const migrate = run(process.execPath, ['dist/server/migrate.js'], host, {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    });
    expect(migrate.status, migrate.output).toBe(0);
    expect(migrate.output).toContain('database is up to date');
  });
});
