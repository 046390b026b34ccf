import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type S3Server, startS3Server } from '../support/s3-server';
import { type Proc, spawnLogged, tailOf, until } from './processes';
import {
  createDatabase,
  type Database,
  freePort,
  type Haproxy,
  type Pgbouncer,
  type SmtpSink,
  smtpSink,
  startHaproxy,
  startPgbouncer,
} from './services';

const root = path.resolve(__dirname, '../..');

/** What every instance shares: the ID-number key (64 hex), the sign-in limit, the auth cache's time to live. */
export const ID_NUMBER_KEY = '7'.repeat(64);
export const TOKEN_RATE_LIMIT = 10;
/** Long enough that only an invalidation crossing instances can make B refuse a token revoked through A in 1 s. */
const AUTH_CACHE_TTL_MS = 60_000;
/** How long an instance may take to answer /api/health after it was started (2 cores, three instances at once). */
const START_MS = 75_000;

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: an API answer as the scenarios read it (every path may be followed)
  body: any;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  form?: FormData;
  bytes?: Uint8Array;
  headers?: Record<string, string>;
}

/** One API instance: `node --import tsx server/src/main.ts` (what `npm start` runs) on its own port and DATA_DIR. */
export class Instance {
  proc: Proc | undefined;
  readonly url: string;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: NodeJS.ProcessEnv,
    private readonly logDir: string,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  get pid(): number {
    return this.proc?.pid ?? -1;
  }

  /** Running: its process has not exited (a kill -9 or a crash ends it). */
  alive(): boolean {
    return this.proc !== undefined && this.proc.exit() === null;
  }

  spawn(): void {
    this.proc = spawnLogged(this.name, process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      cwd: root,
      env: this.env,
      logDir: this.logDir,
    });
  }

  /** Waits for /api/health to answer 200; fails at once if the process exits first. Answers the seconds it took. */
  async healthy(ms = START_MS): Promise<number> {
    const started = Date.now();
    const proc = this.proc;
    if (!proc) throw new Error(`${this.name} was never started`);
    const exited = proc.exited.then(() => {
      throw new Error(`${this.name} exited (${proc.exit()}) before answering /api/health`);
    });
    await Promise.race([
      exited,
      until(
        () => fetch(`${this.url}/api/health`).then((r) => r.status),
        (s) => s === 200 || proc.exit() !== null,
        ms,
        200,
      ),
    ]);
    if (proc.exit() !== null) await exited;
    return (Date.now() - started) / 1000;
  }

  async start(): Promise<number> {
    this.spawn();
    return this.healthy();
  }

  async restart(): Promise<number> {
    await this.proc?.stop();
    return this.start();
  }
}

/** Calls the API at `base` (an instance or haproxy); answers the status and the JSON (or text) body. */
export async function call(base: string, method: string, url: string, o: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'accept-language': 'en-US', ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  let body: BodyInit | undefined;
  if (o.form) body = o.form;
  else if (o.bytes) {
    body = new Uint8Array(o.bytes);
    headers['content-type'] ??= 'application/octet-stream';
  } else if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${url}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}

let signIns = 0;
/**
 * Signs in directly on `instance`, as a client of its own address (X-Forwarded-For from the "proxy" the test is here):
 * the harness's own sign-ins never count toward the limit the rate-limit scenario measures from haproxy's address.
 */
export async function signIn(instance: Instance, tenant: string, username: string, password: string) {
  signIns += 1;
  const res = await call(instance.url, 'POST', '/api/auth/token', {
    body: { grant_type: 'password', tenant, username, password, client_id: 'console' },
    headers: { 'x-forwarded-for': `10.77.${Math.floor(signIns / 250)}.${signIns % 250}` },
  });
  if (res.status !== 200) throw new Error(`sign-in of ${username}@${tenant} failed: ${JSON.stringify(res.body)}`);
  return res.body.access_token as string;
}

/**
 * The deployment under test: a fresh PostgreSQL database, pgbouncer in transaction mode in front of it, s3rver for
 * files, an SMTP sink, three instances (their DATABASE_URL through pgbouncer, DATABASE_DIRECT_URL straight to
 * PostgreSQL) and haproxy balancing them round robin. `close` stops everything that was started, whatever failed.
 */
export class Cluster {
  readonly workDir = mkdtempSync(path.join(os.tmpdir(), 'medu-cluster-'));
  readonly logDir = path.join(this.workDir, 'logs');
  db!: Database;
  pgbouncer!: Pgbouncer;
  s3!: S3Server;
  smtp!: SmtpSink;
  lb!: Haproxy;
  instances: Instance[] = [];
  /** A connection pool straight to the database, for exact counts (never through the API under test). */
  sql!: pg.Pool;
  /** Scenario 1's outcome: each instance's seconds to health when all three were started at once, or its failure. */
  startedTogether: { name: string; seconds?: number; error?: string }[] = [];
  private extras: Proc[] = [];

  constructor() {
    mkdirSync(this.logDir);
  }

  async start(): Promise<void> {
    this.db = await createDatabase();
    this.sql = new pg.Pool({ connectionString: this.db.url, max: 2 });
    // terminating every backend (scenario 4) ends these connections too: the pool drops them and opens new ones
    this.sql.on('error', () => {});
    this.pgbouncer = await startPgbouncer(this.db, this.workDir, this.logDir);
    this.s3 = await startS3Server('medu-cluster');
    this.smtp = await smtpSink(() => this.instances.filter((i) => i.alive()).map((i) => i.pid), 20);
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    for (const [n, port] of ports.entries()) {
      const name = 'abc'[n] as string;
      const dataDir = path.join(this.workDir, `data-${name}`);
      this.instances.push(new Instance(name, port, this.env(port, dataDir), this.logDir));
    }
    this.lb = await startHaproxy(ports, this.workDir, this.logDir);

    // all three at once, on the fresh database (scenario 1 reads the outcome)
    this.startedTogether = await this.startTogether(this.instances);
  }

  /**
   * Starts `instances` at once and answers how each fared; one that exited or did not answer in time is then started
   * again, alone, so that the scenarios after it still find three instances. Returns once haproxy balances them all.
   */
  async startTogether(instances: Instance[]): Promise<{ name: string; seconds?: number; error?: string }[]> {
    for (const i of instances) i.spawn();
    const outcomes = await Promise.allSettled(instances.map((i) => i.healthy()));
    for (const [n, i] of instances.entries()) if (outcomes[n]?.status === 'rejected') await i.restart();
    await this.balanced();
    return outcomes.map((o, n) => ({
      name: instances[n]?.name ?? '?',
      ...(o.status === 'fulfilled' ? { seconds: o.value } : { error: String(o.reason) }),
    }));
  }

  /** Waits until haproxy sends requests to every running instance again (its checks run twice a second). */
  async balanced(): Promise<void> {
    const running = this.instances.filter((i) => i.alive()).length;
    await until(
      () => this.lb.up(),
      (n) => n === running,
      10_000,
      250,
    );
  }

  /**
   * The environment of an instance: the documented variables, each set (a set variable wins over .env.local and .env),
   * and nothing else of the runner's (its TEST_DATABASE_URL, say).
   */
  private env(port: number, dataDir: string): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: this.pgbouncer.url,
      DATABASE_DIRECT_URL: this.db.url,
      ID_NUMBER_KEY,
      LOG_LEVEL: 'info',
      TRUST_PROXY: '1',
      AUTH_CACHE_TTL_MS: String(AUTH_CACHE_TTL_MS),
      AUTH_TOKEN_RATE_LIMIT: String(TOKEN_RATE_LIMIT),
      DEMO_CONTENT: 'false',
      // the SMTP sink and s3rver are on loopback: the platform's own settings (an operator's) may point there
      OUTBOUND_PRIVATE_TENANTS: 'platform',
      // a message left in flight by a killed instance is sent again after 20 s rather than two minutes
      MESSAGE_CLAIM_SECONDS: '20',
    };
  }

  get a(): Instance {
    return this.instances[0] as Instance;
  }
  get b(): Instance {
    return this.instances[1] as Instance;
  }
  get c(): Instance {
    return this.instances[2] as Instance;
  }

  /** `npm run create-admin` on the cluster's database (through pgbouncer, as an operator would). */
  async createAdmin(username: string, password: string): Promise<void> {
    const proc = spawnLogged('create-admin', 'npm', ['run', 'create-admin', '--', username, 'Operator'], {
      cwd: root,
      env: { ...this.env(0, path.join(this.workDir, 'data-cli')), PORT: undefined, ADMIN_PASSWORD: password },
      logDir: this.logDir,
    });
    this.extras.push(proc);
    await proc.exited;
    if (proc.exit() !== 0) throw new Error(`npm run create-admin failed (${proc.exit()}):\n${tailOf([proc.logFile])}`);
  }

  /** Runs a statement on the PostgreSQL server's maintenance database (past pgbouncer). */
  async onServer(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
    const url = new URL(this.db.url);
    url.pathname = '/postgres';
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return await client.query(text, values);
    } finally {
      await client.end();
    }
  }

  /** The tail of every log: what a failed run prints. */
  logs(): string {
    const names = ['a', 'b', 'c', 'pgbouncer', 'haproxy', 'create-admin'];
    return tailOf(names.map((n) => path.join(this.logDir, `${n}.log`)));
  }

  /** Stops everything started, in reverse order, each step whatever the others did; keeps the logs when asked. */
  async close(keepLogs: boolean): Promise<void> {
    const steps: (() => Promise<unknown> | undefined)[] = [
      ...this.instances.map((i) => () => i.proc?.stop(5_000)),
      ...this.extras.map((p) => () => p.stop(2_000)),
      () => this.lb?.proc.stop(2_000),
      () => this.sql?.end(),
      () => this.pgbouncer?.proc.stop(2_000),
      () => this.smtp?.close(),
      () => this.s3?.close(),
      () => this.db?.drop(),
    ];
    for (const step of steps) {
      try {
        await step();
      } catch (err) {
        console.error('cluster: a step of the shutdown failed:', err);
      }
    }
    if (keepLogs) console.error(`cluster: logs kept in ${this.logDir}`);
    else rmSync(this.workDir, { recursive: true, force: true });
  }
}
