import '@/pages/file/catalogue';
import { UploadOutlined } from '@ant-design/icons';
import {
  DrawerForm,
  ProFormDateTimePicker,
  ProFormDependency,
  ProFormDigit,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { Button, type ButtonProps, Form, Upload, type UploadFile } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { toBody } from '@/components/resource/params';
import type { FormDialogProps } from '@/components/resource/useResourceDialogs';
import { uploadFile } from '@/services/files';
import { fieldErrorsOn } from '@/utils/formErrors';
import message from '@/utils/message';
import { courses, paperChoices } from '../course/descriptor';
import { type CourseItem, courseItems, fetchCourseItems, ITEM_TYPES } from './descriptor';

/** What each type holds, besides what every item has (as the server's HOLDS). */
const HOLDS: Record<CourseItem['itemType'], 'fileId' | 'url' | 'examPaperId' | null> = {
  chapter: null,
  video: 'fileId',
  document: 'fileId',
  link: 'url',
  quiz: 'examPaperId',
};
const COMMON = ['parentId', 'title', 'description', 'durationMinutes', 'minViewPercent', 'isRequired', 'availableFrom'];

/** One stored file as a form field (its id): uploaded at once, with its progress. */
function FileField({
  value,
  onChange,
  name,
}: {
  value?: string | null;
  onChange?: (id: string | null) => void;
  name?: string | null;
}) {
  const intl = useIntl();
  const [files, setFiles] = useState<UploadFile[]>(
    value ? [{ uid: value, name: name ?? value, status: 'done', response: { id: value } }] : [],
  );
  return (
    <Upload
      maxCount={1}
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
      <Button icon={<UploadOutlined />} data-testid="item-file-upload">
        {intl.formatMessage({ id: 'teaching.course-item.upload' })}
      </Button>
    </Upload>
  );
}

/**
 * A course item's form: its course and type (chosen once), its chapter, and what its type holds (a video's or a
 * document's file, a link's address, a quiz's paper); the server's refusals show on their fields.
 */
export default function CourseItemForm({ record, defaults, onClose, onSaved }: FormDialogProps<CourseItem>) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const label = (field: string) => t(`teaching.course-item.${field}`);
  const [form] = Form.useForm();
  const required = [{ required: true }];

  const save = async (values: Record<string, unknown>) => {
    const type = (record?.itemType ?? values.itemType) as CourseItem['itemType'];
    const holds = HOLDS[type];
    const fields = [...COMMON, ...(holds ? [holds] : [])];
    // the picker's local time (text or dayjs) → an instant with its zone, as the API takes it
    const given = {
      ...values,
      availableFrom: values.availableFrom ? dayjs(values.availableFrom as string).toISOString() : values.availableFrom,
    };
    const body = record
      ? toBody(given, fields, 'update', record.version)
      : { ...toBody(given, fields, 'create'), courseId: values.courseId, itemType: type };
    try {
      const saved = record
        ? await courseItems.update(record.id, body as never, fieldErrorsOn(form))
        : await courseItems.create(body as never, fieldErrorsOn(form));
      message.success(t('resource.saved'));
      onSaved(saved);
      return true;
    } catch {
      return false;
    }
  };

  const entity = t('teaching.course-item.entity');
  return (
    <DrawerForm
      form={form}
      open
      title={intl.formatMessage(
        { id: record ? 'resource.form.editTitleOf' : 'resource.form.createTitle' },
        { entity, name: record?.title },
      )}
      initialValues={record ?? { minViewPercent: 80, isRequired: true, itemType: 'video', ...defaults }}
      onOpenChange={(open) => !open && onClose()}
      onFinish={save}
      drawerProps={{ destroyOnHidden: true, rootClassName: 'resource-form' }}
      submitter={{ submitButtonProps: { 'data-testid': 'resource-form-submit' } as ButtonProps }}
    >
      <ProFormSelect
        name="courseId"
        label={label('courseId')}
        rules={required}
        disabled={Boolean(record || defaults?.courseId)}
        showSearch
        request={({ keyWords }) =>
          courses.list({ pageSize: '50', ...(keyWords && { keyword: keyWords }) }).then(({ data }) => {
            const choices = data.map((c) => ({ value: c.id, label: `${c.code} ${c.title}` }));
            return record && !choices.some((c) => c.value === record.courseId)
              ? [{ value: record.courseId, label: record.courseTitle }, ...choices]
              : choices;
          })
        }
        params={{}}
        debounceTime={300}
        fieldProps={{ filterOption: false, 'data-testid': 'form-courseId' } as object}
      />
      <ProFormSelect
        name="itemType"
        label={label('itemType')}
        rules={required}
        disabled={Boolean(record)}
        options={ITEM_TYPES.map((value) => ({ value, label: t(`teaching.course-item.itemType.${value}`) }))}
        fieldProps={{ 'data-testid': 'form-itemType' } as object}
      />
      <ProFormText name="title" label={label('title')} rules={required} fieldProps={{ 'data-testid': 'form-title' }} />
      <ProFormDependency name={['courseId', 'itemType']}>
        {({ courseId, itemType }) => {
          const holds = HOLDS[itemType as CourseItem['itemType']];
          return (
            <>
              {itemType !== 'chapter' && (
                <ProFormSelect
                  name="parentId"
                  label={label('parentId')}
                  params={{ courseId }}
                  request={async () =>
                    courseId
                      ? (await fetchCourseItems(courseId as string))
                          .filter((i) => i.itemType === 'chapter')
                          .map((i) => ({ value: i.id, label: i.title }))
                      : []
                  }
                  fieldProps={{ 'data-testid': 'form-parentId' } as object}
                />
              )}
              {holds === 'fileId' && (
                <Form.Item name="fileId" label={label('fileId')} rules={required}>
                  <FileField name={record?.fileName} />
                </Form.Item>
              )}
              {holds === 'url' && (
                <ProFormText
                  name="url"
                  label={label('url')}
                  rules={[{ required: true }, { type: 'url' }]}
                  fieldProps={{ 'data-testid': 'form-url' }}
                />
              )}
              {holds === 'examPaperId' && (
                <ProFormSelect
                  name="examPaperId"
                  label={label('examPaperId')}
                  rules={required}
                  request={paperChoices}
                  showSearch
                  debounceTime={300}
                  fieldProps={{ 'data-testid': 'form-examPaperId' } as object}
                />
              )}
              {itemType !== 'chapter' && (
                <>
                  <ProFormDigit name="durationMinutes" label={label('durationMinutes')} min={1} />
                  {holds === 'fileId' && (
                    <ProFormDigit name="minViewPercent" label={label('minViewPercent')} min={1} max={100} />
                  )}
                  <ProFormSwitch name="isRequired" label={label('isRequired')} />
                  <ProFormDateTimePicker
                    name="availableFrom"
                    label={label('availableFrom')}
                    tooltip={t('teaching.course-item.availableFrom.hint')}
                    fieldProps={{ 'data-testid': 'form-availableFrom' } as object}
                  />
                </>
              )}
            </>
          );
        }}
      </ProFormDependency>
      <ProFormTextArea name="description" label={label('description')} />
    </DrawerForm>
  );
}
