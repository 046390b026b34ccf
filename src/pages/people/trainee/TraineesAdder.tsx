import { UserAddOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Select, Space } from 'antd';
import { useState } from 'react';
import request, { ignoreShownError } from '@/utils/request';

interface TraineeChoice {
  id: string;
  name: string;
  traineeNo: string;
}

/**
 * Trainees found by name, pinyin or number (of `statuses` when given), picked several at once and handed to `add`;
 * those already on the list show, not to be picked again. The pick is cleared once `add` succeeds (its refusal shows
 * through the request layer).
 */
export default function TraineesAdder({
  add,
  label,
  placeholder = label,
  statuses,
  listed = [],
  testId,
}: {
  add: (traineeIds: string[]) => Promise<unknown>;
  label: string;
  placeholder?: string;
  statuses?: string[];
  /** The ids of the trainees already on the list. */
  listed?: string[];
  testId: string;
}) {
  const intl = useIntl();
  const [keyword, setKeyword] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const { data: found = [], loading } = useRequest<TraineeChoice[], []>(
    () =>
      request
        .get<{ data: TraineeChoice[] }>('/api/people/trainee', {
          params: { pageSize: '20', ...(statuses && { status: statuses.join(',') }), ...(keyword && { keyword }) },
        })
        .then((answer) => answer.data),
    { refreshDeps: [keyword], debounceWait: 300, onError: ignoreShownError },
  );
  return (
    <Space.Compact>
      <Select
        mode="multiple"
        showSearch
        filterOption={false}
        loading={loading}
        value={chosen}
        onChange={setChosen}
        onSearch={setKeyword}
        style={{ minWidth: 280 }}
        placeholder={placeholder}
        options={found.map((trainee) => {
          const named = `${trainee.name} (${trainee.traineeNo})`;
          return listed.includes(trainee.id)
            ? {
                value: trainee.id,
                label: `${named} · ${intl.formatMessage({ id: 'people.trainee.listed' })}`,
                disabled: true,
              }
            : { value: trainee.id, label: named };
        })}
        data-testid={`${testId}-pick`}
      />
      <Button
        icon={<UserAddOutlined />}
        disabled={chosen.length === 0}
        data-testid={`${testId}-add`}
        onClick={() => add(chosen).then(() => setChosen([]), ignoreShownError)}
      >
        {label}
      </Button>
    </Space.Compact>
  );
}
