import { Link, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Card, Table, Tag } from 'antd';
import { useState } from 'react';
import { dictEnum } from '@/components/resource/dict';
import useCan from '@/hooks/useCan';
import { ignoreShownError } from '@/utils/request';
import { type Staff, staff } from './descriptor';

const PAGE = 10;

/** The staff of a department, a page at a time, each opening its profile; within the viewer's data scope. */
export default function StaffOf({ filter }: { filter: Record<string, string> }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const canList = useCan('people:staff:list');
  const [current, setCurrent] = useState(1);
  const key = JSON.stringify(filter);
  const { data, loading } = useRequest(
    () =>
      canList
        ? staff.list({ ...filter, current: String(current), pageSize: String(PAGE), sort: 'staffNo' })
        : Promise.resolve(undefined),
    { refreshDeps: [key, current, canList], onError: ignoreShownError },
  );
  if (!canList) return null;
  const statuses = dictEnum('staff_status');
  const positions = dictEnum('post');
  return (
    <Card title={`${t('people.staff.members')} (${data?.total ?? 0})`} data-testid="staff-of">
      <Table<Staff>
        size="small"
        rowKey="id"
        loading={loading}
        dataSource={data?.data ?? []}
        pagination={{ current, pageSize: PAGE, total: data?.total ?? 0, onChange: setCurrent, hideOnSinglePage: true }}
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
    </Card>
  );
}
