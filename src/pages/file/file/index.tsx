import '@/pages/file/catalogue';
import { UploadOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { Button } from 'antd';
import { isValidElement, useCallback, useMemo, useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import { useResourceControls } from '@/components/resource/useResourceControls';
import useCan from '@/hooks/useCan';
import { fileLink } from '@/services/files';
import { fileDescriptor, files, type StoredFile } from './descriptor';
import PreviewDialog from './PreviewDialog';
import UploadDialog from './UploadDialog';

const noop = () => undefined;

/**
 * /file/list: the tenant's stored files; upload into the library (drag and drop, with progress), preview what the
 * browser can show, download by a signed link, delete what no record holds.
 */
export default function FilePage() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const actionRef = useRef<TableActions>();
  const [uploading, setUploading] = useState(false);
  const [previewed, setPreviewed] = useState<StoredFile>();
  const closePreview = useCallback(() => setPreviewed(undefined), []);
  const canUpload = useCan('file:file:create');
  // the generic toolbar without its create form (a file is made by upload); export sends the list's last query
  const { toolbar, lastQuery } = useResourceControls(fileDescriptor, files);
  const service = useMemo(
    () => ({
      ...files,
      list: (query: Record<string, string>) => {
        lastQuery.current = query;
        return files.list(query);
      },
    }),
    [lastQuery],
  );
  const download = (row: StoredFile) =>
    fileLink(row.id, false).then(
      (link) => window.open(link.url, '_blank', 'noopener'),
      () => undefined,
    );

  return (
    <div data-testid="file-file">
      <ResourceTable<StoredFile>
        descriptor={fileDescriptor}
        service={service}
        actionRef={actionRef}
        tableProps={{
          toolbar: [
            canUpload && (
              <Button
                key="upload"
                type="primary"
                icon={<UploadOutlined />}
                data-testid="file-upload"
                onClick={() => setUploading(true)}
              >
                {t('file.file.upload')}
              </Button>
            ),
            ...toolbar(noop, noop).filter((button) => !(isValidElement(button) && button.key === 'create')),
          ].filter(Boolean),
        }}
        rowActions={(row) => [
          <ActionLink key="preview" data-testid="row-preview" onClick={() => setPreviewed(row)}>
            {t('file.file.preview')}
          </ActionLink>,
          <ActionLink key="download" data-testid="row-download" onClick={() => download(row)}>
            {t('file.file.download')}
          </ActionLink>,
        ]}
      />
      <UploadDialog
        open={uploading}
        onClose={() => setUploading(false)}
        onUploaded={() => actionRef.current?.reload()}
      />
      <PreviewDialog file={previewed} onClose={closePreview} onDownload={download} />
    </div>
  );
}
