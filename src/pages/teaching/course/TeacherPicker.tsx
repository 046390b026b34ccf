import { useRequest } from 'ahooks';
import { Select } from 'antd';
import { useState } from 'react';
import { doctorChoices } from '@/pages/people/doctor/descriptor';
import { staff } from '@/pages/people/staff/descriptor';
import { choiceKeyword, choiceLabel } from '@/utils/choices';
import { ignoreShownError } from '@/utils/request';

/** Active teaching staff as choices, found by name or number as it is typed. */
const teacherChoices = (typed?: string) => {
  const keyword = choiceKeyword(typed);
  return staff
    .list({ status: 'active', isTeacher: 'true', pageSize: '50', ...(keyword && { keyword }) })
    .then(({ data }) => data.map((s) => ({ value: s.id, label: choiceLabel(s.name, s.orgName) })));
};

/**
 * A course's teachers of one kind (doctors, or teaching staff) as a form field: found by name as they are typed (looked
 * up once the field is first used); those already named show by their names.
 */
export default function TeacherPicker({
  kind,
  names = {},
  value,
  onChange,
}: {
  kind: 'doctor' | 'staff';
  /** The names of those already named, by id. */
  names?: Record<string, string>;
  value?: string[];
  onChange?: (ids: string[]) => void;
}) {
  const [used, setUsed] = useState(false);
  const [keyword, setKeyword] = useState('');
  const { data = [], loading } = useRequest(
    () => (kind === 'doctor' ? doctorChoices(keyword || undefined) : teacherChoices(keyword || undefined)),
    { ready: used, refreshDeps: [keyword], debounceWait: 300, onError: ignoreShownError },
  );
  const named = (value ?? [])
    .filter((id) => !data.some((c) => c.value === id))
    .map((id) => ({ value: id, label: names[id] ?? id }));
  return (
    <Select
      mode="multiple"
      allowClear
      showSearch
      filterOption={false}
      loading={loading}
      options={[...named, ...data]}
      onFocus={() => setUsed(true)}
      onSearch={setKeyword}
      value={value}
      onChange={onChange}
      maxCount={50}
      data-testid={`form-teacher-${kind}`}
    />
  );
}
