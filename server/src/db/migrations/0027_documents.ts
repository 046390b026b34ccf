import type { Kysely } from 'kysely';
import { tenantTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * Documents (docs/domain.md §5.1–5.3). `document_base`: a library of documents with its visibility and its grants
 * (`document_base_grant`: who may view, download or manage it); `tag`: free labels by scope, merged names kept as
 * aliases; `document`: rich text (sanitised HTML and its plain text) or a stored file, with attachments, in a chain of
 * versions (`supersedes_id`, the chain's first document in `chain_id`); `document_tag`: the tags of a document.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...tenantTable(
      'document_base',
      `code varchar(50) NOT NULL,
      name varchar(100) NOT NULL,
      description varchar(2000),
      visibility text NOT NULL DEFAULT 'tenant' CHECK (visibility IN ('public', 'tenant', 'restricted')),
      owner_org_id bigint,
      sort int NOT NULL DEFAULT 0,
      status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
      remark varchar(500),
      FOREIGN KEY (tenant_id, owner_org_id) REFERENCES organization (tenant_id, id)`,
    ),
    'CREATE UNIQUE INDEX document_base_code_uq ON document_base (tenant_id, code)',
    'CREATE UNIQUE INDEX document_base_name_uq ON document_base (tenant_id, name)',
    'CREATE INDEX document_base_sort_idx ON document_base (tenant_id, sort, id)',
    ...tenantTable(
      'document_base_grant',
      `base_id bigint NOT NULL,
      subject_type text NOT NULL CHECK (subject_type IN ('role', 'org', 'trainee_type', 'admin_user')),
      subject_id bigint NOT NULL,
      permission text NOT NULL CHECK (permission IN ('view', 'download', 'manage')),
      FOREIGN KEY (tenant_id, base_id) REFERENCES document_base (tenant_id, id) ON DELETE CASCADE`,
      { audited: false },
    ),
    `CREATE UNIQUE INDEX document_base_grant_uq
      ON document_base_grant (tenant_id, base_id, subject_type, subject_id, permission)`,
    ...tenantTable(
      'tag',
      `name varchar(30) NOT NULL,
      scope text NOT NULL DEFAULT 'document'
        CHECK (scope IN ('document', 'post', 'question', 'course', 'general')),
      group_name varchar(30),
      color varchar(20),
      aliases text[] NOT NULL DEFAULT '{}',
      usage_count int NOT NULL DEFAULT 0,
      sort int NOT NULL DEFAULT 0,
      status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
      remark varchar(500)`,
    ),
    'CREATE UNIQUE INDEX tag_name_uq ON tag (tenant_id, scope, name)',
    'CREATE INDEX tag_name_trgm ON tag USING gin (name gin_trgm_ops)',
    'CREATE INDEX tag_created_idx ON tag (tenant_id, created_at DESC NULLS LAST, id DESC)',
    ...tenantTable(
      'document',
      `base_id bigint NOT NULL,
      title varchar(200) NOT NULL,
      doc_type varchar(50),
      doc_number varchar(100),
      issuer varchar(200),
      summary varchar(500),
      content_html text,
      content_text text,
      file_id bigint,
      attachment_file_ids bigint[] NOT NULL DEFAULT '{}',
      version_label varchar(20),
      supersedes_id bigint,
      chain_id bigint,
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'offline', 'archived')),
      publish_at timestamptz,
      published_at timestamptz,
      effective_from date,
      effective_to date,
      is_pinned boolean NOT NULL DEFAULT false,
      allow_download boolean NOT NULL DEFAULT true,
      view_count int NOT NULL DEFAULT 0,
      download_count int NOT NULL DEFAULT 0,
      remark varchar(500),
      CHECK (effective_to IS NULL OR effective_from IS NULL OR effective_to >= effective_from),
      FOREIGN KEY (tenant_id, base_id) REFERENCES document_base (tenant_id, id),
      FOREIGN KEY (tenant_id, supersedes_id) REFERENCES document (tenant_id, id)`,
    ),
    'CREATE INDEX document_list_idx ON document (tenant_id, created_at DESC NULLS LAST, id DESC)',
    'CREATE INDEX document_base_idx ON document (tenant_id, base_id, status)',
    'CREATE INDEX document_chain_idx ON document (tenant_id, chain_id)',
    "CREATE INDEX document_due_idx ON document (publish_at) WHERE status = 'draft' AND publish_at IS NOT NULL",
    'CREATE INDEX document_title_trgm ON document USING gin (title gin_trgm_ops)',
    'CREATE INDEX document_summary_trgm ON document USING gin (summary gin_trgm_ops)',
    'CREATE INDEX document_text_trgm ON document USING gin (content_text gin_trgm_ops)',
    ...tenantTable(
      'document_tag',
      `document_id bigint NOT NULL,
      tag_id bigint NOT NULL,
      FOREIGN KEY (tenant_id, document_id) REFERENCES document (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, tag_id) REFERENCES tag (tenant_id, id) ON DELETE CASCADE`,
      { audited: false },
    ),
    'CREATE UNIQUE INDEX document_tag_uq ON document_tag (tenant_id, document_id, tag_id)',
    'CREATE INDEX document_tag_tag_idx ON document_tag (tenant_id, tag_id)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP TABLE document_tag',
    'DROP TABLE document',
    'DROP TABLE tag',
    'DROP TABLE document_base_grant',
    'DROP TABLE document_base',
  ]);
}
