import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely } from 'kysely';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/src/db/database';
import { migrateToLatest } from '../../server/src/db/migrator';
import { PGliteDialect } from '../../server/src/db/pglite-dialect';

/**
 * The API suite starts some two hundred servers, each on a database of its own, and applying every migration to each
 * was most of its time. This global set-up migrates one database per engine, once for a given set of migrations, and
 * the suite's databases start as copies of it: PGlite from a dump of its data directory (`loadDataDir`), PostgreSQL
 * from a template database (`CREATE DATABASE … TEMPLATE`). Tests of migrations themselves ask for an empty one.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The dump of a migrated PGlite data directory (a tar file). */
    pgliteTemplate: string;
    /** The name of a migrated PostgreSQL database to copy, when TEST_DATABASE_URL is set. */
    postgresTemplate: string | undefined;
  }
}

const migrations = path.resolve(__dirname, '../../server/src/db/migrations');

/** Changes with any migration, so that a copy never misses one. */
function migrationsDigest(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrations).sort())
    hash.update(file).update(readFileSync(path.join(migrations, file)));
  return hash.digest('hex').slice(0, 16);
}

async function pgliteTemplate(digest: string): Promise<string> {
  const file = path.join(os.tmpdir(), `medu-api-template-${digest}.tar`);
  if (existsSync(file)) return file;
  const client = await PGlite.create({ extensions: { pg_trgm } });
  const db = new Kysely<unknown>({ dialect: new PGliteDialect(client) });
  try {
    await migrateToLatest(db);
    await client.exec('CHECKPOINT');
    const dump = await client.dumpDataDir('none');
    // written aside, then renamed: another run reading it never sees half a file
    const partial = `${file}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await db.destroy();
  }
  return file;
}

async function postgresTemplate(url: string, digest: string): Promise<string> {
  const name = `medu_template_${digest}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return name;
    // made under a name of its own, then renamed: a run started meanwhile copies only a finished one
    const partial = `medu_template_partial_${randomBytes(6).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${partial}`);
    const target = new URL(url);
    target.pathname = `/${partial}`;
    const { db, close } = await openDatabase({ kind: 'postgres', url: target.toString() });
    await migrateToLatest(db).finally(close);
    try {
      await admin.query(`ALTER DATABASE ${partial} RENAME TO ${name}`);
    } catch {
      // another run finished first: its template serves
      await admin.query(`DROP DATABASE IF EXISTS ${partial} WITH (FORCE)`);
    }
    return name;
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const digest = migrationsDigest();
  const url = process.env.TEST_DATABASE_URL;
  const [pglite, postgres] = await Promise.all([
    pgliteTemplate(digest),
    url ? postgresTemplate(url, digest) : Promise.resolve(undefined),
  ]);
  project.provide('pgliteTemplate', pglite);
  project.provide('postgresTemplate', postgres);
}
