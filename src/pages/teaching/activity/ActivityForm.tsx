import {
  DrawerForm,
  ProFormDateTimeRangePicker,
  ProFormDigit,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { type ButtonProps, Divider, Form } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { dictEnum } from '@/components/resource/dict';
import { toBody } from '@/components/resource/params';
import type { FormDialogProps } from '@/components/resource/useResourceDialogs';
import { doctorChoices } from '@/pages/people/doctor/descriptor';
import { LazyOrganizationPicker } from '@/pages/people/organization/pickers';
import { fetchTypes } from '@/pages/people/trainee/descriptor';
import { fieldErrorsOn } from '@/utils/formErrors';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import {
  type Activity,
  activities,
  GEO_RADIUS,
  MAX_CO_HOSTS,
  MAX_NAMED_TRAINEES,
  MODES,
  SIGN_IN_MODES,
  traineeChoices,
} from './descriptor';

const FIELDS = [
  'title',
  'activityType',
  'orgId',
  'specialtyBaseId',
  'hostDoctorId',
  'coHostIds',
  'startAt',
  'endAt',
  'mode',
  'location',
  'onlineUrl',
  'audienceTraineeTypeIds',
  'audienceOrgIds',
  'audienceCohortYears',
  'audienceTraineeIds',
  'capacity',
  'signInMode',
  'geoLatitude',
  'geoLongitude',
  'geoRadiusM',
  'lateAfterMinutes',
  'signInOpenAt',
  'signInCloseAt',
  'evaluationEnabled',
  'description',
  'remark',
];
const AUDIENCE = ['audienceTraineeTypeIds', 'audienceOrgIds', 'audienceCohortYears', 'audienceTraineeIds'];

/**
 * An activity's form: what, where and when (one time range), its department and specialty base, who hosts it (and
 * co-hosts it), and its audience (trainee types, bases, cohorts, trainees named one by one), fixed once published;
 * for sign-in by code and position, the place's coordinates and radius (typed: no map is downloaded). The server's refusals show on their fields (the time's on the range).
 */
export default function ActivityForm({ record, defaults, onClose, onSaved }: FormDialogProps<Activity>) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const label = (field: string) => t(`teaching.activity.${field}`);
  const [form] = Form.useForm();
  const { data: types = [] } = useRequest(fetchTypes, { onError: ignoreShownError });
  const required = [{ required: true }];
  const published = record !== undefined && record.status !== 'draft';
  const thisYear = new Date().getFullYear();
  const signInMode = Form.useWatch('signInMode', form);

  const save = async (values: Record<string, unknown>) => {
    // local times as the picker gives them (text or dayjs) → instants with their zone, as the API takes them
    const [startAt, endAt] = ((values.time as (string | Dayjs)[] | undefined) ?? []).map((v) => dayjs(v).toISOString());
    // the sign-in window: either end may be left empty (its default), which clears it on an edit
    const [signInOpenAt, signInCloseAt] = [0, 1].map((i) => {
      const v = (values.signInWindow as (string | Dayjs | null | undefined)[] | undefined)?.[i];
      return v ? dayjs(v).toISOString() : null;
    });
    const given = { ...values, startAt, endAt, signInOpenAt, signInCloseAt };
    const fields = published ? FIELDS.filter((f) => !AUDIENCE.includes(f)) : FIELDS;
    const body = toBody(given, fields, record ? 'update' : 'create', record?.version);
    const placed = fieldErrorsOn(form);
    const options = {
      // the range is one field: a refusal of either end shows on it
      placeFieldErrors: (errors: { field: string; message: string }[]) =>
        placed.placeFieldErrors?.(
          errors.map((e) =>
            e.field === 'startAt' || e.field === 'endAt'
              ? { ...e, field: 'time' }
              : e.field === 'signInOpenAt' || e.field === 'signInCloseAt'
                ? { ...e, field: 'signInWindow' }
                : e,
          ),
        ) ?? false,
    };
    try {
      const saved = record
        ? await activities.update(record.id, body as never, options)
        : await activities.create(body as never, options);
      message.success(t('resource.saved'));
      // not a refusal: the host is elsewhere at an overlapping time, which the planner may mean
      if (saved.hostOverlaps?.length)
        message.warning(
          intl.formatMessage(
            { id: 'teaching.activity.hostOverlaps.saved' },
            { titles: saved.hostOverlaps.map((o) => o.title).join('、') },
          ),
        );
      onSaved(saved);
      return true;
    } catch {
      return false;
    }
  };

  const initial = record
    ? { ...record, time: [record.startAt, record.endAt], signInWindow: [record.signInOpenAt, record.signInCloseAt] }
    : {
        mode: 'onsite',
        signInMode: 'qr',
        geoRadiusM: GEO_RADIUS.default,
        lateAfterMinutes: 10,
        evaluationEnabled: true,
        ...defaults,
      };
  const entity = t('teaching.activity.entity');
  return (
    <DrawerForm
      form={form}
      open
      title={intl.formatMessage(
        { id: record ? 'resource.form.editTitleOf' : 'resource.form.createTitle' },
        { entity, name: record?.title },
      )}
      initialValues={initial}
      onOpenChange={(open) => !open && onClose()}
      onFinish={save}
      drawerProps={{ destroyOnHidden: true, rootClassName: 'resource-form' }}
      submitter={{ submitButtonProps: { 'data-testid': 'resource-form-submit' } as ButtonProps }}
    >
      <ProFormText name="title" label={label('title')} rules={required} fieldProps={{ 'data-testid': 'form-title' }} />
      <ProFormSelect
        name="activityType"
        label={label('activityType')}
        rules={required}
        options={[...dictEnum('activity_type')].map(([value, entry]) => ({ value, label: entry.text }))}
        fieldProps={{ 'data-testid': 'form-activityType' } as object}
      />
      <Form.Item name="orgId" label={label('orgId')} rules={required}>
        <LazyOrganizationPicker types={['department']} data-testid="form-orgId" />
      </Form.Item>
      <Form.Item name="specialtyBaseId" label={label('specialtyBaseId')}>
        <LazyOrganizationPicker types={['specialty_base']} data-testid="form-specialtyBaseId" />
      </Form.Item>
      <ProFormSelect
        name="hostDoctorId"
        label={label('hostDoctorId')}
        rules={required}
        showSearch
        request={({ keyWords }) =>
          doctorChoices(keyWords).then((choices) =>
            record && !choices.some((c) => c.value === record.hostDoctorId)
              ? [{ value: record.hostDoctorId, label: record.hostName }, ...choices]
              : choices,
          )
        }
        fieldProps={{ filterOption: false, 'data-testid': 'form-hostDoctorId' } as object}
        params={{}}
        debounceTime={300}
      />
      <ProFormSelect
        name="coHostIds"
        label={label('coHostIds')}
        mode="multiple"
        showSearch
        request={({ keyWords }) =>
          doctorChoices(keyWords).then((choices) => [
            ...(record?.coHostIds ?? [])
              .map((value, i) => ({ value, label: record?.coHostNames[i] ?? value }))
              .filter((named) => !choices.some((c) => c.value === named.value)),
            ...choices,
          ])
        }
        fieldProps={{ filterOption: false, maxCount: MAX_CO_HOSTS, 'data-testid': 'form-coHostIds' } as object}
        params={{}}
        debounceTime={300}
      />
      <ProFormDateTimeRangePicker
        name="time"
        label={label('time')}
        rules={required}
        fieldProps={{ format: 'YYYY-MM-DD HH:mm', showTime: { format: 'HH:mm' }, 'data-testid': 'form-time' } as object}
      />
      <ProFormSelect
        name="mode"
        label={label('mode')}
        options={MODES.map((value) => ({ value, label: t(`teaching.activity.mode.${value}`) }))}
      />
      <ProFormText name="location" label={label('location')} fieldProps={{ 'data-testid': 'form-location' }} />
      <ProFormText name="onlineUrl" label={label('onlineUrl')} />
      <Divider orientation="left">{label('audience')}</Divider>
      <ProFormSelect
        name="audienceTraineeTypeIds"
        label={label('audienceTraineeTypeIds')}
        mode="multiple"
        disabled={published}
        options={types.map((type) => ({ value: type.id, label: type.name }))}
        fieldProps={{ 'data-testid': 'form-audienceTraineeTypeIds' } as object}
      />
      <Form.Item name="audienceOrgIds" label={label('audienceOrgIds')}>
        <LazyOrganizationPicker multiple disabled={published} />
      </Form.Item>
      <ProFormSelect
        name="audienceCohortYears"
        label={label('audienceCohortYears')}
        mode="multiple"
        disabled={published}
        options={Array.from({ length: 8 }, (_, i) => thisYear - i).map((year) => ({ value: year, label: year }))}
      />
      <ProFormSelect
        name="audienceTraineeIds"
        label={label('audienceTraineeIds')}
        mode="multiple"
        showSearch
        disabled={published}
        request={({ keyWords }) =>
          traineeChoices(keyWords).then((choices) => [
            ...(record?.audienceTraineeIds ?? [])
              .map((value, i) => ({ value, label: record?.audienceTraineeNames[i] ?? value }))
              .filter((named) => !choices.some((c) => c.value === named.value)),
            ...choices,
          ])
        }
        fieldProps={
          { filterOption: false, maxCount: MAX_NAMED_TRAINEES, 'data-testid': 'form-audienceTraineeIds' } as object
        }
        params={{}}
        debounceTime={300}
      />
      <ProFormDigit name="capacity" label={label('capacity')} min={1} fieldProps={{ precision: 0 }} />
      <Divider />
      <ProFormSelect
        name="signInMode"
        label={label('signInMode')}
        options={SIGN_IN_MODES.map((value) => ({ value, label: t(`teaching.activity.signInMode.${value}`) }))}
      />
      {signInMode === 'qr_geo' && (
        <>
          <ProFormDigit
            name="geoLatitude"
            label={label('geoLatitude')}
            rules={required}
            min={-90}
            max={90}
            fieldProps={{ precision: 6, 'data-testid': 'form-geoLatitude' } as object}
          />
          <ProFormDigit
            name="geoLongitude"
            label={label('geoLongitude')}
            rules={required}
            min={-180}
            max={180}
            fieldProps={{ precision: 6, 'data-testid': 'form-geoLongitude' } as object}
          />
          <ProFormDigit
            name="geoRadiusM"
            label={label('geoRadiusM')}
            min={GEO_RADIUS.min}
            max={GEO_RADIUS.max}
            fieldProps={{ precision: 0, 'data-testid': 'form-geoRadiusM' } as object}
          />
        </>
      )}
      <ProFormDateTimeRangePicker
        name="signInWindow"
        label={label('signInWindow')}
        tooltip={label('signInWindow.hint')}
        fieldProps={
          {
            format: 'YYYY-MM-DD HH:mm',
            showTime: { format: 'HH:mm' },
            allowEmpty: [true, true],
            'data-testid': 'form-signInWindow',
          } as object
        }
      />
      <ProFormDigit name="lateAfterMinutes" label={label('lateAfterMinutes')} min={0} max={240} />
      <ProFormSwitch name="evaluationEnabled" label={label('evaluationEnabled')} />
      <ProFormTextArea name="description" label={label('description')} />
      <ProFormTextArea name="remark" label={label('remark')} />
    </DrawerForm>
  );
}
