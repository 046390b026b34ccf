import { z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { Id } from '../../../core/resource/id-param';
import { createdAtFilter, TotalCapped } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import type { Audited, Defaulted, Id as IdColumn, Nullable, NullableTimestamp, Ref } from '../../../db/types';

/** Documents (docs/domain.md §5.2): rich text or a stored file in a library, with tags, attachments and versions. */
export const DOCUMENT_STATUSES = ['draft', 'published', 'offline', 'archived'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

interface DocumentTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  base_id: Ref;
  title: string;
  doc_type: Nullable<string>;
  doc_number: Nullable<string>;
  issuer: Nullable<string>;
  summary: Nullable<string>;
  content_html: Nullable<string>;
  content_text: Nullable<string>;
  file_id: Nullable<Ref>;
  attachment_file_ids: Defaulted<string[]>;
  version_label: Nullable<string>;
  supersedes_id: Nullable<Ref>;
  chain_id: Nullable<Ref>;
  status: Defaulted<DocumentStatus>;
  publish_at: NullableTimestamp;
  published_at: NullableTimestamp;
  effective_from: Nullable<string>;
  effective_to: Nullable<string>;
  is_pinned: Defaulted<boolean>;
  allow_download: Defaulted<boolean>;
  view_count: Defaulted<number>;
  download_count: Defaulted<number>;
  remark: Nullable<string>;
}
declare module '../../../db/types' {
  interface DB {
    document: DocumentTable;
  }
}

/** Where a keyword was found, as HTML: the text escaped, each match in `<mark>`. */
export const DocumentHighlight = z
  .object({
    title: z.string(),
    summary: z.string().nullable(),
    snippet: z.string().nullable().openapi({ description: 'The body around its first match' }),
  })
  .openapi('DocumentHighlight');
export type DocumentHighlight = z.infer<typeof DocumentHighlight>;

export const Document = recordRow({
  baseId: z.string(),
  baseName: z.string().nullable(),
  title: z.string(),
  docType: z.string().nullable().openapi({ description: 'Dictionary `doc_type`' }),
  docNumber: z.string().nullable(),
  issuer: z.string().nullable(),
  summary: z.string().nullable(),
  contentHtml: z.string().nullable().openapi({ description: 'Sanitised by the server' }),
  fileId: z.string().nullable(),
  fileName: z.string().nullable(),
  attachmentFileIds: z.array(z.string()),
  tagIds: z.array(z.string()),
  tagNames: z.array(z.string()),
  versionLabel: z.string().nullable(),
  supersedesId: z.string().nullable(),
  chainId: z.string().nullable(),
  status: z.enum(DOCUMENT_STATUSES),
  publishAt: z.string().nullable().openapi({ description: 'When a draft is published by itself' }),
  publishedAt: z.string().nullable(),
  effectiveFrom: z.string().nullable(),
  effectiveTo: z.string().nullable(),
  isPinned: z.boolean(),
  allowDownload: z.boolean(),
  viewCount: z.number().int(),
  downloadCount: z.number().int(),
  remark: z.string().nullable(),
  highlight: DocumentHighlight.optional().openapi({ description: 'With a keyword: where it was found' }),
}).openapi('Document');
export type Document = z.infer<typeof Document>;

const ids = (table: 'file' | 'tag') => z.array(ref(table)).max(100);
const fields = {
  baseId: ref('document_base'),
  title: field.requiredText(200),
  docType: z
    .string()
    .trim()
    .regex(/^[\w-]{1,50}$/)
    .nullable()
    .optional(),
  docNumber: field.optionalText(100),
  issuer: field.optionalText(200),
  summary: field.optionalText(500),
  contentHtml: z
    .string()
    .max(2_000_000)
    .nullable()
    .optional()
    .openapi({ description: 'Rich text; the server keeps only safe markup (no scripts, no event handlers)' }),
  fileId: ref('file').nullable().optional().openapi({ description: 'A stored file, instead of or beside the text' }),
  attachmentFileIds: ids('file').optional(),
  tagIds: ids('tag').optional().openapi({ description: 'Tags of scope `document` or `general`' }),
  versionLabel: field.optionalText(20),
  publishAt: z.iso.datetime({ offset: true }).nullable().optional(),
  effectiveFrom: z.iso.date().nullable().optional(),
  effectiveTo: z.iso.date().nullable().optional(),
  isPinned: z.boolean().optional(),
  allowDownload: z.boolean().optional(),
  remark: field.remark,
};
export const CreateDocument = requestBody('CreateDocument', fields);
export type CreateDocument = z.infer<typeof CreateDocument>;
export const UpdateDocument = updateBody('UpdateDocument', {
  ...fields,
  baseId: ref('document_base').optional(),
  title: fields.title.optional(),
});
export type UpdateDocument = z.infer<typeof UpdateDocument>;

export const DocumentAction = requestBody('DocumentAction', { version: Version });
export const NewVersion = requestBody('NewDocumentVersion', {
  versionLabel: field.optionalText(20),
  version: Version,
});
export type NewVersion = z.infer<typeof NewVersion>;
export const BulkTag = requestBody('BulkTagDocuments', {
  ids: z.array(Id).min(1).max(500),
  tagIds: z.array(ref('tag')).min(1).max(100),
  mode: z.enum(['add', 'remove']),
});
export type BulkTag = z.infer<typeof BulkTag>;
export const BulkMove = requestBody('BulkMoveDocuments', {
  ids: z.array(Id).min(1).max(500),
  baseId: ref('document_base'),
});
export type BulkMove = z.infer<typeof BulkMove>;
export const BulkResult = z.object({ updated: z.number().int() }).openapi('DocumentBulkResult');

export const DocumentVersion = z
  .object({
    id: z.string(),
    title: z.string(),
    versionLabel: z.string().nullable(),
    status: z.enum(DOCUMENT_STATUSES),
    supersedesId: z.string().nullable(),
    publishedAt: z.string().nullable(),
    createdAt: z.string(),
    contentText: z.string().nullable().openapi({ description: 'Its plain text, to compare versions' }),
  })
  .openapi('DocumentVersion');
export type DocumentVersion = z.infer<typeof DocumentVersion>;

export const SearchQuery = z
  .object({
    q: z.string().trim().min(1).max(100),
    baseId: Id.optional(),
    current: z.coerce.number().int().min(1).max(10_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(10),
  })
  .strict();
export const DocumentHit = z
  .object({
    id: z.string(),
    baseId: z.string(),
    baseName: z.string(),
    title: z.string(),
    docType: z.string().nullable(),
    publishedAt: z.string().nullable(),
    highlight: DocumentHighlight,
  })
  .openapi('DocumentHit');
export type DocumentHit = z.infer<typeof DocumentHit>;
export const SearchAnswer = z
  .object({ data: z.array(DocumentHit), total: z.number().int(), success: z.literal(true), totalCapped: TotalCapped })
  .openapi('DocumentSearch');

export const DocumentReading = Document.extend({
  canDownload: z.boolean().openapi({ description: 'Whether the reader may download its files' }),
}).openapi('DocumentReading');
export const DownloadFile = requestBody('DownloadDocumentFile', {
  fileId: ref('file').openapi({ description: 'The file of the document, or one of its attachments' }),
});

export const documentResource = defineResource({
  path: 'content/document',
  permission: 'doc:document',
  schemas: { row: Document, create: CreateDocument, update: UpdateDocument },
  table: {
    name: 'document',
    columns: columnsOf(Document, {
      except: ['baseName', 'fileName', 'tagIds', 'tagNames', 'effectiveFrom', 'effectiveTo', 'highlight'],
    }),
    writeOnly: { contentText: 'content_text', effectiveFrom: 'effective_from', effectiveTo: 'effective_to' },
    tenantOwned: true,
    computed: {
      baseName: sql`(SELECT b.name FROM document_base b WHERE b.id = document.base_id)`,
      fileName: sql`(SELECT f.original_name FROM file f WHERE f.id = document.file_id)`,
      tagIds: sql`ARRAY(SELECT dt.tag_id::text FROM document_tag dt WHERE dt.document_id = document.id ORDER BY dt.id)`,
      tagNames: sql`ARRAY(SELECT t.name FROM document_tag dt JOIN tag t ON t.id = dt.tag_id
        WHERE dt.document_id = document.id ORDER BY dt.id)`,
      effectiveFrom: sql`to_char(document.effective_from, 'YYYY-MM-DD')`,
      effectiveTo: sql`to_char(document.effective_to, 'YYYY-MM-DD')`,
    },
  },
  list: {
    sort: ['title', 'publishedAt', 'viewCount', 'createdAt', 'updatedAt'],
    defaultSort: '-createdAt',
    filters: {
      keyword: { kind: 'keyword', columns: [] },
      baseId: { kind: 'in', column: 'base_id', pattern: /^[1-9]\d{0,18}$/ },
      docType: { kind: 'in', column: 'doc_type', pattern: /^[\w-]{1,50}$/ },
      status: { kind: 'in', column: 'status', values: DOCUMENT_STATUSES },
      tagId: { kind: 'eq', pattern: /^[1-9]\d{0,18}$/ },
      createdAt: createdAtFilter,
    },
  },
  label: (row) => row.title,
  columns: [
    { key: 'title' },
    { key: 'baseName', only: 'export' },
    { key: 'docType' },
    { key: 'docNumber' },
    { key: 'issuer' },
    { key: 'versionLabel' },
    { key: 'status' },
    { key: 'publishedAt', only: 'export' },
    { key: 'viewCount', only: 'export' },
    { key: 'downloadCount', only: 'export' },
    { key: 'createdAt', only: 'export' },
  ],
});
