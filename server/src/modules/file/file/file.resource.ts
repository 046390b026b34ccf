import { z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { defineResource } from '../../../core/resource/define-resource';
import { Id } from '../../../core/resource/id-param';
import { createdAtFilter } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { recordRow, requestBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';
import type { Audited, Defaulted, Id as IdColumn, Nullable, Ref } from '../../../db/types';

/**
 * Stored files (docs/domain.md §7.2). `bizType`/`bizId` say who uses a file: `library` (uploaded on the file list,
 * used by nobody yet, kept), a record's attachment (`qualification.attachment`, claimed by that record: not deleted
 * while it holds it), or nothing yet (uploaded for a form not saved: an orphan after a day).
 */
export const FILE_STATUSES = ['pending', 'active'] as const;
export const LIBRARY = 'library';

interface FileTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  storage_config_id: Nullable<Ref>;
  object_key: string;
  original_name: string;
  mime_type: string;
  ext: Nullable<string>;
  size_bytes: string | number;
  sha256: Nullable<string>;
  visibility: Defaulted<'private' | 'public'>;
  biz_type: Nullable<string>;
  biz_id: Nullable<Ref>;
  status: Defaulted<(typeof FILE_STATUSES)[number]>;
}
declare module '../../../db/types' {
  interface DB {
    file: FileTable;
  }
}

export const StoredFile = recordRow({
  storageConfigId: z
    .string()
    .nullable()
    .openapi({ description: 'The configuration it is stored through; null: the built-in local disk' }),
  storageName: z.string().nullable(),
  originalName: z.string(),
  mimeType: z.string().openapi({ description: 'As found from the content, never from the name' }),
  ext: z.string().nullable(),
  sizeBytes: z.number().int(),
  sha256: z.string().nullable(),
  bizType: z.string().nullable().openapi({ description: '`library`, a record attachment kind, or null (unclaimed)' }),
  bizId: z.string().nullable(),
  status: z.enum(FILE_STATUSES),
  createdBy: z.string().nullable(),
  uploaderName: z.string().nullable(),
}).openapi('StoredFile');
export type StoredFile = z.infer<typeof StoredFile>;

/**
 * A file as an upload records it (no route takes it: files are made by upload, the generic create and update routes
 * are left out).
 */
export const NewFile = z.object({
  storageConfigId: z.string().nullable(),
  objectKey: z.string(),
  originalName: z.string(),
  mimeType: z.string(),
  ext: z.string().nullable(),
  sizeBytes: z.number(),
  sha256: z.string().nullable(),
  bizType: z.string().nullable(),
  status: z.enum(FILE_STATUSES),
});
export type NewFile = z.infer<typeof NewFile>;
const NoUpdate = z.object({ version: z.number().int() });

const PURPOSES = ['library', 'attachment'] as const;
export const UploadQuery = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .openapi({ param: { name: 'name', in: 'query' }, description: 'The file name as the user knows it' }),
  purpose: z
    .enum(PURPOSES)
    .default('library')
    .openapi({
      param: { name: 'purpose', in: 'query' },
      description:
        '`library`: kept in the file list; `attachment`: for a record about to be saved (unclaimed, an orphan after a day)',
    }),
});

export const Presign = requestBody('PresignUpload', {
  name: z.string().trim().min(1).max(255),
  size: z
    .number()
    .int()
    .min(1)
    .max(2 ** 40),
  contentType: z
    .string()
    .trim()
    .max(127)
    .regex(/^[\w.+-]+\/[\w.+-]+$/, formatRule('mimeType'))
    .openapi({ description: 'The type the browser says; the server checks the content once the upload is done' }),
  purpose: z.enum(PURPOSES).default('library'),
});
export type Presign = z.infer<typeof Presign>;

export const PresignAnswer = z
  .object({
    fileId: z.string(),
    url: z.string(),
    method: z.literal('PUT'),
    headers: z.record(z.string(), z.string()),
    expiresAt: z.string(),
  })
  .openapi('PresignedUpload');

export const UploadPolicy = z
  .object({
    direct: z.boolean().openapi({ description: 'Upload straight to the store (presign, PUT, complete)' }),
    provider: z.enum(['local', 's3']),
    maxSizeMb: z.number(),
    allowedExtensions: z.array(z.string()),
  })
  .openapi('UploadPolicy');

export const FileLink = z
  .object({
    url: z.string(),
    expiresAt: z.string(),
    mimeType: z.string(),
    name: z.string(),
  })
  .openapi('FileLink');
export type FileLink = z.infer<typeof FileLink>;

/** A file a record holds, with a link to show it and one to download it (both signed, expiring together). */
export const Attachment = z
  .object({
    id: z.string(),
    name: z.string(),
    mimeType: z.string(),
    sizeBytes: z.number().int(),
    previewUrl: z.string(),
    downloadUrl: z.string(),
    expiresAt: z.string(),
  })
  .openapi('Attachment');
export type Attachment = z.infer<typeof Attachment>;

export const LinkQuery = z.object({
  disposition: z
    .enum(['inline', 'attachment'])
    .default('attachment')
    .openapi({
      param: { name: 'disposition', in: 'query' },
      description: '`inline` to preview, `attachment` to download',
    }),
});

export const FileIds = z.array(Id).max(20);

export const fileResource = defineResource({
  path: 'file/file',
  permission: 'file:file',
  labels: 'file.file',
  schemas: { row: StoredFile, create: NewFile, update: NoUpdate },
  table: {
    name: 'file',
    columns: columnsOf(StoredFile, { except: ['storageName', 'sizeBytes', 'uploaderName'] }),
    writeOnly: { objectKey: 'object_key', sizeBytes: 'size_bytes' },
    tenantOwned: true,
    audited: true,
    computed: {
      sizeBytes: sql`file.size_bytes::float8`,
      storageName: sql`(SELECT s.name FROM storage_config s WHERE s.id = file.storage_config_id)`,
      uploaderName: sql`(SELECT u.display_name FROM admin_user u WHERE u.id = file.created_by)`,
    },
  },
  list: {
    sort: ['originalName', 'createdAt', 'status'],
    defaultSort: '-createdAt',
    filters: {
      keyword: { kind: 'keyword', columns: ['original_name'] },
      ext: { kind: 'in', column: 'ext', pattern: /^[a-z0-9]{1,10}$/ },
      bizType: { kind: 'eq', column: 'biz_type', pattern: /^[a-z][\w.]{0,63}$/ },
      status: { kind: 'in', column: 'status', values: FILE_STATUSES },
      createdAt: createdAtFilter,
    },
  },
  label: (row) => row.originalName,
  columns: [
    { key: 'originalName' },
    { key: 'mimeType' },
    { key: 'sizeBytes' },
    { key: 'storageName' },
    { key: 'bizType' },
    { key: 'bizId' },
    { key: 'status' },
    { key: 'uploaderName' },
    { key: 'createdAt' },
  ],
});
