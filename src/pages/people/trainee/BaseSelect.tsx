import { useRequest } from 'ahooks';
import { Select, type SelectProps } from 'antd';
import { ignoreShownError } from '@/utils/request';

/** A search form's choice of one base (a training or a specialty base), its options read when it renders. */
export default function BaseSelect({
  load,
  ...props
}: { load: () => Promise<{ value: string; label: string }[]> } & SelectProps) {
  const { data, loading } = useRequest(load, { onError: ignoreShownError });
  return (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      loading={loading}
      options={data ?? []}
      style={{ minWidth: 160 }}
      {...props}
    />
  );
}
