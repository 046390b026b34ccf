import {
  DrawerForm,
  ProFormDatePicker,
  ProFormDependency,
  ProFormDigit,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { type ButtonProps, Divider, Form } from 'antd';
import { dictEnum } from '@/components/resource/dict';
import { toBody } from '@/components/resource/params';
import type { FormDialogProps } from '@/components/resource/useResourceDialogs';
import { useUnsavedGuard } from '@/hooks/useUnsavedGuard';
import { tutorChoices } from '@/pages/people/doctor/descriptor';
import { fieldErrorsOn } from '@/utils/formErrors';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import CustomFields from '../trainee-field/CustomFields';
import {
  fetchFields,
  fetchTypes,
  IN_TRAINING,
  orgChoices,
  PERSON_FIELDS,
  TRAINING_FIELDS,
  type Trainee,
  trainees,
  unitChoices,
} from './descriptor';

const dictOptions = (type: string) => [...dictEnum(type)].map(([value, entry]) => ({ value, label: entry.text }));

/** The type's own fields, under `customFields`, once the type is known. */
function TypeFields({ typeId }: { typeId?: string }) {
  const { data: fields = [] } = useRequest(() => (typeId ? fetchFields(typeId) : Promise.resolve([])), {
    refreshDeps: [typeId],
    onError: ignoreShownError,
  });
  return <CustomFields fields={fields} namePrefix={['customFields']} />;
}

/**
 * A trainee's form: its type (chosen once, on create), the person, the training, and the type's own fields as its
 * definitions say (required, kinds, choices, sections). The server's refusals show on their fields, the custom ones too.
 */
export default function TraineeForm({ record, defaults, onClose, onSaved }: FormDialogProps<Trainee>) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const label = (field: string) => t(`people.trainee.${field}`);
  const [form] = Form.useForm();
  const guard = useUnsavedGuard(true, () => form, onClose);
  const { data: types = [] } = useRequest(fetchTypes, { onError: ignoreShownError });
  const required = [{ required: true }];
  const picked = (field: string) => [
    { required: true, message: intl.formatMessage({ id: 'resource.form.requiredChoice' }, { label: label(field) }) },
  ];
  const entity = t('people.trainee.entity');
  const inTraining = Boolean(record && IN_TRAINING.includes(record.status));

  const save = async (values: Record<string, unknown>) => {
    const given = values.idNo ? PERSON_FIELDS : PERSON_FIELDS.filter((f) => f !== 'idNo');
    const body = {
      ...toBody(values, [...given, ...TRAINING_FIELDS], record ? 'update' : 'create', record?.version),
      customFields: Object.fromEntries(
        Object.entries((values.customFields as Record<string, unknown>) ?? {}).filter(([, v]) => v !== undefined),
      ),
    };
    const options = fieldErrorsOn(form);
    try {
      const saved = record
        ? await trainees.update(record.id, body as never, options)
        : await trainees.create({ ...body, traineeTypeId: values.traineeTypeId } as never, options);
      message.success(t('resource.saved'));
      guard.saved();
      onSaved(saved);
      return true;
    } catch {
      return false;
    }
  };

  return (
    <DrawerForm
      form={form}
      open
      title={intl.formatMessage(
        { id: record ? 'resource.form.editTitleOf' : 'resource.form.createTitle' },
        { entity, name: record?.name },
      )}
      initialValues={record ?? defaults}
      onOpenChange={guard.onOpenChange}
      onFinish={save}
      drawerProps={{ destroyOnHidden: true, rootClassName: 'resource-form' }}
      submitter={{ submitButtonProps: { 'data-testid': 'resource-form-submit' } as ButtonProps }}
    >
      <ProFormSelect
        name="traineeTypeId"
        label={label('traineeTypeId')}
        rules={picked('traineeTypeId')}
        disabled={Boolean(record)}
        options={types
          .filter((type) => type.status === 'enabled' || type.id === record?.traineeTypeId)
          .map((type) => ({ value: type.id, label: type.name }))}
        fieldProps={{ 'data-testid': 'form-traineeTypeId' } as object}
      />
      <ProFormText
        name="traineeNo"
        label={label('traineeNo')}
        fieldProps={{ 'data-testid': 'form-traineeNo' } as object}
      />
      <Divider orientation="left">{t('people.trainee.person')}</Divider>
      <ProFormText
        name="name"
        label={label('name')}
        rules={required}
        fieldProps={{ 'data-testid': 'form-name' } as object}
      />
      <ProFormSelect name="gender" label={label('gender')} options={dictOptions('gender')} />
      <ProFormSelect
        name="idType"
        label={label('idType')}
        options={dictOptions('id_type')}
        initialValue="resident_id"
      />
      <ProFormText
        name="idNo"
        label={label('idNo')}
        // the number is never sent back: an edit that leaves it empty keeps it
        placeholder={record?.idNoMasked ?? undefined}
        fieldProps={{ 'data-testid': 'form-idNo' } as object}
      />
      <ProFormText name="mobile" label={label('mobile')} fieldProps={{ 'data-testid': 'form-mobile' } as object} />
      <ProFormText name="email" label={label('email')} rules={[{ type: 'email' }]} />
      <ProFormDatePicker name="birthDate" label={label('birthDate')} />
      <ProFormSelect name="education" label={label('education')} options={dictOptions('education')} />
      <Divider orientation="left">{t('people.trainee.training')}</Divider>
      <ProFormSelect
        name="trainingBaseId"
        label={label('trainingBaseId')}
        rules={picked('trainingBaseId')}
        request={() => orgChoices('training_base')}
        disabled={inTraining}
        extra={inTraining && t('people.trainee.baseByRequest')}
        fieldProps={{ 'data-testid': 'form-trainingBaseId' } as object}
      />
      <ProFormSelect
        name="specialtyBaseId"
        label={label('specialtyBaseId')}
        request={() => orgChoices('specialty_base')}
        disabled={inTraining}
      />
      <ProFormDigit name="cohortYear" label={label('cohortYear')} min={1950} max={2100} fieldProps={{ precision: 0 }} />
      <ProFormSelect name="recruitType" label={label('recruitType')} options={dictOptions('recruit_type')} />
      <ProFormDatePicker name="trainingStart" label={label('trainingStart')} />
      <ProFormDatePicker name="plannedEnd" label={label('plannedEnd')} />
      <ProFormSelect
        name="workUnitId"
        label={label('workUnitId')}
        showSearch
        request={({ keyWords }) => unitChoices(keyWords)}
        fieldProps={{ filterOption: false }}
        params={{}}
        debounceTime={300}
      />
      <ProFormSelect
        name="tutorDoctorId"
        label={label('tutorDoctorId')}
        showSearch
        request={({ keyWords }) =>
          tutorChoices(keyWords).then((choices) =>
            record?.tutorDoctorId && !choices.some((c) => c.value === record.tutorDoctorId)
              ? [{ value: record.tutorDoctorId, label: record.tutorName ?? record.tutorDoctorId }, ...choices]
              : choices,
          )
        }
        fieldProps={{ filterOption: false, 'data-testid': 'form-tutorDoctorId' } as object}
        params={{}}
        debounceTime={300}
      />
      <ProFormText name="graduateSchool" label={label('graduateSchool')} />
      <ProFormText name="graduateMajor" label={label('graduateMajor')} />
      <ProFormTextArea name="remark" label={label('remark')} />
      <ProFormDependency name={['traineeTypeId']}>
        {({ traineeTypeId }) => (
          <div data-testid="trainee-custom-fields">
            <TypeFields typeId={traineeTypeId} />
          </div>
        )}
      </ProFormDependency>
    </DrawerForm>
  );
}
