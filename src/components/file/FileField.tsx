import '@/pages/file/catalogue';
import { UploadOutlined } from '@ant-design/icons';
import { Button, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { uploadFile } from '@/services/files';

/**
 * One stored file as a form field (its id): uploaded at once as an attachment the record claims when it is saved,
 * with its progress; `name` is the name of the file the record holds.
 */
export default function FileField({
  value,
  onChange,
  name,
  accept,
  label,
  testId = 'item-file-upload',
}: {
  value?: string | null;
  onChange?: (id: string | null) => void;
  name?: string | null;
  /** The types offered by the picker (`image/*`); the server decides what it takes. */
  accept?: string;
  /** The button's text. */
  label: string;
  testId?: string;
}) {
  const [files, setFiles] = useState<UploadFile[]>(
    value ? [{ uid: value, name: name ?? value, status: 'done', response: { id: value } }] : [],
  );
  return (
    <Upload
      maxCount={1}
      accept={accept}
      fileList={files}
      onChange={({ fileList }) => {
        setFiles(fileList);
        const done = fileList.find((f) => f.status === 'done');
        const id = (done?.response as { id?: string } | undefined)?.id ?? null;
        if (id !== (value ?? null)) onChange?.(id);
      }}
      customRequest={({ file, onProgress, onSuccess, onError }) => {
        uploadFile(file as File, { purpose: 'attachment', onProgress: (percent) => onProgress?.({ percent }) }).then(
          (stored) => onSuccess?.({ id: stored.id }),
          (err: Error) => onError?.(err),
        );
      }}
    >
      <Button icon={<UploadOutlined />} data-testid={testId}>
        {label}
      </Button>
    </Upload>
  );
}
