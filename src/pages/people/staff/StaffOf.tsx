import { Link, useIntl } from '@umijs/max';
import { Tag } from 'antd';
import { dictEnum } from '@/components/resource/dict';
import RecordsOf from '@/pages/people/person/RecordsOf';
import { type Staff, staff } from './descriptor';

/** The staff of a department, each opening its profile. */
export default function StaffOf({ filter }: { filter: Record<string, string> }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const statuses = dictEnum('staff_status');
  const positions = dictEnum('post');
  return (
    <RecordsOf<Staff>
      title={t('people.staff.members')}
      testId="staff-of"
      permission="people:staff:list"
      list={staff.list}
      filter={filter}
      sort="staffNo"
      columns={[
        { title: t('people.staff.staffNo'), dataIndex: 'staffNo' },
        {
          title: t('people.staff.name'),
          dataIndex: 'name',
          render: (name: string, row) => <Link to={`/user/staff/${row.id}/profile`}>{name}</Link>,
        },
        {
          title: t('people.staff.position'),
          dataIndex: 'position',
          render: (value: string | null) => (value ? (positions.get(value)?.text ?? value) : '-'),
        },
        {
          title: t('people.staff.status'),
          dataIndex: 'status',
          render: (status: string) => (
            <Tag color={statuses.get(status)?.color}>{statuses.get(status)?.text ?? status}</Tag>
          ),
        },
      ]}
    />
  );
}
