import type { Kysely } from 'kysely';
import { APP_ROLE, SYSTEM_ROLE } from './0002_tenancy_rls';
import { auditColumns, runStatements } from './statements';

/**
 * Configuration (issue 3): typed settings metadata, districts, industries and business items, and write access for
 * platform operators. Requests run as medu_app with app.tenant_id set; platform rows (global tables, and the
 * tenant_id IS NULL rows of hybrid tables) become writable only inside the platform tenant.
 */
const currentTenant = `NULLIF(current_setting('app.tenant_id', true), '')::bigint`;
const inPlatform = `${currentTenant} = (SELECT id FROM tenant WHERE code = 'platform')`;

const status = `status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled'))`;

const newGlobalTables = ['district', 'industry', 'business_item'];
const editedGlobalTables = ['dict_type', 'error_code'];
const hybridTables = ['system_setting', 'dict_item'];

function platformWritable(table: string): string[] {
  return [
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO ${APP_ROLE}`,
    `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
    `ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`,
    `CREATE POLICY system_access ON ${table} TO ${SYSTEM_ROLE} USING (true) WITH CHECK (true)`,
    `CREATE POLICY everyone_reads ON ${table} FOR SELECT TO ${APP_ROLE} USING (true)`,
    `CREATE POLICY platform_writes ON ${table} FOR ALL TO ${APP_ROLE} USING (${inPlatform}) WITH CHECK (${inPlatform})`,
  ];
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE system_setting
      ADD COLUMN name_en varchar(100),
      ADD COLUMN min_value double precision,
      ADD COLUMN max_value double precision,
      ADD COLUMN sort int NOT NULL DEFAULT 0`,

    `CREATE TABLE district (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      code varchar(12) NOT NULL CHECK (code ~ '^[0-9]{6}([0-9]{3}){0,2}$'),
      name varchar(50) NOT NULL,
      short_name varchar(50),
      level text NOT NULL CHECK (level IN ('province', 'city', 'county', 'township')),
      parent_code varchar(12),
      path text NOT NULL,
      pinyin varchar(100),
      sort int NOT NULL DEFAULT 0,
      ${status},
      replaced_by_code varchar(12),
      remark text,
      ${auditColumns})`,
    `CREATE UNIQUE INDEX district_code_uq ON district (code)`,
    `CREATE INDEX district_parent_idx ON district (parent_code, sort, code)`,
    `CREATE INDEX district_name_trgm ON district USING gin (name gin_trgm_ops)`,

    `CREATE TABLE industry (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      code varchar(10) NOT NULL CONSTRAINT industry_code_uq UNIQUE CHECK (code ~ '^[A-Z0-9]{1,10}$'),
      name varchar(100) NOT NULL,
      name_en varchar(200),
      parent_code varchar(10) REFERENCES industry (code) ON UPDATE CASCADE,
      level smallint NOT NULL CHECK (level BETWEEN 1 AND 4),
      standard_version varchar(30),
      wechat_industry_id int,
      sort int NOT NULL DEFAULT 0,
      ${status},
      remark text,
      ${auditColumns})`,
    `CREATE INDEX industry_parent_idx ON industry (parent_code, sort, code)`,

    `CREATE TABLE business_item (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      code varchar(100) NOT NULL CHECK (code ~ '^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+$'),
      name varchar(100) NOT NULL,
      name_en varchar(200),
      module varchar(50) NOT NULL,
      description text,
      notifiable boolean NOT NULL DEFAULT false,
      variables jsonb NOT NULL DEFAULT '[]',
      default_channels text[] NOT NULL DEFAULT '{}',
      default_template_code varchar(100),
      audit_level text NOT NULL DEFAULT 'normal' CHECK (audit_level IN ('none', 'normal', 'sensitive')),
      ${status},
      ${auditColumns})`,
    `CREATE UNIQUE INDEX business_item_code_uq ON business_item (code)`,

    `GRANT SELECT, INSERT, UPDATE, DELETE ON district, industry, business_item TO ${SYSTEM_ROLE}`,
    ...[...newGlobalTables, ...editedGlobalTables].flatMap(platformWritable),
    ...hybridTables.map(
      (table) => `CREATE POLICY platform_writes ON ${table} FOR ALL TO ${APP_ROLE}
         USING (tenant_id IS NULL AND ${inPlatform}) WITH CHECK (tenant_id IS NULL AND ${inPlatform})`,
    ),
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...hybridTables.map((table) => `DROP POLICY platform_writes ON ${table}`),
    ...editedGlobalTables.flatMap((table) => [
      `DROP POLICY platform_writes ON ${table}`,
      `DROP POLICY everyone_reads ON ${table}`,
      `DROP POLICY system_access ON ${table}`,
      `ALTER TABLE ${table} NO FORCE ROW LEVEL SECURITY`,
      `ALTER TABLE ${table} DISABLE ROW LEVEL SECURITY`,
      `REVOKE INSERT, UPDATE, DELETE ON ${table} FROM ${APP_ROLE}`,
    ]),
    'DROP TABLE business_item',
    'DROP TABLE industry',
    'DROP TABLE district',
    `ALTER TABLE system_setting DROP COLUMN sort, DROP COLUMN max_value, DROP COLUMN min_value, DROP COLUMN name_en`,
  ]);
}
