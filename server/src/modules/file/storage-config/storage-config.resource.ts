import { z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { notRef } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { statusFilter } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';
import type { Audited, CommonStatus, Defaulted, Id as IdColumn, Nullable, Ref } from '../../../db/types';

/** Storage configurations (docs/domain.md §7.1): where a tenant's files go, the master taking new ones. */
export const PROVIDERS = ['local', 's3'] as const;
export type Provider = (typeof PROVIDERS)[number];

interface StorageConfigTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  name: string;
  provider: Provider;
  endpoint: Nullable<string>;
  region: Nullable<string>;
  bucket: Nullable<string>;
  path_style: Defaulted<boolean>;
  base_path: Nullable<string>;
  access_key_id: Nullable<string>;
  secret_enc: Nullable<Buffer>;
  signed_url_ttl_sec: Defaulted<number>;
  is_master: Defaulted<boolean>;
  status: Defaulted<CommonStatus>;
  remark: Nullable<string>;
}
declare module '../../../db/types' {
  interface DB {
    storage_config: StorageConfigTable;
  }
}

export const StorageConfig = recordRow({
  name: z.string(),
  provider: z.enum(PROVIDERS),
  endpoint: z.string().nullable(),
  region: z.string().nullable(),
  bucket: z.string().nullable(),
  pathStyle: z.boolean(),
  basePath: z.string().nullable(),
  accessKeyId: z.string().nullable(),
  secretSet: z.boolean().openapi({ description: 'A secret access key is kept (encrypted; it is never answered)' }),
  signedUrlTtlSec: z.number().int(),
  isMaster: z.boolean(),
  status: field.status,
  remark: z.string().nullable(),
  fileCount: z.number().int().openapi({ description: 'Files stored through this configuration' }),
}).openapi('StorageConfig');
export type StorageConfig = z.infer<typeof StorageConfig>;

/** A folder under the store's root or bucket: relative, no `..`. */
const basePath = z
  .string()
  .trim()
  .max(255)
  .regex(/^(?!.*(^|\/)\.\.?(\/|$))[\w.-]+(\/[\w.-]+)*$/, formatRule('basePath'))
  .nullable()
  .optional();

const fields = {
  name: field.requiredText(63),
  provider: z.enum(PROVIDERS),
  endpoint: z
    .url({ protocol: /^https?$/ })
    .max(255)
    .nullable()
    .optional()
    .openapi({ description: 'S3: the service address (MinIO, OSS, COS...); empty for AWS itself' }),
  region: field.optionalText(64),
  bucket: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, formatRule('bucket'))
    .nullable()
    .optional(),
  pathStyle: z.boolean().optional(),
  basePath,
  accessKeyId: notRef(field.optionalText(128)),
  secretAccessKey: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .openapi({ description: 'Write only: kept encrypted; left out on update, the kept one stays' }),
  signedUrlTtlSec: z.number().int().min(30).max(604_800).optional(),
  status: field.status.optional(),
  remark: field.remark,
};

export const CreateStorageConfig = requestBody('CreateStorageConfig', fields);
export type CreateStorageConfig = z.infer<typeof CreateStorageConfig>;

export const UpdateStorageConfig = updateBody('UpdateStorageConfig', {
  ...fields,
  name: fields.name.optional(),
  provider: fields.provider.optional(),
});
export type UpdateStorageConfig = z.infer<typeof UpdateStorageConfig>;

export const ProbeResult = z
  .object({
    ok: z.boolean(),
    message: z.string().openapi({ description: 'What failed (put, get or delete of the probe object), or "ok"' }),
    ms: z.number().int(),
  })
  .openapi('StorageProbeResult');

export const storageConfigResource = defineResource({
  path: 'file/storage',
  permission: 'file:storage',
  labels: 'file.storage',
  schemas: { row: StorageConfig, create: CreateStorageConfig, update: UpdateStorageConfig },
  table: {
    name: 'storage_config',
    columns: columnsOf(StorageConfig, { except: ['secretSet', 'fileCount'] }),
    writeOnly: { secretEnc: 'secret_enc' },
    tenantOwned: true,
    audited: true,
    computed: {
      secretSet: sql`(storage_config.secret_enc IS NOT NULL)`,
      fileCount: sql`(SELECT count(*)::int FROM file f WHERE f.storage_config_id = storage_config.id)`,
    },
  },
  list: {
    sort: ['name', 'provider', 'status', 'updatedAt'],
    defaultSort: 'name',
    filters: {
      keyword: { kind: 'keyword', columns: ['name', 'bucket', 'endpoint'] },
      provider: { kind: 'eq', column: 'provider', pattern: /^(local|s3)$/ },
      status: statusFilter,
    },
  },
  label: (row) => row.name,
  columns: [
    { key: 'name', example: 'MinIO' },
    { key: 'provider', example: 's3' },
    { key: 'endpoint', example: 'https://minio.example.com' },
    { key: 'region', example: 'us-east-1' },
    { key: 'bucket', example: 'medu' },
    { key: 'basePath', example: '' },
    { key: 'isMaster', only: 'export' },
    { key: 'status', example: 'enabled' },
  ],
});
