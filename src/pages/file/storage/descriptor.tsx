import type {
  CreateStorageConfig,
  StorageConfig,
  UpdateStorageConfig,
} from '@server/modules/file/storage-config/storage-config.resource';
import type { StorageSharing } from '@server/modules/file/storage-sharing';
import { FormattedMessage } from '@umijs/max';
import { Form, Tag } from 'antd';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import request from '@/utils/request';

export type { StorageConfig };

export const storageConfigs = resourceService<StorageConfig, CreateStorageConfig, UpdateStorageConfig>('file/storage');

export interface ProbeResult {
  ok: boolean;
  message: string;
  ms: number;
}

/** Writes a probe object to the store, reads it back and deletes it. */
export const testStorage = (id: string) => storageConfigs.action<ProbeResult>(id, 'test');

/**
 * Whether the live server instances share the local disk the tenant's files go to. Only a warning hangs on it: a
 * failure shows nothing.
 */
export const fetchStorageSharing = () =>
  request.get<StorageSharing>('/api/file/storage-sharing', { skipErrorHandler: true });

/** New files go to this configuration from now on. */
export const setMasterStorage = (id: string, version: number) =>
  storageConfigs.action<StorageConfig>(id, 'set-master', { version });

const FORM: (keyof CreateStorageConfig & keyof UpdateStorageConfig & string)[] = [
  'name',
  'provider',
  'endpoint',
  'region',
  'bucket',
  'pathStyle',
  'basePath',
  'accessKeyId',
  'secretAccessKey',
  'signedUrlTtlSec',
  'status',
  'remark',
];

/** What only an S3 store uses: said beside its title. */
const s3Field = { hideInSearch: true, tooltip: <FormattedMessage id="file.storage.s3Only" /> };

/** Under the secret of a configuration that keeps one: an empty field keeps it. */
function SecretKept() {
  const form = Form.useFormInstance();
  return form.getFieldValue('secretSet') ? <FormattedMessage id="file.storage.secretKept" /> : null;
}

/**
 * Storage configurations (docs/domain.md §7.1): /oss/list, API file/storage, permission prefix file:storage. What an
 * S3 store requires (bucket, region, keys) and the probe are the server's: a refusal shows on its field. The S3 fields
 * are always in the form, titled as S3's: a descriptor's form item cannot read the form it is in (ProForm hands its
 * instance over only after the first render), so it cannot hide itself by the provider chosen.
 */
export const storageDescriptor = describeResource<StorageConfig, CreateStorageConfig, UpdateStorageConfig>(
  'file/storage',
  (column) => ({
    auditType: 'storage_config',
    formLayout: 'DrawerForm',
    form: { create: FORM, update: FORM },
    columns: [
      column('keyword', { searchOnly: true }),
      column('name', { sorter: true, hideInSearch: true, required: true }),
      column('provider', {
        sorter: true,
        required: true,
        options: [
          { value: 'local', labelId: 'file.storage.provider.local', color: 'default' },
          { value: 's3', labelId: 'file.storage.provider.s3', color: 'blue' },
        ],
      }),
      column('bucket', s3Field),
      column('endpoint', { ...s3Field, fieldProps: { placeholder: 'https://minio.example.com' } }),
      column('region', { ...s3Field, hideInTable: true }),
      column('pathStyle', { ...s3Field, valueType: 'switch', hideInTable: true }),
      column('basePath', { hideInSearch: true, hideInTable: true }),
      column('accessKeyId', { ...s3Field, hideInTable: true }),
      column('secretAccessKey', {
        ...s3Field,
        valueType: 'password',
        hideInTable: true,
        hideInDescriptions: true,
        fieldProps: { autoComplete: 'new-password' },
        // write-only: the row only says one is kept; an emptied field is left out of the body, so the kept one stays
        formItemProps: { normalize: (value: string) => value || undefined, extra: <SecretKept /> },
      }),
      column('signedUrlTtlSec', {
        valueType: 'digit',
        hideInSearch: true,
        hideInTable: true,
        fieldProps: { min: 30, max: 604_800, precision: 0, placeholder: '3600' },
      }),
      column('isMaster', {
        hideInSearch: true,
        hideInForm: true,
        render: (_dom, row) =>
          row.isMaster ? (
            <Tag color="gold" data-testid="storage-master">
              <FormattedMessage id="file.storage.isMaster" />
            </Tag>
          ) : (
            '-'
          ),
      }),
      column('fileCount', { valueType: 'digit', hideInSearch: true, hideInForm: true }),
      column('status', { dict: 'common_status', sorter: true }),
      column('updatedAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
      column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
    ],
  }),
);
