import { Link, useIntl } from '@umijs/max';
import { Tag } from 'antd';
import { dictEnum } from '@/components/resource/dict';
import RecordsOf from '@/pages/people/person/RecordsOf';
import { type Doctor, doctors } from './descriptor';

/** The doctors a record holds (a unit's, a department's), each opening its profile. */
export default function DoctorsOf({ filter }: { filter: Record<string, string> }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const statuses = dictEnum('doctor_status');
  return (
    <RecordsOf<Doctor>
      title={t('people.doctor.all')}
      testId="doctors-of"
      permission="people:doctor:list"
      list={doctors.list}
      filter={filter}
      sort="doctorNo"
      columns={[
        {
          title: t('people.doctor.name'),
          dataIndex: 'name',
          render: (name: string, row) => <Link to={`/doctor/${row.id}/profile`}>{name}</Link>,
        },
        { title: t('people.doctor.doctorNo'), dataIndex: 'doctorNo' },
        { title: t('people.doctor.doctorTypeName'), dataIndex: 'doctorTypeName' },
        {
          title: t('people.doctor.status'),
          dataIndex: 'status',
          render: (status: string) => (
            <Tag color={statuses.get(status)?.color}>{statuses.get(status)?.text ?? status}</Tag>
          ),
        },
      ]}
    />
  );
}
