import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import {
  ConfigError,
  idNumberKeyFile,
  loadConfig,
  previousKeyFile,
  readEnvFiles,
  resolveKeys,
  writeKeyFile,
} from '../config';
import { resealAll } from '../core/reseal';
import { createServer } from '../server';
import type { DatabaseOptions } from './database';

const usage = `usage: npm run rotate-key [-- --new] [-- --batch=<rows>]
  Re-seals every sealed value (ID numbers, stored credentials) under the current key, in batches, each its own
  transaction. Keys: ID_NUMBER_KEY (the new one) and ID_NUMBER_KEY_PREVIOUS (the old ones, comma-separated), or the
  key file and <key file>.previous. --new (key file only) first makes a new key and keeps the current one as previous.`;

/** Rotates the master key on the configured database (DATABASE_URL, else the embedded one): see docs/operating.md. */
async function main() {
  const args = process.argv.slice(2);
  if (args.some((a) => a !== '--new' && !/^--batch=\d+$/.test(a))) throw new Error(usage);
  const batch = Number(args.find((a) => a.startsWith('--batch='))?.slice('--batch='.length) ?? 500);
  readEnvFiles();
  const config = loadConfig();
  const database: DatabaseOptions = config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl, directUrl: config.databaseDirectUrl }
    : { kind: 'pglite', dataDir: config.dataDir };
  const keyFile = config.idNumberKey
    ? undefined
    : database.kind === 'pglite'
      ? idNumberKeyFile(config)
      : config.idNumberKeyFile;
  const log = (line: string) => console.log(line);
  let keys = resolveKeys(config, database, log);
  if (args.includes('--new')) {
    if (!keyFile)
      throw new ConfigError(
        'the key is ID_NUMBER_KEY: set ID_NUMBER_KEY to a new key (openssl rand -hex 32) and ID_NUMBER_KEY_PREVIOUS to the old one on every instance, restart them, then run npm run rotate-key without --new',
      );
    writeKeyFile(previousKeyFile(keyFile), [keys.idNumberKey, ...keys.previousIdNumberKeys]);
    writeKeyFile(keyFile, [randomBytes(32)]);
    log(`a new key is in ${keyFile}; the ones before it in ${previousKeyFile(keyFile)} until every value is re-sealed`);
    keys = resolveKeys(config, database, log);
  }
  // a tool beside the servers (which accept both keys meanwhile): it leaves imports and jobs to them
  const server = await createServer({ database, config: { ...config, ...keys }, role: 'tool' });
  let unreadable = 0;
  try {
    const counts = await resealAll(
      server.services.tenancy,
      { current: keys.idNumberKey, previous: keys.previousIdNumberKeys },
      { batch },
    );
    for (const c of counts) {
      unreadable += c.unreadable.length;
      console.log(
        `${c.column}: ${c.seen} sealed, ${c.resealed} re-sealed${c.unreadable.length ? `, ${c.unreadable.length} opened by no key (ids ${c.unreadable.slice(0, 20).join(', ')})` : ''}`,
      );
    }
  } finally {
    await server.close();
  }
  if (unreadable) {
    console.error('some values open under no key given: the previous keys are kept');
    process.exitCode = 1;
  } else if (keyFile && existsSync(previousKeyFile(keyFile))) {
    rmSync(previousKeyFile(keyFile));
    console.log(`every value is under the current key: ${previousKeyFile(keyFile)} removed`);
  } else if (config.previousIdNumberKeys.length)
    console.log('every value is under the current key: ID_NUMBER_KEY_PREVIOUS can go from every instance');
  else console.log('every value is under the current key');
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError || err instanceof Error ? err.message : err);
  process.exit(1);
});
