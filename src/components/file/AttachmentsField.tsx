import '@/pages/file/catalogue';
import { UploadOutlined } from '@ant-design/icons';
import type { Attachment } from '@server/modules/file/file/file.resource';
import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Form, Upload, type UploadFile } from 'antd';
import { useEffect, useState } from 'react';
import { uploadFile } from '@/services/files';
import request, { ignoreShownError } from '@/utils/request';

/**
 * The files a record holds, as a form field whose value is their ids: each file chosen is uploaded at once (with its
 * progress) as an attachment the record claims when it is saved; the record's files are listed by `attachments`
 * (`/api/<resource>/{id}/attachments`, links signed for the viewer), each opening in a new tab.
 */
export default function AttachmentsField({
  value,
  onChange,
  disabled,
  attachments,
  accept,
}: {
  value?: string[];
  onChange?: (ids: string[]) => void;
  disabled?: boolean;
  /** The record's attachments endpoint (`/api/people/qualification`): with the form's `id`, its files' names. */
  attachments: string;
  accept?: string;
}) {
  const intl = useIntl();
  const form = Form.useFormInstance();
  const recordId: string | undefined = form.getFieldValue('id');
  const [files, setFiles] = useState<UploadFile[]>([]);
  const { data: held } = useRequest(
    () =>
      recordId
        ? request.get<Attachment[]>(`${attachments}/${recordId}/attachments`)
        : Promise.resolve([] as Attachment[]),
    { refreshDeps: [recordId], onError: ignoreShownError },
  );
  useEffect(() => {
    if (!held) return;
    setFiles(held.map((a) => ({ uid: a.id, name: a.name, status: 'done', url: a.previewUrl, response: { id: a.id } })));
  }, [held]);

  const idsOf = (list: UploadFile[]) =>
    list.flatMap((f) =>
      f.status === 'done' && (f.response as { id?: string })?.id ? [(f.response as { id: string }).id] : [],
    );

  return (
    <div data-testid="attachments-field">
      <Upload
        multiple
        accept={accept}
        disabled={disabled}
        fileList={files}
        onChange={({ fileList }) => {
          setFiles(fileList);
          const ids = idsOf(fileList);
          if (ids.join() !== (value ?? []).join()) onChange?.(ids);
        }}
        customRequest={({ file, onProgress, onSuccess, onError }) => {
          uploadFile(file as File, { purpose: 'attachment', onProgress: (percent) => onProgress?.({ percent }) }).then(
            (stored) => onSuccess?.({ id: stored.id }),
            (err: Error) => onError?.(err),
          );
        }}
      >
        {!disabled && (
          <Button icon={<UploadOutlined />} data-testid="attachments-add">
            {intl.formatMessage({ id: 'file.attachments.add' })}
          </Button>
        )}
      </Upload>
    </div>
  );
}
