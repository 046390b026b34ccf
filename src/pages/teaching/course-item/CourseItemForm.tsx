import {
  DrawerForm,
  ProFormDateTimePicker,
  ProFormDateTimeRangePicker,
  ProFormDependency,
  ProFormDigit,
  ProFormRadio,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { Alert, type ButtonProps, Form } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import FileField from '@/components/file/FileField';
import { toBody } from '@/components/resource/params';
import type { FormDialogProps } from '@/components/resource/useResourceDialogs';
import { LazyRichTextEditor } from '@/components/richText';
import { fieldErrorsOn } from '@/utils/formErrors';
import message from '@/utils/message';
import { courses, paperChoices } from '../course/descriptor';
import DocumentPicker from './DocumentPicker';
import { type CourseItem, courseItems, fetchCourseItems, HOLDS, ITEM_TYPES, LIVE_PLATFORMS } from './descriptor';

const COMMON = [
  'parentId',
  'title',
  'description',
  'durationMinutes',
  'minViewPercent',
  'isRequired',
  'isPreview',
  'availableFrom',
];
/** What the types viewed hold: a share viewed completes them. */
const VIEWED: CourseItem['itemType'][] = ['video', 'audio', 'document', 'rich_text'];
const ACCEPT: Partial<Record<CourseItem['itemType'], string>> = { video: 'video/*', audio: 'audio/*' };

/** The form's values of a live session (one time range) as the API takes them, and back. */
const liveOf = (value: { time?: (string | Dayjs)[]; platform?: string; roomUrl?: string } | undefined) => {
  const [startAt, endAt] = (value?.time ?? []).map((v) => dayjs(v).toISOString());
  return { startAt, endAt, platform: value?.platform, roomUrl: value?.roomUrl?.trim() };
};
const liveForm = (live: CourseItem['liveConfig']) =>
  live ? { time: [live.startAt, live.endAt], platform: live.platform, roomUrl: live.roomUrl } : undefined;

/**
 * A course item's form: its course and type (chosen once), its chapter, and what its type holds (a video's or audio's
 * file, a document's file or a document of the document base, rich text, an assignment's instructions, a live
 * session's time and room, a link's address, a quiz's paper); the server's refusals show on their fields.
 */
export default function CourseItemForm({ record, defaults, onClose, onSaved }: FormDialogProps<CourseItem>) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const label = (field: string) => t(`teaching.course-item.${field}`);
  const [form] = Form.useForm();
  const required = [{ required: true }];

  const save = async (values: Record<string, unknown>) => {
    const type = (record?.itemType ?? values.itemType) as CourseItem['itemType'];
    // a document shows an uploaded file or one of the document base, as chosen
    const holds = HOLDS[type].filter(
      (held) => type !== 'document' || held === (values.documentSource === 'base' ? 'documentId' : 'fileId'),
    );
    // the pickers' local times (text or dayjs) → instants with their zone, as the API takes them
    const given = {
      ...values,
      availableFrom: values.availableFrom ? dayjs(values.availableFrom as string).toISOString() : values.availableFrom,
      ...(holds.includes('liveConfig') && {
        liveConfig: liveOf(values.liveConfig as Parameters<typeof liveOf>[0]),
      }),
    };
    const fields = [...COMMON, ...holds];
    const body = record
      ? toBody(given, fields, 'update', record.version)
      : { ...toBody(given, fields, 'create'), courseId: values.courseId, itemType: type };
    const placed = fieldErrorsOn(form);
    const options = {
      // the session's time is one field: a refusal of either end (or of the whole) shows on it
      placeFieldErrors: (errors: { field: string; message: string }[]) =>
        placed.placeFieldErrors?.(
          errors.map((e) =>
            ['liveConfig', 'liveConfig.startAt', 'liveConfig.endAt'].includes(e.field)
              ? { ...e, field: 'liveConfig.time' }
              : e,
          ),
        ) ?? false,
    };
    try {
      const saved = record
        ? await courseItems.update(record.id, body as never, options)
        : await courseItems.create(body as never, options);
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
      initialValues={
        record
          ? { ...record, documentSource: record.documentId ? 'base' : 'file', liveConfig: liveForm(record.liveConfig) }
          : {
              minViewPercent: 80,
              isRequired: true,
              isPreview: false,
              itemType: 'video',
              documentSource: 'file',
              ...defaults,
            }
      }
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
      <ProFormDependency name={['courseId', 'itemType', 'documentSource']}>
        {({ courseId, itemType, documentSource }) => {
          const type = itemType as CourseItem['itemType'];
          const holds = HOLDS[type] ?? [];
          const fromBase = type === 'document' && documentSource === 'base';
          return (
            <>
              {type !== 'chapter' && (
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
              {type === 'document' && (
                <ProFormRadio.Group
                  name="documentSource"
                  label={label('documentSource')}
                  options={['file', 'base'].map((value) => ({
                    value,
                    label: t(`teaching.course-item.documentSource.${value}`),
                  }))}
                  fieldProps={{ 'data-testid': 'form-documentSource' } as object}
                />
              )}
              {holds.includes('fileId') && !fromBase && (
                <Form.Item name="fileId" label={label('fileId')} rules={required}>
                  <FileField name={record?.fileName} accept={ACCEPT[type]} label={label('upload')} />
                </Form.Item>
              )}
              {fromBase && (
                <Form.Item name="documentId" label={label('documentId')} rules={required}>
                  <DocumentPicker title={record?.documentTitle} />
                </Form.Item>
              )}
              {holds.includes('contentHtml') && (
                <Form.Item
                  name="contentHtml"
                  label={label(type === 'assignment' ? 'instructions' : 'contentHtml')}
                  rules={required}
                >
                  <LazyRichTextEditor />
                </Form.Item>
              )}
              {type === 'assignment' && (
                <Alert
                  type="info"
                  showIcon
                  style={{ marginBottom: 24 }}
                  message={t('teaching.course-item.assignment.noSubmissions')}
                  data-testid="assignment-no-submissions"
                />
              )}
              {holds.includes('liveConfig') && (
                <>
                  <ProFormDateTimeRangePicker
                    name={['liveConfig', 'time']}
                    label={label('liveConfig.time')}
                    rules={required}
                    fieldProps={{ format: 'YYYY-MM-DD HH:mm', showTime: { format: 'HH:mm' } } as object}
                  />
                  <ProFormSelect
                    name={['liveConfig', 'platform']}
                    label={label('liveConfig.platform')}
                    rules={required}
                    options={LIVE_PLATFORMS.map((value) => ({
                      value,
                      label: t(`teaching.course-item.liveConfig.platform.${value}`),
                    }))}
                    fieldProps={{ 'data-testid': 'form-livePlatform' } as object}
                  />
                  <ProFormText
                    name={['liveConfig', 'roomUrl']}
                    label={label('liveConfig.roomUrl')}
                    rules={[{ required: true }, { type: 'url' }]}
                    fieldProps={{ 'data-testid': 'form-liveRoomUrl' }}
                  />
                </>
              )}
              {holds.includes('url') && (
                <ProFormText
                  name="url"
                  label={label('url')}
                  rules={[{ required: true }, { type: 'url' }]}
                  fieldProps={{ 'data-testid': 'form-url' }}
                />
              )}
              {holds.includes('examPaperId') && (
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
              {type !== 'chapter' && (
                <>
                  <ProFormDigit name="durationMinutes" label={label('durationMinutes')} min={1} />
                  {VIEWED.includes(type) && (
                    <ProFormDigit name="minViewPercent" label={label('minViewPercent')} min={1} max={100} />
                  )}
                  <ProFormSwitch name="isRequired" label={label('isRequired')} />
                  <ProFormDateTimePicker
                    name="availableFrom"
                    label={label('availableFrom')}
                    tooltip={t('teaching.course-item.availableFrom.hint')}
                    fieldProps={{ 'data-testid': 'form-availableFrom' } as object}
                  />
                  <ProFormSwitch
                    name="isPreview"
                    label={label('isPreview')}
                    fieldProps={{ 'data-testid': 'form-isPreview' } as object}
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
