import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { ConfigError, loadConfig, readEnvFiles } from '../config';
import { createServer } from '../server';
import { createPlatformAdmin } from './seed/platform-admin';

const usage =
  'usage: npm run create-admin -- <username> [display name]   (password from ADMIN_PASSWORD, else asked for)';

/** Reads a line from the terminal without echoing it. */
async function askHidden(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  const answer = rl.question(question);
  muted = true;
  try {
    return await answer;
  } finally {
    rl.close();
    process.stdout.write('\n');
  }
}

async function readPassword(): Promise<string> {
  if (process.env.ADMIN_PASSWORD) return process.env.ADMIN_PASSWORD;
  if (!process.stdin.isTTY) throw new Error('set ADMIN_PASSWORD or run this in a terminal');
  const first = await askHidden('Password: ');
  const second = await askHidden('Repeat the password: ');
  if (first !== second) throw new Error('the passwords differ');
  return first;
}

/** Creates the first platform administrator on the configured database (DATABASE_URL, else the embedded one). */
async function main() {
  const [username, ...rest] = process.argv.slice(2);
  if (!username || username.startsWith('-')) throw new Error(usage);
  readEnvFiles();
  const config = loadConfig();
  const password = await readPassword();
  // a tool beside the servers: it migrates and seeds the base data if need be, and leaves imports and jobs to them
  const server = await createServer({
    database: config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl, directUrl: config.databaseDirectUrl }
      : { kind: 'pglite', dataDir: config.dataDir },
    config,
    role: 'tool',
  });
  try {
    await createPlatformAdmin(server.services, { username, password, displayName: rest.join(' ') || username });
    console.log(`platform administrator "${username}" created: sign in with tenant "platform"`);
  } finally {
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError || err instanceof Error ? err.message : err);
  process.exit(1);
});
