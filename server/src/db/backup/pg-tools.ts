import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type PgTool = 'pg_dump' | 'pg_restore';

const majorOf = (version: string): number => Number(version.match(/(\d+)/)?.[1] ?? 0);

/**
 * The client of the server's major version: Debian keeps each installed one in /usr/lib/postgresql/<major>/bin
 * (postgresql-client-<major>); else the one on PATH. An older client cannot read a newer server (pg_dump refuses), so
 * that is said before anything runs, naming the package to install.
 */
export async function pgTool(tool: PgTool, serverVersion: string): Promise<{ bin: string; version: string }> {
  const major = majorOf(serverVersion);
  const debian = `/usr/lib/postgresql/${major}/bin/${tool}`;
  const bin = existsSync(debian) ? debian : tool;
  let version: string;
  try {
    version = (await run(bin, ['--version'])).stdout.trim().replace(/^\S+ \(PostgreSQL\) /, '');
  } catch {
    throw new Error(
      `${tool} is not installed: install PostgreSQL ${major}'s client (apt-get install postgresql-client-${major})`,
    );
  }
  if (majorOf(version) !== major)
    throw new Error(
      `${bin} is PostgreSQL ${version}, the server ${serverVersion}: install the server's client (apt-get install postgresql-client-${major})`,
    );
  return { bin, version };
}

/** The connection for a client tool: the URL without its password, which goes in PGPASSWORD (not on a command line). */
export function connectionOf(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { ...process.env, ...(password && { PGPASSWORD: password }) } };
}

export async function runPgTool(bin: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await run(bin, args, { env, maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`${bin} failed${stderr ? `: ${stderr}` : ''}`, { cause: err });
  }
}
