import { Link, useIntl } from '@umijs/max';
import { Tag } from 'antd';
import { dictEnum } from '@/components/resource/dict';
import RecordsOf from '@/pages/people/person/RecordsOf';
import { type Expert, experts } from './descriptor';

/** The experts a record holds (a unit's, a department's), each opening its profile. */
export default function ExpertsOf({ filter }: { filter: Record<string, string> }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const levels = dictEnum('expert_level');
  const statuses = dictEnum('expert_status');
  return (
    <RecordsOf<Expert>
      title={t('menu.expert.users')}
      testId="experts-of"
      permission="expert:expert:list"
      list={experts.list}
      filter={filter}
      sort="expertNo"
      columns={[
        {
          title: t('people.expert.name'),
          dataIndex: 'name',
          render: (name: string, row) => <Link to={`/expert/users/${row.id}/profile`}>{name}</Link>,
        },
        { title: t('people.expert.expertNo'), dataIndex: 'expertNo' },
        {
          title: t('people.expert.expertLevel'),
          dataIndex: 'expertLevel',
          render: (level: string) => levels.get(level)?.text ?? level,
        },
        {
          title: t('people.expert.status'),
          dataIndex: 'status',
          render: (status: string) => (
            <Tag color={statuses.get(status)?.color}>{statuses.get(status)?.text ?? status}</Tag>
          ),
        },
      ]}
    />
  );
}
