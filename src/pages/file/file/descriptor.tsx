import { FormattedMessage, useIntl } from '@umijs/max';
import { Typography } from 'antd';
import { describeResource } from '@/components/resource/types';
import type { StoredFile } from '@/services/files';
import { resourceService } from '@/services/resource';

export type { StoredFile };

/** Files are made by upload: the list has no create or update body. */
export const files = resourceService<StoredFile, never, never>('file/file');

const UNITS = ['KB', 'MB', 'GB'];

/** 512 B, 1.5 KB, 12.3 MB… */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let size = bytes / 1024;
  let unit = 0;
  while (size >= 1024 && unit < UNITS.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return `${size < 10 ? size.toFixed(1) : Math.round(size)} ${UNITS[unit]}`;
}

/** Who uses the file: the library, a record's attachment (a label of its kind, the record), or nobody yet. */
function Usage({ row }: { row: StoredFile }) {
  const intl = useIntl();
  if (!row.bizType) return <FormattedMessage id="file.file.usage.none" />;
  const id = `file.file.usage.${row.bizType}`;
  const label = intl.messages[id] ? intl.formatMessage({ id }) : row.bizType;
  return (
    <>
      {label}
      {row.bizId && (
        <Typography.Text type="secondary" copyable={{ text: row.bizId }} style={{ marginLeft: 4 }}>
          #{row.bizId.slice(0, 8)}
        </Typography.Text>
      )}
    </>
  );
}

/**
 * Stored files (docs/domain.md §7.2): /file/list, API file/file, permission prefix file:file. No form: files are
 * made by upload (./UploadDialog), and the server refuses to delete one a record still holds.
 */
export const fileDescriptor = describeResource<StoredFile, never, never>('file/file', (column) => ({
  auditType: 'file',
  recordName: (row) => row.originalName,
  form: { create: [], update: [] },
  columns: [
    column('keyword', { searchOnly: true }),
    column('originalName', { sorter: true, hideInSearch: true, ellipsis: true }),
    column('mimeType', {
      hideInSearch: true,
      render: (_dom, row) => (row.ext ? `${row.mimeType} (.${row.ext})` : row.mimeType),
    }),
    column('ext', { hideInTable: true, fieldProps: { placeholder: 'pdf' } }),
    column('size', {
      dataIndex: 'sizeBytes',
      hideInSearch: true,
      align: 'right',
      render: (_dom, row) => humanSize(row.sizeBytes),
    }),
    column('storageName', {
      hideInSearch: true,
      render: (_dom, row) => row.storageName ?? <FormattedMessage id="file.file.storageBuiltIn" />,
    }),
    column('bizType', { hideInSearch: true, render: (_dom, row) => <Usage row={row} /> }),
    column('status', {
      sorter: true,
      options: [
        { value: 'pending', labelId: 'file.file.status.pending', color: 'orange' },
        { value: 'active', labelId: 'file.file.status.active', color: 'green' },
      ],
    }),
    column('uploaderName', { hideInSearch: true }),
    column('createdAt', { valueType: 'dateTime', hideInSearch: true, sorter: true }),
    column('createdAt', { valueType: 'dateRange', searchOnly: true }),
  ],
}));
