import { useRequest } from 'ahooks';
import { Select } from 'antd';
import { useState } from 'react';
import { ignoreShownError } from '@/utils/request';
import { documentChoices } from './descriptor';

/**
 * A document item's document of the document base, as a form field: a published document found by its title as it is
 * typed (the base's search); the one the item already shows keeps its title.
 */
export default function DocumentPicker({
  value,
  onChange,
  title,
}: {
  value?: string | null;
  onChange?: (id: string | null) => void;
  /** The title of the document the item shows. */
  title?: string | null;
}) {
  const [keyword, setKeyword] = useState('');
  const { data = [], loading } = useRequest(() => documentChoices(keyword || undefined), {
    refreshDeps: [keyword],
    debounceWait: 300,
    onError: ignoreShownError,
  });
  const options = value && !data.some((c) => c.value === value) ? [{ value, label: title ?? value }, ...data] : data;
  return (
    <Select
      allowClear
      showSearch
      filterOption={false}
      loading={loading}
      options={options}
      onSearch={setKeyword}
      value={value ?? undefined}
      onChange={(id?: string) => onChange?.(id ?? null)}
      data-testid="form-documentId"
    />
  );
}
