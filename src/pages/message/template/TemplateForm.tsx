import { DrawerForm, ProFormDependency, ProFormSelect, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Alert, Button, type ButtonProps, Card, Divider, Form, Input, Modal, Space, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { dictEnum } from '@/components/resource/dict';
import { toBody } from '@/components/resource/params';
import type { FormDialogProps } from '@/components/resource/useResourceDialogs';
import { fieldErrorsOn } from '@/utils/formErrors';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import {
  type BusinessItem,
  CHANNELS,
  EXTERNAL,
  type MessageTemplate,
  messageTemplates,
  notifiableItems,
  previewDraft,
  type TemplatePreview,
  TITLED,
} from './descriptor';

const FIELDS = [
  'code',
  'name',
  'channel',
  'businessItemCode',
  'senderName',
  'titleTemplate',
  'contentTemplate',
  'externalTemplateId',
  'wechatAccountId',
  'example',
  'dataMapping',
  'jumpUrl',
  'status',
  'remark',
];

/** The `{var}` placeholders of the texts, each once (the server's rule: yudao's `\{(.*?)\}`). */
export function placeholders(...texts: unknown[]): string[] {
  const found = new Set<string>();
  for (const text of texts)
    if (typeof text === 'string') for (const match of text.matchAll(/\{(.*?)\}/g)) found.add(match[1] ?? '');
  return [...found];
}

/** The business items that notify, loaded once per screen (once `ready`: a screen that may go without them). */
export const useNotifiableItems = (ready = true) =>
  useRequest(notifiableItems, {
    cacheKey: 'message-template-items',
    staleTime: 60_000,
    ready,
    onError: ignoreShownError,
  });

/** A template's variable as people read it: the business item's label with its name (课程名称 (courseName)), or its name. */
export function variableLabel(name: string, item: BusinessItem | undefined) {
  const variable = item?.variables.find((v) => v.name === name);
  return variable ? `${variable.label} (${name})` : name;
}

/** Sample values for a template's variables, each with the business item's example as its hint. */
export function SampleValues({
  names,
  item,
  values,
  onChange,
}: {
  names: string[];
  item: BusinessItem | undefined;
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
}) {
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {names.map((name) => {
        return (
          <Input
            key={name}
            prefix={<Typography.Text type="secondary">{variableLabel(name, item)}</Typography.Text>}
            placeholder={item?.variables.find((v) => v.name === name)?.example}
            value={values[name] ?? ''}
            data-testid={`sample-${name}`}
            onChange={(e) => onChange({ ...values, [name]: e.target.value })}
          />
        );
      })}
    </Space>
  );
}

/**
 * A template's form: its channel decides the fields (a title for in-app and e-mail; the provider's template for WeChat
 * and SMS, with WeChat's account, field mapping and link); the business item's variables are chips that insert
 * `{name}` where the content's cursor is; a preview renders the draft with sample values. Saved with variables the
 * business item does not declare, it warns (the server saves it anyway).
 */
export default function TemplateForm({ record, defaults, onClose, onSaved }: FormDialogProps<MessageTemplate>) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const label = (field: string) => t(`message.template.${field}`);
  const [form] = Form.useForm();
  const { data: items = [] } = useNotifiableItems();
  const caret = useRef<number>();
  const [samples, setSamples] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<TemplatePreview>();
  const required = [{ required: true }];

  const itemOf = (code: unknown) => items.find((b) => b.code === code);

  const insert = (name: string) => {
    const text: string = form.getFieldValue('contentTemplate') ?? '';
    const at = Math.min(caret.current ?? text.length, text.length);
    const token = `{${name}}`;
    form.setFieldValue('contentTemplate', text.slice(0, at) + token + text.slice(at));
    caret.current = at + token.length;
  };

  const runPreview = async () => {
    const { businessItemCode, titleTemplate, contentTemplate, channel } = form.getFieldsValue();
    if (!contentTemplate) return;
    try {
      setPreview(
        await previewDraft(
          {
            businessItemCode: businessItemCode || null,
            titleTemplate: TITLED.includes(channel) ? titleTemplate || null : null,
            contentTemplate,
          },
          Object.fromEntries(Object.entries(samples).filter(([, v]) => v !== '')),
          fieldErrorsOn(form),
        ),
      );
    } catch {
      setPreview(undefined);
    }
  };

  const save = async (values: Record<string, unknown>) => {
    let dataMapping: unknown = values.dataMapping;
    if (typeof dataMapping === 'string' && dataMapping.trim()) {
      try {
        dataMapping = JSON.parse(dataMapping);
      } catch {
        form.setFields([{ name: 'dataMapping', errors: [t('message.template.dataMapping.invalid')] }]);
        return false;
      }
    }
    const fields = record ? FIELDS.filter((f) => f !== 'code') : FIELDS;
    const body = toBody({ ...values, dataMapping }, fields, record ? 'update' : 'create', record?.version);
    const options = fieldErrorsOn(form);
    try {
      const saved = record
        ? await messageTemplates.update(record.id, body as never, options)
        : await messageTemplates.create(body as never, options);
      // saved all the same: variables the business item does not declare are a warning, not a refusal
      if (saved.unknownParams.length)
        Modal.warning({
          title: t('resource.saved'),
          content: t('message.template.unknownParams', { names: saved.unknownParams.join(', ') }),
        });
      else message.success(t('resource.saved'));
      onSaved(saved);
      return true;
    } catch {
      return false;
    }
  };

  const initial = record
    ? { ...record, dataMapping: record.dataMapping ? JSON.stringify(record.dataMapping, null, 2) : undefined }
    : { channel: 'in_app', status: 'enabled', ...defaults };
  const entity = t('message.template.entity');
  return (
    <DrawerForm
      form={form}
      open
      width={720}
      title={intl.formatMessage(
        { id: record ? 'resource.form.editTitleOf' : 'resource.form.createTitle' },
        { entity, name: record?.name ?? '' },
      )}
      initialValues={initial}
      onOpenChange={(open) => !open && onClose()}
      onFinish={save}
      drawerProps={{ destroyOnHidden: true, rootClassName: 'resource-form' }}
      submitter={{ submitButtonProps: { 'data-testid': 'resource-form-submit' } as ButtonProps }}
    >
      <ProFormText
        name="code"
        label={label('code')}
        rules={required}
        disabled={Boolean(record)}
        fieldProps={{ 'data-testid': 'form-code' }}
      />
      <ProFormText name="name" label={label('name')} rules={required} fieldProps={{ 'data-testid': 'form-name' }} />
      <ProFormSelect
        name="channel"
        label={label('channel')}
        rules={required}
        options={CHANNELS.map((value) => ({ value, label: t(`message.template.channel.${value}`) }))}
        fieldProps={{ 'data-testid': 'form-channel' } as object}
      />
      <ProFormSelect
        name="businessItemCode"
        label={label('businessItemCode')}
        showSearch
        options={items.map((b) => ({ value: b.code, label: `${b.name} (${b.code})` }))}
        fieldProps={{ optionFilterProp: 'label', 'data-testid': 'form-businessItemCode' } as object}
      />
      <ProFormText name="senderName" label={label('senderName')} />
      <ProFormDependency name={['channel', 'businessItemCode', 'titleTemplate', 'contentTemplate']}>
        {({ channel, businessItemCode, titleTemplate, contentTemplate }) => {
          const item = itemOf(businessItemCode);
          const names = placeholders(TITLED.includes(channel) ? titleTemplate : null, contentTemplate);
          const declared = new Set(item?.variables.map((v) => v.name));
          const unknown = item ? names.filter((n) => !declared.has(n)) : [];
          return (
            <>
              {TITLED.includes(channel) && (
                <ProFormText
                  name="titleTemplate"
                  label={label('titleTemplate')}
                  rules={required}
                  fieldProps={{ 'data-testid': 'form-titleTemplate' }}
                />
              )}
              {item && (
                <Form.Item label={label('variables')}>
                  {item.variables.length ? (
                    <Space wrap size={[4, 4]}>
                      {item.variables.map((v) => (
                        <Tag.CheckableTag
                          key={v.name}
                          checked={names.includes(v.name)}
                          data-testid={`variable-${v.name}`}
                          onChange={() => insert(v.name)}
                        >
                          {v.label} {`{${v.name}}`}
                        </Tag.CheckableTag>
                      ))}
                    </Space>
                  ) : (
                    <Typography.Text type="secondary">{label('variables.none')}</Typography.Text>
                  )}
                </Form.Item>
              )}
              <ProFormTextArea
                name="contentTemplate"
                label={label('contentTemplate')}
                rules={required}
                fieldProps={{
                  rows: 5,
                  ...({ 'data-testid': 'form-contentTemplate' } as object),
                  onSelect: (e) => {
                    caret.current = (e.target as HTMLTextAreaElement).selectionStart;
                  },
                  onChange: (e) => {
                    caret.current = e.target.selectionStart;
                  },
                }}
              />
              {unknown.length > 0 && (
                <Alert
                  type="warning"
                  showIcon
                  style={{ marginBottom: 16 }}
                  data-testid="unknown-params"
                  message={t('message.template.unknownParams', { names: unknown.join(', ') })}
                />
              )}
              {EXTERNAL.includes(channel) && (
                <>
                  <ProFormText
                    name="externalTemplateId"
                    label={label('externalTemplateId')}
                    rules={required}
                    fieldProps={{ 'data-testid': 'form-externalTemplateId' }}
                  />
                  <ProFormTextArea name="example" label={label('example')} fieldProps={{ rows: 3 }} />
                </>
              )}
              {channel === 'wechat_mp' && (
                <>
                  <ProFormText name="wechatAccountId" label={label('wechatAccountId')} />
                  <ProFormTextArea
                    name="dataMapping"
                    label={label('dataMapping')}
                    fieldProps={{ rows: 4, placeholder: '{"first": "{paperName}", "keyword1": "{startAt}"}' }}
                  />
                  <ProFormText name="jumpUrl" label={label('jumpUrl')} />
                </>
              )}
              <Divider orientation="left">{label('preview')}</Divider>
              <Card size="small" data-testid="template-preview">
                {names.length > 0 && (
                  <>
                    <Typography.Text type="secondary">{label('preview.samples')}</Typography.Text>
                    <SampleValues names={names} item={item} values={samples} onChange={setSamples} />
                  </>
                )}
                <Button
                  style={{ marginTop: 8 }}
                  data-testid="template-preview-run"
                  disabled={!contentTemplate}
                  onClick={runPreview}
                >
                  {label('preview.run')}
                </Button>
                {preview && (
                  <div style={{ marginTop: 12 }} data-testid="template-preview-result">
                    {preview.title !== null && <Typography.Title level={5}>{preview.title}</Typography.Title>}
                    <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{preview.content}</Typography.Paragraph>
                    {preview.missing.length > 0 && (
                      <Typography.Text type="secondary">
                        {t('message.template.preview.missing', {
                          names: preview.missing.map((name) => variableLabel(name, item)).join(', '),
                        })}
                      </Typography.Text>
                    )}
                  </div>
                )}
              </Card>
            </>
          );
        }}
      </ProFormDependency>
      <ProFormSelect
        name="status"
        label={label('status')}
        options={[...dictEnum('common_status')].map(([value, entry]) => ({ value, label: entry.text }))}
      />
      <ProFormTextArea name="remark" label={label('remark')} />
    </DrawerForm>
  );
}
