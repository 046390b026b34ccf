import { ProForm } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { Alert, Select } from 'antd';
import { useRef, useState } from 'react';
import RecordModalForm from '@/components/RecordModalForm';
import { ignoreShownError } from '@/utils/request';
import { mergeUnits, type Unit, units } from './descriptor';

/**
 * "Merge duplicates": the units to merge into `record`, found by name or credit code. What happens is said before
 * it is done (it cannot be undone); a refusal (a unit gone, a stale record) shows on the field or as a message.
 */
export default function MergeDialog({
  record,
  onClose,
  onMerged,
}: {
  record?: Unit;
  onClose: () => void;
  onMerged: () => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const [options, setOptions] = useState<{ value: string; label: string }[]>([]);
  // answers may come back out of order: only the latest search's is shown
  const latest = useRef(0);
  const search = (keyword: string) => {
    const asked = ++latest.current;
    return units
      .list({ keyword, current: '1', pageSize: '20' })
      .then(({ data }) =>
        asked !== latest.current
          ? undefined
          : setOptions(
              data
                .filter((unit) => unit.id !== record?.id)
                .map((unit) => ({
                  value: unit.id,
                  label: unit.creditCode ? `${unit.name} (${unit.creditCode})` : unit.name,
                })),
            ),
      )
      .catch(ignoreShownError);
  };
  const name = record?.name ?? '';
  return (
    <RecordModalForm<{ sourceIds?: string[] }>
      record={record}
      title={t('people.unit.merge.title', { name })}
      initialValues={{ sourceIds: [] }}
      submitTestId="merge-submit"
      save={(values, requestOptions) =>
        mergeUnits(
          record?.id ?? '',
          { sourceIds: values.sourceIds ?? [], version: record?.version ?? 0 },
          requestOptions,
        )
      }
      onClose={onClose}
      onSaved={onMerged}
    >
      <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t('people.unit.merge.hint', { name })} />
      <ProForm.Item name="sourceIds" label={t('people.unit.merge.sources')} rules={[{ required: true }]}>
        <Select
          mode="multiple"
          data-testid="merge-sources"
          showSearch
          filterOption={false}
          onSearch={search}
          onFocus={() => search('')}
          options={options}
          style={{ width: '100%' }}
        />
      </ProForm.Item>
    </RecordModalForm>
  );
}
