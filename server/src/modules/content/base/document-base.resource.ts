import { z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { ref, refBy } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { createdAtFilter, statusFilter } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import type { Audited, CommonStatus, Defaulted, Id as IdColumn, Nullable, Ref } from '../../../db/types';

/** Document libraries (docs/domain.md §5.1): who may read them, and what they hold. */
export const VISIBILITIES = ['public', 'tenant', 'restricted'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const GRANT_SUBJECTS = ['role', 'org', 'trainee_type', 'admin_user'] as const;
export type GrantSubject = (typeof GRANT_SUBJECTS)[number];
export const GRANT_PERMISSIONS = ['view', 'download', 'manage'] as const;

interface DocumentBaseTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  code: string;
  name: string;
  description: Nullable<string>;
  visibility: Defaulted<Visibility>;
  owner_org_id: Nullable<Ref>;
  sort: Defaulted<number>;
  status: Defaulted<CommonStatus>;
  remark: Nullable<string>;
}
interface DocumentBaseGrantTable {
  id: IdColumn;
  tenant_id: Ref;
  base_id: Ref;
  subject_type: GrantSubject;
  subject_id: Ref;
  permission: (typeof GRANT_PERMISSIONS)[number];
}
declare module '../../../db/types' {
  interface DB {
    document_base: DocumentBaseTable;
    document_base_grant: DocumentBaseGrantTable;
  }
}

export const DocumentBase = recordRow({
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  visibility: z.enum(VISIBILITIES).openapi({
    description: '`public` (also the anonymous portal), `tenant` (every signed-in user), `restricted` (its grants)',
  }),
  ownerOrgId: z.string().nullable(),
  ownerOrgName: z.string().nullable(),
  sort: z.number().int(),
  status: field.status.openapi({ description: 'A disabled library hides its documents from readers' }),
  remark: z.string().nullable(),
  documentCount: z.number().int(),
  publishedCount: z.number().int(),
  viewCount: z.number().int(),
  downloadCount: z.number().int(),
  grantCount: z.number().int(),
}).openapi('DocumentBase');
export type DocumentBase = z.infer<typeof DocumentBase>;

const code = field.code().openapi({ example: 'rules' });
const fields = {
  code,
  name: field.requiredText(100),
  description: field.optionalText(2000),
  visibility: z.enum(VISIBILITIES).optional(),
  ownerOrgId: ref('organization').nullable().optional(),
  sort: field.sortOrder().optional(),
  status: field.status.optional(),
  remark: field.remark,
};
export const CreateDocumentBase = requestBody('CreateDocumentBase', fields);
export type CreateDocumentBase = z.infer<typeof CreateDocumentBase>;
export const UpdateDocumentBase = updateBody('UpdateDocumentBase', {
  ...fields,
  code: code.optional(),
  name: fields.name.optional(),
});
export type UpdateDocumentBase = z.infer<typeof UpdateDocumentBase>;

export const Grant = z
  .object({
    subjectType: z.enum(GRANT_SUBJECTS),
    subjectId: refBy('subjectType', {
      role: 'role',
      org: 'organization',
      trainee_type: 'trainee_type',
      admin_user: 'admin_user',
    }),
    permission: z.enum(GRANT_PERMISSIONS),
  })
  .strict()
  .openapi('DocumentBaseGrantInput');
export const GrantRow = z
  .object({
    subjectType: z.enum(GRANT_SUBJECTS),
    subjectId: z.string(),
    subjectName: z.string().nullable(),
    permission: z.enum(GRANT_PERMISSIONS),
  })
  .openapi('DocumentBaseGrant');
export type GrantRow = z.infer<typeof GrantRow>;
export const SetGrants = requestBody('SetDocumentBaseGrants', {
  grants: z.array(Grant).max(500).openapi({ description: 'Every grant of the library (replaces those it had)' }),
  version: Version,
});
export type SetGrants = z.infer<typeof SetGrants>;

const count = (where: string) =>
  sql`(SELECT count(*)::int FROM document d WHERE d.base_id = document_base.id${sql.raw(where)})`;
const sum = (column: 'view_count' | 'download_count') =>
  sql`(SELECT coalesce(sum(d.${sql.raw(column)}), 0)::int FROM document d WHERE d.base_id = document_base.id)`;

export const documentBaseResource = defineResource({
  path: 'content/document-base',
  permission: 'doc:base',
  labels: 'content.base',
  schemas: { row: DocumentBase, create: CreateDocumentBase, update: UpdateDocumentBase },
  table: {
    name: 'document_base',
    columns: columnsOf(DocumentBase, {
      except: ['ownerOrgName', 'documentCount', 'publishedCount', 'viewCount', 'downloadCount', 'grantCount'],
    }),
    tenantOwned: true,
    computed: {
      ownerOrgName: sql`(SELECT o.name FROM organization o WHERE o.id = document_base.owner_org_id)`,
      documentCount: count(''),
      publishedCount: count(" AND d.status = 'published'"),
      viewCount: sum('view_count'),
      downloadCount: sum('download_count'),
      grantCount: sql`(SELECT count(*)::int FROM document_base_grant g WHERE g.base_id = document_base.id)`,
    },
  },
  list: {
    sort: ['code', 'name', 'sort', 'createdAt'],
    defaultSort: 'sort,code',
    filters: {
      keyword: { kind: 'keyword', columns: ['code', 'name'] },
      visibility: { kind: 'in', column: 'visibility', values: VISIBILITIES },
      status: statusFilter,
      createdAt: createdAtFilter,
    },
  },
  importKey: 'code',
  label: (row) => `${row.code} ${row.name}`,
  columns: [
    { key: 'code' },
    { key: 'name' },
    { key: 'visibility' },
    { key: 'ownerOrgName', only: 'export' },
    { key: 'sort' },
    { key: 'status' },
    { key: 'documentCount', only: 'export' },
    { key: 'viewCount', only: 'export' },
    { key: 'downloadCount', only: 'export' },
    { key: 'createdAt', only: 'export' },
  ],
});
