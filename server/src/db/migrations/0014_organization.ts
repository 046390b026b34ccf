import type { Kysely } from 'kysely';
import { tenantTable } from './0002_tenancy_rls';
import { renamePermissionCodes, runStatements } from './statements';

/**
 * The tenant's organisation tree (docs/domain.md §4.1, issue 9): hospital → training base → specialty base →
 * department → teaching group (and offices). Tenant-owned (forced RLS; tenant_id in the primary key, in every unique
 * index and in the reference to the parent, for Citus). `path` is the materialised chain of ids (`/1/7/42/`) that data
 * scope ("own organisation and below") will read as `path LIKE '/1/7/%'`.
 *
 * The placeholder codes `org:organization:*` of the manifest take the area's name, `people:organization:*` (as
 * 0012_area_names did for the dictionaries): the rows keep their ids, so every role and package keeps its grants.
 */
const renames: [string, string][] = [['org:organization', 'people:organization']];

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...tenantTable(
      'organization',
      `parent_id bigint,
      path varchar(1000) NOT NULL,
      depth smallint NOT NULL CHECK (depth >= 0),
      code varchar(50) NOT NULL,
      name varchar(100) NOT NULL,
      short_name varchar(100),
      org_type text NOT NULL CHECK (org_type IN
        ('hospital', 'training_base', 'specialty_base', 'department', 'teaching_group', 'office')),
      base_level text CHECK (base_level IN ('national', 'provincial', 'institutional')),
      specialty_code varchar(50),
      standard_dept_code varchar(50),
      phone varchar(20),
      email varchar(100),
      district_code varchar(9),
      address varchar(200),
      annual_capacity int CHECK (annual_capacity >= 0),
      accreditation_no varchar(50),
      sort int NOT NULL DEFAULT 0,
      status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
      remark text,
      FOREIGN KEY (tenant_id, parent_id) REFERENCES organization (tenant_id, id)`,
    ),
    'CREATE UNIQUE INDEX organization_code_uq ON organization (tenant_id, code)',
    // siblings have distinct names; the roots are siblings of one another
    'CREATE UNIQUE INDEX organization_sibling_name_uq ON organization (tenant_id, COALESCE(parent_id, 0), name)',
    'CREATE INDEX organization_children_idx ON organization (tenant_id, parent_id, sort, id)',
    'CREATE INDEX organization_path_idx ON organization (tenant_id, path varchar_pattern_ops)',
    ...renames.map(([from, to]) => renamePermissionCodes(from, to)),
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [...renames.map(([from, to]) => renamePermissionCodes(to, from)), 'DROP TABLE organization']);
}
