// `npm run dev`. Umi writes the values of `.env` and `.env.local` over the environment it runs in; here, as for
// `npm start`, the real environment wins (README). What the environment sets for those files' keys rides along to
// Umi's dev process, whose plugin (real-env.ts) puts it back once Umi has read the files.
const { existsSync, readFileSync } = require('node:fs');

const keys = ['.env', '.env.local']
  .filter((file) => existsSync(file))
  .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/^\s*(?:export\s+)?([\w.-]+)\s*=/gm)].map((m) => m[1]));
const real = Object.fromEntries(
  keys.filter((key) => process.env[key] !== undefined).map((key) => [key, process.env[key]]),
);
process.env.MEDU_REAL_ENV = JSON.stringify(real);

process.argv.splice(2, 0, 'dev');
require('@umijs/max/bin/max');
