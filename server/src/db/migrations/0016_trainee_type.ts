import type { Kysely } from 'kysely';
import { tenantTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * Trainee types and the custom fields each defines (docs/domain.md §4.7–4.8, issue 9): the definitions that will
 * drive the trainee form, list, search, import and export. Tenant-owned (forced RLS; tenant_id in every key and in
 * the field's reference to its type, for Citus). Fields are archived, not deleted: their values outlive them.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...tenantTable(
      'trainee_type',
      `code varchar(50) NOT NULL,
      name varchar(50) NOT NULL,
      category text NOT NULL CHECK (category IN
        ('residency', 'specialist', 'postgraduate', 'refresher', 'intern', 'gp_assistant', 'cme', 'other')),
      default_training_years real CHECK (default_training_years > 0 AND default_training_years <= 10),
      requires_registration_audit boolean NOT NULL DEFAULT false,
      audit_levels jsonb NOT NULL DEFAULT '[]',
      trainee_no_pattern varchar(50),
      color varchar(20),
      sort int NOT NULL DEFAULT 0,
      status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
      remark text`,
    ),
    'CREATE UNIQUE INDEX trainee_type_code_uq ON trainee_type (tenant_id, code)',
    'CREATE UNIQUE INDEX trainee_type_name_uq ON trainee_type (tenant_id, name)',
    ...tenantTable(
      'trainee_type_field',
      `trainee_type_id bigint NOT NULL,
      key varchar(64) NOT NULL CHECK (key ~ '^[a-z][a-z0-9_]*$'),
      label varchar(100) NOT NULL,
      label_en varchar(100),
      group_name varchar(50),
      field_type text NOT NULL,
      dict_type_code varchar(100),
      options jsonb,
      required boolean NOT NULL DEFAULT false,
      unique_scope text NOT NULL DEFAULT 'none' CHECK (unique_scope IN ('none', 'type', 'tenant')),
      locked boolean NOT NULL DEFAULT false,
      visibility text NOT NULL DEFAULT 'self_and_admin'
        CHECK (visibility IN ('hidden', 'admin_only', 'self_and_admin', 'public')),
      show_in_list boolean NOT NULL DEFAULT false,
      filterable boolean NOT NULL DEFAULT false,
      exportable boolean NOT NULL DEFAULT true,
      importable boolean NOT NULL DEFAULT true,
      default_value jsonb,
      placeholder varchar(100),
      help_text varchar(200),
      validation jsonb,
      sort int NOT NULL DEFAULT 0,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
      FOREIGN KEY (tenant_id, trainee_type_id) REFERENCES trainee_type (tenant_id, id) ON DELETE CASCADE`,
    ),
    'CREATE UNIQUE INDEX trainee_type_field_key_uq ON trainee_type_field (tenant_id, trainee_type_id, key)',
    'CREATE INDEX trainee_type_field_order_idx ON trainee_type_field (tenant_id, trainee_type_id, sort, id)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['DROP TABLE trainee_type_field', 'DROP TABLE trainee_type']);
}
