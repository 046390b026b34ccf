import type { Kysely } from 'kysely';
import { tenantTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * Files (docs/domain.md §7). `storage_config`: a tenant's stores (the local disk under DATA_DIR, or an S3-compatible
 * bucket whose secret is kept encrypted), at most one enabled master per tenant; a tenant without one stores in the
 * platform tenant's master, and failing that on the built-in local disk (a file with no config).
 * `file`: every stored object (its config may be the platform tenant's, hence no key to it) of a tenant, with who uses it (`biz_type`, `biz_id`): a file claimed by a record is not
 * deleted; one left unclaimed (`biz_type` null) or never confirmed (`pending`) is removed by the orphan job.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...tenantTable(
      'storage_config',
      `name varchar(63) NOT NULL,
      provider text NOT NULL CHECK (provider IN ('local', 's3')),
      endpoint varchar(255),
      region varchar(64),
      bucket varchar(63),
      path_style boolean NOT NULL DEFAULT false,
      base_path varchar(255),
      access_key_id varchar(128),
      secret_enc bytea,
      signed_url_ttl_sec int NOT NULL DEFAULT 600 CHECK (signed_url_ttl_sec BETWEEN 30 AND 604800),
      is_master boolean NOT NULL DEFAULT false,
      status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
      remark varchar(500),
      CHECK (provider = 'local' OR (bucket IS NOT NULL AND region IS NOT NULL AND access_key_id IS NOT NULL))`,
    ),
    'CREATE UNIQUE INDEX storage_config_name_uq ON storage_config (tenant_id, name)',
    'CREATE UNIQUE INDEX storage_config_master_uq ON storage_config (tenant_id) WHERE is_master',
    ...tenantTable(
      'file',
      `storage_config_id bigint,
      object_key varchar(512) NOT NULL,
      original_name varchar(255) NOT NULL,
      mime_type varchar(127) NOT NULL,
      ext varchar(20),
      size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
      sha256 char(64),
      visibility text NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'public')),
      biz_type varchar(64),
      biz_id bigint,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('pending', 'active'))`,
    ),
    'CREATE UNIQUE INDEX file_object_key_uq ON file (tenant_id, object_key)',
    'CREATE INDEX file_created_idx ON file (tenant_id, created_at DESC, id DESC)',
    'CREATE INDEX file_biz_idx ON file (tenant_id, biz_type, biz_id)',
    "CREATE INDEX file_orphan_idx ON file (created_at) WHERE biz_type IS NULL OR status = 'pending'",
    'CREATE INDEX file_name_trgm ON file USING gin (original_name gin_trgm_ops)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['DROP TABLE file', 'DROP TABLE storage_config']);
}
