import { ProFormSelect } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import RecordModalForm from '@/components/RecordModalForm';
import { type DoctorType, doctorTypes, moveDoctors } from './descriptor';

/**
 * A used type's delete: its doctors move to another type first (all of them, in one step), then it is deleted. A
 * refusal (the type changed meanwhile, a target gone) is said by the dialog, which stays open.
 */
export default function MoveDoctorsDialog({
  record,
  onClose,
  onDone,
}: {
  record?: DoctorType;
  onClose: () => void;
  onDone: () => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  return (
    <RecordModalForm<{ targetTypeId?: string }>
      record={record}
      title={t('people.doctor-type.move.title', { name: record?.name ?? '', count: String(record?.doctorCount ?? 0) })}
      initialValues={{}}
      submitTestId="move-doctors-submit"
      save={async (values, options) => {
        if (!record) return;
        await moveDoctors(record.id, { targetTypeId: values.targetTypeId ?? '', version: record.version }, options);
        await doctorTypes.remove(record.id);
      }}
      onClose={onClose}
      onSaved={onDone}
    >
      <ProFormSelect
        name="targetTypeId"
        label={t('people.doctor-type.move.target')}
        rules={[{ required: true }]}
        request={() =>
          doctorTypes
            .list({ pageSize: '200', sort: 'sort,code' })
            .then(({ data }) =>
              data.filter((type) => type.id !== record?.id).map((type) => ({ value: type.id, label: type.name })),
            )
        }
        fieldProps={{ 'data-testid': 'move-doctors-target' } as object}
      />
    </RecordModalForm>
  );
}
