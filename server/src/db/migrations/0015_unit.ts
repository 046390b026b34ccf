import type { Kysely } from 'kysely';
import { tenantTable } from './0002_tenancy_rls';
import { renamePermissionCodes, runStatements } from './statements';

/**
 * External work units (docs/domain.md §4.2, issue 9): employers that send trainees, hospitals where doctors and
 * experts work, partner institutions; and the names a unit was known by before duplicates were merged into it
 * (`unit_alias`). Tenant-owned (forced RLS; tenant_id in every key, for Citus).
 *
 * The placeholder codes `org:unit:*` of the manifest take the area's name, `people:unit:*` (as 0014 did for the
 * organisations): the rows keep their ids, so every role and package keeps its grants.
 */
const renames: [string, string][] = [['org:unit', 'people:unit']];

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...tenantTable(
      'unit',
      `name varchar(150) NOT NULL,
      credit_code char(18),
      unit_type varchar(50),
      hospital_grade varchar(50),
      hospital_level varchar(50),
      ownership varchar(50),
      industry_code varchar(10),
      district_code varchar(9),
      address varchar(200),
      contact_name varchar(50),
      contact_phone varchar(20),
      email varchar(100),
      website varchar(200),
      is_partner boolean NOT NULL DEFAULT false,
      status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
      remark text`,
    ),
    'CREATE UNIQUE INDEX unit_name_uq ON unit (tenant_id, name)',
    'CREATE UNIQUE INDEX unit_credit_code_uq ON unit (tenant_id, credit_code) WHERE credit_code IS NOT NULL',
    ...tenantTable(
      'unit_alias',
      `unit_id bigint NOT NULL,
      name varchar(150) NOT NULL,
      credit_code char(18),
      created_at timestamptz NOT NULL DEFAULT now(),
      created_by bigint,
      FOREIGN KEY (tenant_id, unit_id) REFERENCES unit (tenant_id, id) ON DELETE CASCADE`,
      { audited: false },
    ),
    'CREATE UNIQUE INDEX unit_alias_name_uq ON unit_alias (tenant_id, unit_id, name)',
    ...renames.map(([from, to]) => renamePermissionCodes(from, to)),
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...renames.map(([from, to]) => renamePermissionCodes(to, from)),
    'DROP TABLE unit_alias',
    'DROP TABLE unit',
  ]);
}
