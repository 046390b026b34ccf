import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A child process of the cluster test whose output goes to a log file of its own (`<logDir>/<name>.log`, every start
 * appended), so that a failed run can show what each instance, haproxy and pgbouncer said.
 */
export interface Proc {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Null while it runs; its exit code, or the signal it died of, once it has exited. */
  exit(): number | string | null;
  /** Resolves when it has exited. */
  readonly exited: Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
  /** kill -9, as a crashed machine or the OOM killer would. */
  kill9(): Promise<void>;
}

export function spawnLogged(
  name: string,
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; logDir: string },
): Proc {
  const logFile = path.join(options.logDir, `${name}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  log.write(`\n=== ${new Date().toISOString()} ${command} ${args.join(' ')}\n`);
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  let status: number | string | null = null;
  const exited = new Promise<void>((resolve) => {
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      status = code ?? signal ?? 'unknown';
      log.write(`=== exited: ${status}\n`);
      resolve();
    };
    child.once('exit', done);
    child.once('error', (err) => {
      log.write(`=== could not start: ${err.message}\n`);
      done(null, null);
    });
  });
  const send = (signal: NodeJS.Signals) => {
    if (status === null) child.kill(signal);
  };
  return {
    name,
    pid: child.pid ?? -1,
    logFile,
    exit: () => status,
    exited,
    async stop(graceMs = 10_000) {
      if (status !== null) return;
      send('SIGTERM');
      const timer = setTimeout(() => send('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
    async kill9() {
      send('SIGKILL');
      await exited;
    },
  };
}

/** The last `lines` lines of each log, for a failed run's output. */
export function tailOf(files: string[], lines = 60): string {
  return files
    .filter((file) => existsSync(file))
    .map((file) => {
      const text = readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
      return `----- ${path.basename(file)} (last ${lines} lines) -----\n${text}`;
    })
    .join('\n');
}

/** Polls `read` every `everyMs` until `done` holds; throws with the last value after `ms`. */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms: number,
  everyMs = 100,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    let value: T | undefined;
    let failure: unknown;
    try {
      value = await read();
      if (done(value)) return value;
    } catch (err) {
      failure = err;
    }
    if (Date.now() > end) {
      const last = failure instanceof Error ? failure.message : JSON.stringify(value);
      throw new Error(`not reached within ${ms / 1000} s; last: ${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
