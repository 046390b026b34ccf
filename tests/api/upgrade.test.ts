import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseOptions, openDatabase } from '../../server/src/db/database';
import { migrateDown, migrateToLatest, migrationNames, pendingMigrations } from '../../server/src/db/migrator';
import { engines, type Json, startApi, TEST_ID_NUMBER_KEY, type TestApi, type TestEngine } from './helpers';

/**
 * An upgrade keeps the data. The fixture is the demo tenant as commit 7b8c630 made it (migration level 0054), dumped
 * with `pg_dump --inserts --no-owner --no-comments`: the same statements load into either engine. A server of today starts on it, migrates it to the current level and serves its records, an ID
 * number sealed then included.
 */
const fixture = gunzipSync(readFileSync(path.join(__dirname, '../fixtures/upgrade/demo-0054.sql.gz'))).toString('utf8');

/** The roles a database's grants name live in its cluster, not in a dump (`pg_dumpall --roles-only` would hold them). */
const clusterRoles = ['medu_app', 'medu_system']
  .map(
    (role) => `DO $$ BEGIN CREATE ROLE ${role} NOLOGIN NOBYPASSRLS;
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$;`,
  )
  .join('\n');

/** A database holding the fixture, as an operator's database of that release would be. */
async function fixtureDatabase(engine: TestEngine): Promise<{ options: DatabaseOptions; drop(): Promise<void> }> {
  if (engine.name === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'medu-upgrade-'));
    // where the server keeps its embedded database inside DATA_DIR (db/database.ts)
    const db = await PGlite.create({ dataDir: path.join(dataDir, 'pgdata'), extensions: { pg_trgm } });
    await db.exec(clusterRoles);
    await db.exec(fixture);
    await db.close();
    return {
      options: { kind: 'pglite', dataDir },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const database = await engine.create({ empty: true });
  if (database.options.kind !== 'postgres') throw new Error('expected PostgreSQL');
  const client = new pg.Client({ connectionString: database.options.url });
  await client.connect();
  try {
    await client.query(clusterRoles);
    await client.query(fixture);
  } finally {
    await client.end();
  }
  return database;
}

describe.each(engines())('an upgrade from migration level 0054 ($name)', (engine) => {
  let api: TestApi;
  let database: Awaited<ReturnType<typeof fixtureDatabase>>;
  let token: string;

  beforeAll(async () => {
    database = await fixtureDatabase(engine);
    // the upgrade itself, timed: what `npm run migrate` does before the new release starts
    const { db, close } = await openDatabase(database.options);
    const started = performance.now();
    const applied = await migrateToLatest(db).finally(close);
    console.info(
      `${engine.name}: ${applied.length} migrations applied to the fixture in ${Math.round(performance.now() - started)} ms`,
    );
    api = await startApi(engine, { database: database.options });
    token = (await api.tokens('demo', 'admin', 'admin123')).access;
  });
  afterAll(async () => {
    await api?.close();
    await database?.drop();
  });

  const list = async (route: string): Promise<Json> => {
    const res = await api.call('GET', `${route}?current=1&pageSize=100`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  it('is migrated to the current level', async () => {
    expect(await pendingMigrations(api.db)).toEqual([]);
    const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(api.db);
    expect(rows.map((r) => r.name)).toEqual(migrationNames());
  });

  it('serves the records made before the upgrade', async () => {
    expect((await list('/api/people/trainee')).total).toBe(18);
    expect((await list('/api/people/doctor')).total).toBe(8);
    expect((await list('/api/assess/question')).total).toBe(22);
    expect((await list('/api/assess/paper')).total).toBe(2);
    expect((await list('/api/teaching/activity')).total).toBe(3);
    expect((await list('/api/teaching/course')).total).toBeGreaterThan(0);
    const names = (await list('/api/people/trainee')).data.map((t: Json) => t.name);
    expect(names).toContain('吴雨桐');
  });

  it('opens an ID number sealed before the upgrade and still finds its holder by it', async () => {
    const found = (await list('/api/people/trainee')).data.find((t: Json) => t.name === '吴雨桐');
    expect(found.idNoMasked).toBe('1101**********123X');
    const revealed = await api.call('POST', `/api/people/trainee/${found.id}/reveal-id`, { token });
    expect(revealed.status, JSON.stringify(revealed.body)).toBe(200);
    expect(revealed.body.idNo).toBe('11010519900307123X');
    const byNumber = await api.call('GET', '/api/people/trainee?keyword=11010519900307123X', { token });
    expect(byNumber.body.data.map((t: Json) => t.name)).toEqual(['吴雨桐']);
  });

  it('takes new records beside the old ones', async () => {
    const hospital = (await list('/api/people/organization')).data.find((o: Json) => o.orgType === 'hospital');
    const created = await api.call('POST', '/api/people/organization', {
      token,
      body: { code: 'UPG1', name: '升级后新建科室', orgType: 'department', parentId: hospital.id },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });
});

/** A catalogue to compare schemas by: every column, index, constraint, trigger and policy of the public schema. */
async function catalogue(db: Awaited<ReturnType<typeof openDatabase>>['db']): Promise<string[]> {
  const { rows } = await sql<{ item: string }>`
    SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS item
      FROM information_schema.columns WHERE table_schema = 'public'
    UNION ALL SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL SELECT conrelid::regclass || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
      WHERE connamespace = 'public'::regnamespace
    UNION ALL SELECT tgrelid::regclass || ' ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT tablename || ' ' || policyname || ' ' || coalesce(qual, '') || ' ' || coalesce(with_check, '')
      FROM pg_policies WHERE schemaname = 'public'
    ORDER BY 1`.execute(db);
  return rows.map((r) => r.item);
}

/**
 * The round trip runs the same DDL on either engine, and takes PGlite minutes: it runs on PostgreSQL when there is one
 * (CI), else on PGlite.
 */
const roundTripEngine = engines().at(-1) as TestEngine;

describe('every migration undone and done again on a database with rows (' + roundTripEngine.name + ')', () => {
  const engine = roundTripEngine;
  it('reverts each migration down to the first, then migrates back to the same schema', {
    timeout: 300_000,
  }, async () => {
    const database = await fixtureDatabase(engine);
    const { db, close } = await openDatabase(database.options);
    try {
      await migrateToLatest(db);
      const upgraded = await catalogue(db);
      const reverted: string[] = [];
      for (;;) {
        const lines = await migrateDown(db);
        if (lines.length === 0) break;
        reverted.push(...lines);
      }
      expect(reverted).toEqual(
        migrationNames()
          .map((name) => `reverted ${name}`)
          .reverse(),
      );
      expect(await migrateToLatest(db)).toHaveLength(migrationNames().length);
      expect(await catalogue(db)).toEqual(upgraded);
    } finally {
      await close();
      await database.drop();
    }
  });
});

describe('npm run migrate on the embedded database', () => {
  const root = path.resolve(__dirname, '../..');
  const pglite = engines()[0] as TestEngine;
  const run = (dataDir: string, ...args: string[]) =>
    promisify(execFile)('npm', ['run', '--silent', 'migrate', '--', ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ID_NUMBER_KEY: TEST_ID_NUMBER_KEY.toString('hex') },
    });

  const pendingOf = async (options: DatabaseOptions) => {
    const { db, close } = await openDatabase(options);
    return pendingMigrations(db).finally(close);
  };

  it('lists with --dry-run what it would apply and changes nothing, then applies it', {
    timeout: 240_000,
  }, async () => {
    const database = await fixtureDatabase(pglite);
    if (database.options.kind !== 'pglite') throw new Error('expected PGlite');
    try {
      const pending = migrationNames().filter((name) => name > '0054_upload_webp');
      const dry = await run(database.options.dataDir, '--dry-run');
      expect(dry.stdout.trim().split('\n')).toEqual(['would apply:', ...pending]);
      expect(await pendingOf(database.options)).toEqual(pending);
      const applied = await run(database.options.dataDir);
      expect(applied.stdout.trim().split('\n')).toEqual(pending.map((name) => `applied ${name}`));
      expect(await pendingOf(database.options)).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
