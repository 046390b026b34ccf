import { Link, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Card, Table, Tag } from 'antd';
import { useState } from 'react';
import { dictEnum } from '@/components/resource/dict';
import useCan from '@/hooks/useCan';
import { ignoreShownError } from '@/utils/request';
import { type Trainee, trainees } from './descriptor';

const PAGE = 10;

/**
 * The trainees a record holds (an organisation's, a unit's), a page at a time, by cohort, each opening its profile;
 * only to whoever may list trainees, and within their data scope (the list's own).
 */
export default function TraineesOf({ filter }: { filter: Record<string, string> }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const canList = useCan('trainee:trainee:list');
  const [current, setCurrent] = useState(1);
  const key = JSON.stringify(filter);
  const { data, loading } = useRequest(
    () =>
      canList
        ? trainees.list({ ...filter, current: String(current), pageSize: String(PAGE), sort: '-cohortYear,traineeNo' })
        : Promise.resolve(undefined),
    { refreshDeps: [key, current, canList], onError: ignoreShownError },
  );
  if (!canList) return null;
  const statuses = dictEnum('trainee_status');
  return (
    <Card title={`${t('menu.trainee.list')} (${data?.total ?? 0})`} data-testid="trainees-of">
      <Table<Trainee>
        size="small"
        rowKey="id"
        loading={loading}
        dataSource={data?.data ?? []}
        pagination={{ current, pageSize: PAGE, total: data?.total ?? 0, onChange: setCurrent, hideOnSinglePage: true }}
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
    </Card>
  );
}
