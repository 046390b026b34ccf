import { randomBytes } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { type Proc, spawnLogged, until } from './processes';

/** The PostgreSQL server the cluster runs on (its maintenance database); each run makes a database of its own. */
export const POSTGRES_URL = process.env.CLUSTER_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

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

/** Resolves once something accepts TCP connections on the port. */
export function listening(port: number, ms = 20_000): Promise<unknown> {
  const tryOnce = () =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  return until(tryOnce, Boolean, ms, 100);
}

export interface Database {
  name: string;
  /** The database itself, straight to PostgreSQL. */
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database `medu_cluster_<random>` for one run. */
export async function createDatabase(): Promise<Database> {
  const name = `medu_cluster_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

export interface Pgbouncer {
  proc: Proc;
  port: number;
  /** The database through pgbouncer (what an instance's DATABASE_URL names). */
  url: string;
  /** Runs a command of pgbouncer's admin console (`KILL db`, `RESUME db`, `SHOW POOLS`). */
  admin(command: string): Promise<pg.QueryResult>;
}

/**
 * pgbouncer in transaction mode in front of `db`, on a free loopback port. It refuses to run as root, so it is told
 * to switch to `nobody` then (`-u`), and its files are made readable by that user.
 */
export async function startPgbouncer(db: Database, dir: string, logDir: string): Promise<Pgbouncer> {
  const port = await freePort();
  const direct = new URL(db.url);
  const ini = path.join(dir, 'pgbouncer.ini');
  const users = path.join(dir, 'userlist.txt');
  writeFileSync(users, `"${direct.username}" ""\n`, { mode: 0o644 });
  writeFileSync(
    ini,
    [
      '[databases]',
      `${db.name} = host=${direct.hostname} port=${direct.port || 5432} dbname=${db.name} user=${direct.username}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${users}`,
      `admin_users = ${direct.username}`,
      'pool_mode = transaction',
      'max_client_conn = 500',
      'default_pool_size = 30',
      'server_login_retry = 1',
      'ignore_startup_parameters = extra_float_digits',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const proc = spawnLogged('pgbouncer', '/usr/sbin/pgbouncer', [...(asRoot ? ['-u', 'nobody'] : []), ini], {
    logDir,
  });
  await Promise.race([
    listening(port),
    proc.exited.then(() => {
      throw new Error(`pgbouncer exited (${proc.exit()}) before listening; see ${proc.logFile}`);
    }),
  ]);
  const url = new URL(db.url);
  url.port = String(port);
  url.hostname = '127.0.0.1';
  return {
    proc,
    port,
    url: url.toString(),
    async admin(command) {
      const c = new pg.Client({ host: '127.0.0.1', port, user: direct.username, database: 'pgbouncer' });
      await c.connect();
      try {
        return await c.query(command);
      } finally {
        await c.end();
      }
    },
  };
}

export interface Haproxy {
  proc: Proc;
  url: string;
  /** How many instances haproxy currently sends requests to (its health checks passed). */
  up(): Promise<number>;
}

/**
 * haproxy (Debian's) balancing HTTP round robin over the instances' ports: it adds X-Forwarded-For, checks each
 * instance on /api/health twice a second and takes one that fails twice out, and retries a request whose connection
 * was refused on another instance.
 */
export async function startHaproxy(ports: number[], dir: string, logDir: string): Promise<Haproxy> {
  const port = await freePort();
  const cfg = path.join(dir, 'haproxy.cfg');
  const socket = path.join(dir, 'haproxy.sock');
  writeFileSync(
    cfg,
    [
      'global',
      '  maxconn 2000',
      `  stats socket ${socket}`,
      'defaults',
      '  mode http',
      '  timeout connect 1s',
      '  timeout client 120s',
      '  timeout server 120s',
      '  retries 3',
      '  option redispatch',
      '  retry-on conn-failure',
      'frontend web',
      `  bind 127.0.0.1:${port}`,
      '  option forwardfor',
      '  default_backend medu',
      'backend medu',
      '  balance roundrobin',
      // haproxy's own warnings (on stderr) say when an instance is taken out and put back
      '  option httpchk',
      '  http-check send meth GET uri /api/health ver HTTP/1.1 hdr Host medu',
      '  http-check expect status 200',
      '  default-server inter 500ms fall 2 rise 1',
      ...ports.map((p, i) => `  server i${i} 127.0.0.1:${p} check`),
      '',
    ].join('\n'),
  );
  const proc = spawnLogged('haproxy', '/usr/sbin/haproxy', ['-db', '-f', cfg], { logDir });
  await Promise.race([
    listening(port),
    proc.exited.then(() => {
      throw new Error(`haproxy exited (${proc.exit()}) before listening; see ${proc.logFile}`);
    }),
  ]);
  return {
    proc,
    url: `http://127.0.0.1:${port}`,
    // the runtime API's `show stat`: one CSV line per server, its status in the 18th column
    up: () =>
      new Promise<number>((resolve, reject) => {
        let out = '';
        const c = net.connect(socket);
        c.on('data', (chunk) => {
          out += chunk;
        });
        c.on('end', () =>
          resolve(out.split('\n').filter((l) => l.startsWith('medu,i') && l.split(',')[17] === 'UP').length),
        );
        c.on('error', reject);
        c.write('show stat\n');
      }),
  };
}

/** The pid among `pids` holding the loopback TCP socket whose local port is `port` (Linux's /proc). */
function ownerOfPort(port: number, pids: number[]): number | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(`:${hex}`) && cols[9]) inodes.add(`socket:[${cols[9]}]`);
    }
  }
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        try {
          if (inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return pid;
        } catch {
          /* closed meanwhile */
        }
      }
    } catch {
      /* the process is gone */
    }
  }
  return undefined;
}

export interface Delivered {
  to: string[];
  /** The instance process that sent it (found from the connection's source port), if any. */
  pid: number | undefined;
  at: number;
}

export interface SmtpSink {
  port: number;
  delivered: Delivered[];
  /** How many messages each address received. */
  perRecipient(): Map<string, number>;
  close(): Promise<void>;
}

/**
 * An SMTP server taking every message, which notes who it was for and which of `pids()` sent it. Each message is
 * answered after `delayMs`, so that a batch takes long enough to kill its sender in the middle of it.
 */
export async function smtpSink(pids: () => number[], delayMs: number): Promise<SmtpSink> {
  const senders = new Map<string, number | undefined>();
  const delivered: Delivered[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(session, callback) {
      senders.set(session.id, ownerOfPort(session.remotePort, pids()));
      callback();
    },
    onData(stream, session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        setTimeout(() => {
          delivered.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            pid: senders.get(session.id),
            at: Date.now(),
          });
          callback();
        }, delayMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as net.AddressInfo;
  return {
    port,
    delivered,
    perRecipient() {
      const counts = new Map<string, number>();
      for (const d of delivered) for (const to of d.to) counts.set(to, (counts.get(to) ?? 0) + 1);
      return counts;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
