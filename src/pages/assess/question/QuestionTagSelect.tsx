import { useRequest } from 'ahooks';
import { Select } from 'antd';
import { useState } from 'react';
import request, { ignoreShownError } from '@/utils/request';

/** The tags questions may be given and found by (the catalogue's question scope), those holding `keyword`. */
export const fetchQuestionTags = (keyword?: string) =>
  request.get<string[]>('/api/assess/question/tags', { params: keyword ? { keyword } : {} });

/**
 * A question's tags picked among the tenant's (the tag catalogue's question scope, found by what is typed): `multiple`
 * takes several and a new one typed (the form, a bulk change); otherwise one of them (the list's filter).
 */
export default function QuestionTagSelect({
  id,
  value,
  onChange,
  multiple,
  testId,
  placeholder,
}: {
  /** The Form.Item's id: its label names the field. */
  id?: string;
  value?: string | string[] | null;
  onChange?: (value: string | string[] | undefined) => void;
  multiple?: boolean;
  testId?: string;
  placeholder?: string;
}) {
  const [keyword, setKeyword] = useState('');
  const { data = [] } = useRequest(() => fetchQuestionTags(keyword), {
    refreshDeps: [keyword],
    debounceWait: 250,
    onError: ignoreShownError,
  });
  return (
    <Select
      id={id}
      aria-label={id ? undefined : placeholder}
      data-testid={testId}
      mode={multiple ? 'tags' : undefined}
      showSearch
      allowClear
      placeholder={placeholder}
      value={value ?? undefined}
      onChange={(next) => onChange?.(next ?? undefined)}
      onSearch={setKeyword}
      onDropdownVisibleChange={(open) => !open && setKeyword('')}
      filterOption={false}
      tokenSeparators={multiple ? [',', '，'] : undefined}
      options={data.map((name) => ({ value: name, label: name }))}
      style={{ width: '100%' }}
    />
  );
}
