import { useRequest } from 'ahooks';
import { Select } from 'antd';
import { useState } from 'react';
import { doctorChoices } from '@/pages/people/doctor/descriptor';
import { ignoreShownError } from '@/utils/request';

/** A list's doctor field (an activity's host, a course's teacher): found by name, pinyin or number, looked up once the field is first used. */
export default function HostSearch({
  testId = 'search-hostDoctorId',
  ...props
}: {
  value?: unknown;
  onChange?: (value: unknown) => void;
  testId?: string;
}) {
  const [used, setUsed] = useState(false);
  const [keyword, setKeyword] = useState('');
  const { data = [], loading } = useRequest(() => doctorChoices(keyword || undefined), {
    ready: used,
    refreshDeps: [keyword],
    debounceWait: 300,
    onError: ignoreShownError,
  });
  return (
    <Select
      allowClear
      showSearch
      filterOption={false}
      loading={loading}
      options={data}
      onFocus={() => setUsed(true)}
      onSearch={setKeyword}
      style={{ minWidth: 160 }}
      data-testid={testId}
      {...props}
      value={props.value as string | undefined}
    />
  );
}
