import { useRequest } from 'ahooks';
import { Card, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import type { PermissionCode } from '@/access';
import useCan from '@/hooks/useCan';
import type { ListAnswer } from '@/services/resource';
import { ignoreShownError } from '@/utils/request';

const PAGE = 10;

interface Props<Row> {
  title: string;
  testId: string;
  /** Whoever may not list them sees nothing (and nothing is asked for). */
  permission: PermissionCode;
  list: (query: Record<string, string>) => Promise<ListAnswer<Row>>;
  filter: Record<string, string>;
  sort: string;
  columns: ColumnsType<Row>;
}

/**
 * The records another one holds (an organisation's staff, a unit's doctors, a tutor's trainees), a page at a time,
 * within the viewer's data scope (the list's own).
 */
export default function RecordsOf<Row extends { id: string }>({
  title,
  testId,
  permission,
  list,
  filter,
  sort,
  columns,
}: Props<Row>) {
  const canList = useCan(permission);
  const [current, setCurrent] = useState(1);
  const key = JSON.stringify(filter);
  const { data, loading } = useRequest(
    () =>
      canList
        ? list({ ...filter, current: String(current), pageSize: String(PAGE), sort })
        : Promise.resolve(undefined),
    { refreshDeps: [key, current, canList], onError: ignoreShownError },
  );
  if (!canList) return null;
  return (
    <Card title={`${title} (${data?.total ?? 0})`} data-testid={testId}>
      <Table<Row>
        size="small"
        rowKey="id"
        loading={loading}
        dataSource={data?.data ?? []}
        pagination={{ current, pageSize: PAGE, total: data?.total ?? 0, onChange: setCurrent, hideOnSinglePage: true }}
        columns={columns}
      />
    </Card>
  );
}
