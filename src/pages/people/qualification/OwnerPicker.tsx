import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Form, Select } from 'antd';
import { useState } from 'react';
import request, { ignoreShownError } from '@/utils/request';

interface Holder {
  id: string;
  name: string;
  expertNo?: string;
  doctorNo?: string | null;
  staffNo?: string;
  traineeNo?: string;
}

const numberOf = (h: Holder) => h.expertNo ?? h.doctorNo ?? h.staffNo ?? h.traineeNo;

/**
 * The record a qualification is filed under, of the kind the form's `ownerType` names: found by name, pinyin, mobile
 * or number in that list (the viewer's data scope applies).
 */
export default function OwnerPicker({
  value,
  onChange,
  disabled,
}: {
  value?: string;
  onChange?: (id: string) => void;
  disabled?: boolean;
}) {
  const intl = useIntl();
  const type = Form.useWatch<string | undefined>('ownerType');
  const [keyword, setKeyword] = useState('');
  const { data: found, loading } = useRequest<Holder[], []>(
    () =>
      type
        ? request
            .get<{ data: Holder[] }>(`/api/people/${type}`, {
              params: { pageSize: '20', ...(keyword && { keyword }) },
            })
            .then((answer) => answer.data)
        : Promise.resolve([]),
    { refreshDeps: [type, keyword], debounceWait: 300, onError: ignoreShownError },
  );
  const listed = Boolean(value && found?.some((h) => h.id === value));
  // the chosen record, when the page found does not hold it (a record chosen before, under another search)
  const { data: chosen } = useRequest<Holder | undefined, []>(
    () => (type && value && !listed ? request.get<Holder>(`/api/people/${type}/${value}`) : Promise.resolve(undefined)),
    { refreshDeps: [type, value, listed], onError: ignoreShownError },
  );
  const options = [...(chosen && !listed ? [chosen] : []), ...(found ?? [])];
  return (
    <Select
      showSearch
      allowClear
      value={value}
      disabled={disabled || !type}
      loading={loading}
      filterOption={false}
      onSearch={setKeyword}
      onChange={onChange}
      placeholder={intl.formatMessage({ id: 'people.qualification.ownerId' })}
      data-testid="qualification-owner"
      options={options.map((h) => ({ value: h.id, label: numberOf(h) ? `${h.name} (${numberOf(h)})` : h.name }))}
    />
  );
}
