import { Link, useIntl } from '@umijs/max';
import { Tag } from 'antd';
import { dictEnum } from '@/components/resource/dict';
import RecordsOf from '@/pages/people/person/RecordsOf';
import { type Trainee, trainees } from './descriptor';

/** The trainees a record holds (an organisation's, a unit's, a tutor's), by cohort, each opening its profile. */
export default function TraineesOf({ filter }: { filter: Record<string, string> }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const statuses = dictEnum('trainee_status');
  return (
    <RecordsOf<Trainee>
      title={t('menu.trainee.list')}
      testId="trainees-of"
      permission="trainee:trainee:list"
      list={trainees.list}
      filter={filter}
      sort="-cohortYear,traineeNo"
      columns={[
        { title: t('people.trainee.cohortYear'), dataIndex: 'cohortYear', width: 80 },
        {
          title: t('people.trainee.name'),
          dataIndex: 'name',
          render: (name: string, row) => <Link to={`/trainee/${row.id}/profile`}>{name}</Link>,
        },
        { title: t('people.trainee.traineeNo'), dataIndex: 'traineeNo' },
        { title: t('people.trainee.traineeTypeName'), dataIndex: 'traineeTypeName' },
        {
          title: t('people.trainee.status'),
          dataIndex: 'status',
          render: (status: string) => (
            <Tag color={statuses.get(status)?.color}>{statuses.get(status)?.text ?? status}</Tag>
          ),
        },
      ]}
    />
  );
}
