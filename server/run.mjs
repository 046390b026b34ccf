// What `npm start`, `npm run migrate` and `npm run create-admin` run: the compiled server of dist/server/ when it is
// current. `start` builds first when dist/ is missing or older than the sources (the console takes minutes, the
// server seconds); the command-line tools then run the sources through tsx instead, rather than build the console to
// change a database. A folder without the sources (a release: dist/ and the production packages) runs what dist/
// holds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const commands = {
  start: { compiled: 'dist/server/main.js', source: 'server/src/main.ts' },
  migrate: { compiled: 'dist/server/migrate.js', source: 'server/src/db/migrate-cli.ts' },
  'create-admin': { compiled: 'dist/server/create-admin.js', source: 'server/src/db/create-admin-cli.ts' },
  'rotate-key': { compiled: 'dist/server/rotate-key.js', source: 'server/src/db/rotate-key-cli.ts' },
  backup: { compiled: 'dist/server/backup.js', source: 'server/src/db/backup/backup-cli.ts', args: ['backup'] },
  restore: { compiled: 'dist/server/backup.js', source: 'server/src/db/backup/backup-cli.ts', args: ['restore'] },
};
/** What each half of dist/ is built from (Umi's generated folders are not sources). */
const parts = [
  { built: 'dist/index.html', sources: ['src', 'public', '.umirc.ts'], build: ['npm', ['run', 'build']] },
  {
    built: 'dist/server/main.js',
    sources: ['server/src', 'server/build.mjs'],
    build: [process.execPath, ['server/build.mjs']],
  },
];
const generated = new Set(['.umi', '.umi-production', '.umi-test']);

function newestMtime(full) {
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(full)
    .filter((name) => !generated.has(name))
    .reduce((latest, name) => Math.max(latest, newestMtime(path.join(full, name))), stat.mtimeMs);
}

/** Why a part of dist/ cannot be run as it is, or undefined when it can. */
function staleness(part) {
  const built = path.join(root, part.built);
  if (!existsSync(built)) return `${part.built} is missing`;
  const builtAt = statSync(built).mtimeMs;
  const changed = part.sources.find((entry) => newestMtime(path.join(root, entry)) > builtAt);
  return changed ? `${changed} changed since ${part.built} was built` : undefined;
}

const [name, ...given] = process.argv.slice(2);
const command = commands[name];
// a command's own leading arguments (backup and restore are one tool), then the user's
const args = [...(command?.args ?? []), ...given];
if (!command) {
  console.error(`usage: node server/run.mjs ${Object.keys(commands).join('|')} [arguments]`);
  process.exit(2);
}
// the first stale part: the console's build (`npm run build`) makes both, the server's alone takes seconds
const stale = parts.map((part) => ({ part, reason: staleness(part) })).find(({ reason }) => reason);
if (stale && name === 'start') {
  const [command, commandArgs] = stale.part.build;
  console.log(`${stale.reason}: building it (${path.basename(command)} ${commandArgs.join(' ')})`);
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
} else if (stale) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, command.source), ...args], {
    stdio: 'inherit',
  });
  process.exit(result.status ?? 1);
}
// the compiled entry reads its arguments from process.argv[2] on, as when run with `node dist/server/<name>.js`
process.argv.splice(2, process.argv.length - 2, ...args);
await import(pathToFileURL(path.join(root, command.compiled)).href);
