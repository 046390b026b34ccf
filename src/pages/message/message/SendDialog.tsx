import {
  ModalForm,
  ProForm,
  ProFormDateTimePicker,
  ProFormDependency,
  type ProFormInstance,
  ProFormSelect,
  ProFormText,
} from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { useDebounceEffect } from 'ahooks';
import { Alert, Card, Divider, Typography } from 'antd';
import { useRef, useState } from 'react';
import { type BusinessItem, type MessageTemplate, messageTemplates } from '@/pages/message/template/descriptor';
import { useNotifiableItems, variableLabel } from '@/pages/message/template/TemplateForm';
import { LazyOrganizationPicker } from '@/pages/people/organization/pickers';
import { fetchTypes } from '@/pages/people/trainee/descriptor';
import { fetchRoleOptions } from '@/pages/system/admin/service';
import { adminUserOptions } from '@/pages/system/role/service';
import { fieldErrorsOn } from '@/utils/formErrors';
import { ignoreShownError } from '@/utils/request';
import { type BatchPreview, previewBatch, type SendBatch, sendBatch } from './descriptor';

type Values = Omit<SendBatch, 'audience' | 'params' | 'scheduledAt'> & {
  audience?: Partial<SendBatch['audience']>;
  params?: Record<string, string>;
  scheduledAt?: string | null;
};

const AUDIENCE_KEYS = [
  'userIds',
  'roleIds',
  'userOrgIds',
  'traineeIds',
  'traineeTypeIds',
  'traineeOrgIds',
  'cohortYears',
] as const;
const thisYear = new Date().getFullYear();

/** The organisation tree picker as wide as the selects beside it (the form item hands it its value and onChange). */
const OrganizationsPicker = (props: {
  value?: string | string[];
  onChange?: (value: string | string[] | undefined) => void;
}) => (
  <div style={{ width: 328 }}>
    <LazyOrganizationPicker multiple {...props} />
  </div>
);

/** The form's values as the API takes them (empty criteria as empty lists, the time as an instant). */
function bodyOf(values: Values): SendBatch {
  const audience = Object.fromEntries(AUDIENCE_KEYS.map((key) => [key, values.audience?.[key] ?? []]));
  return {
    name: values.name,
    templateId: values.templateId,
    audience: audience as SendBatch['audience'],
    params: Object.fromEntries(Object.entries(values.params ?? {}).filter(([, v]) => v !== undefined && v !== '')),
    ...(values.scheduledAt && { scheduledAt: new Date(values.scheduledAt).toISOString() }),
  };
}

/** Who a send reaches and what the first of them reads, as the form is filled in. */
function Preview({ preview, item }: { preview?: BatchPreview; item?: BusinessItem }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  if (!preview) return null;
  return (
    <Card size="small" title={t('message.batch.preview')} data-testid="send-preview">
      <Typography.Paragraph data-testid="send-preview-count">
        {preview.recipients
          ? t('message.batch.preview.recipients', { count: preview.recipients })
          : t('message.batch.preview.none')}
      </Typography.Paragraph>
      {preview.missing.length > 0 && (
        <Alert
          type="warning"
          showIcon
          message={t('message.batch.preview.missing', {
            names: preview.missing.map((name) => variableLabel(name, item)).join(', '),
          })}
        />
      )}
      {preview.sample && (
        <>
          <Divider style={{ margin: '8px 0' }} />
          {preview.sample.title && <Typography.Text strong>{preview.sample.title}</Typography.Text>}
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }} data-testid="send-preview-sample">
            {preview.sample.content}
          </Typography.Paragraph>
        </>
      )}
    </Card>
  );
}

/**
 * A template sent to an audience: console users (by name, role, organisation) and trainees in training (by type,
 * base, cohort); the template's variables (each recipient's `{name}` is filled in for them); now or at a time.
 */
export default function SendDialog({
  open,
  onClose,
  onSent,
}: {
  open: boolean;
  onClose: () => void;
  onSent: () => void;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const formRef = useRef<ProFormInstance<Values>>();
  const [templates, setTemplates] = useState<MessageTemplate[]>([]);
  const [values, setValues] = useState<Values>();
  const [preview, setPreview] = useState<BatchPreview>();
  const template = templates.find((x) => x.id === values?.templateId);
  // the business item labels the template's variables
  const { data: items = [] } = useNotifiableItems(open);
  const item = items.find((b) => b.code === template?.businessItemCode);

  useDebounceEffect(
    () => {
      if (!values?.templateId) return setPreview(undefined);
      const body = bodyOf({ ...values, name: values.name || '-' });
      if (AUDIENCE_KEYS.every((key) => body.audience[key].length === 0)) return setPreview(undefined);
      previewBatch(body, { skipErrorHandler: true }).then(setPreview, () => setPreview(undefined));
    },
    [values],
    { wait: 400 },
  );

  return (
    <ModalForm<Values>
      open={open}
      title={t('message.batch.send')}
      formRef={formRef}
      width={720}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      submitter={{ submitButtonProps: { 'data-testid': 'send-submit' } }}
      onValuesChange={(_changed, all) => setValues({ ...all })}
      onFinish={async (form) => {
        const sent = await sendBatch(bodyOf(form), fieldErrorsOn(formRef.current)).then(() => true, ignoreShownError);
        if (!sent) return false;
        setPreview(undefined);
        setValues(undefined);
        onSent();
        return true;
      }}
    >
      <ProFormText name="name" label={t('message.batch.name')} rules={[{ required: true, max: 100 }]} />
      <ProFormSelect
        name="templateId"
        label={t('message.batch.templateId')}
        rules={[{ required: true }]}
        showSearch
        request={async () => {
          const { data } = await messageTemplates.list({ status: 'enabled', pageSize: '200', sort: 'code' });
          setTemplates(data);
          return data.map((x) => ({
            value: x.id,
            label: `${x.name} (${x.code} · ${t(`message.channel.${x.channel}`)})`,
          }));
        }}
        fieldProps={{ 'data-testid': 'send-template' } as object}
      />
      <ProForm.Group title={t('message.batch.audience')} tooltip={t('message.batch.audience.help')}>
        <ProFormSelect
          name={['audience', 'roleIds']}
          label={t('message.batch.audience.roleIds')}
          mode="multiple"
          width="md"
          request={() => fetchRoleOptions().then((roles) => roles.map((r) => ({ value: r.id, label: r.name })))}
          fieldProps={{ 'data-testid': 'send-roles' } as object}
        />
        <ProFormSelect
          name={['audience', 'userIds']}
          label={t('message.batch.audience.userIds')}
          mode="multiple"
          width="md"
          showSearch
          debounceTime={300}
          request={({ keyWords }) => adminUserOptions(keyWords)}
        />
        <ProForm.Item name={['audience', 'userOrgIds']} label={t('message.batch.audience.userOrgIds')}>
          <OrganizationsPicker />
        </ProForm.Item>
        <ProFormSelect
          name={['audience', 'traineeTypeIds']}
          label={t('message.batch.audience.traineeTypeIds')}
          mode="multiple"
          width="md"
          request={() => fetchTypes().then((types) => types.map((x) => ({ value: x.id, label: x.name })))}
        />
        <ProForm.Item name={['audience', 'traineeOrgIds']} label={t('message.batch.audience.traineeOrgIds')}>
          <OrganizationsPicker />
        </ProForm.Item>
        <ProFormSelect
          name={['audience', 'cohortYears']}
          label={t('message.batch.audience.cohortYears')}
          mode="multiple"
          width="md"
          options={Array.from({ length: 8 }, (_, i) => thisYear - i).map((year) => ({ value: year, label: year }))}
        />
      </ProForm.Group>
      <ProFormDependency name={['templateId']}>
        {() =>
          template && (
            <ProForm.Group title={t('message.batch.params')} tooltip={t('message.batch.params.recipient')}>
              {template.params
                .filter((name) => name !== 'name')
                .map((name) => (
                  <ProFormText
                    key={name}
                    name={['params', name]}
                    label={variableLabel(name, item)}
                    width="md"
                    rules={[{ required: true, max: 500 }]}
                    fieldProps={{ 'data-testid': `send-param-${name}` } as object}
                  />
                ))}
            </ProForm.Group>
          )
        }
      </ProFormDependency>
      <ProFormDateTimePicker
        name="scheduledAt"
        label={t('message.batch.scheduledAt')}
        tooltip={t('message.batch.scheduledAt.help')}
        fieldProps={{ disabledDate: (day) => day && day.isBefore(new Date(), 'day') }}
      />
      <Preview preview={preview} item={item} />
    </ModalForm>
  );
}
