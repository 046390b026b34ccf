import '@/pages/people/catalogue';
import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Card, Empty, Table } from 'antd';
import ResourceProfile from '@/components/resource/ResourceProfile';
import DoctorsOf from '@/pages/people/doctor/DoctorsOf';
import ExpertsOf from '@/pages/people/expert/ExpertsOf';
import TraineesOf from '@/pages/people/trainee/TraineesOf';
import { formatDateTime } from '@/utils/dates';
import { ignoreShownError } from '@/utils/request';
import { fetchUnitAliases, type Unit, type UnitAlias, unitDescriptor } from '../descriptor';

/** The names of the units merged into this one. */
function Aliases({ id, version }: { id: string; version: number }) {
  const intl = useIntl();
  const t = (key: string) => intl.formatMessage({ id: key });
  const { data, loading } = useRequest(() => fetchUnitAliases(id), {
    refreshDeps: [id, version],
    onError: ignoreShownError,
  });
  return (
    <Card title={t('people.unit.aliases')} data-testid="unit-aliases">
      {data && data.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('people.unit.aliases.empty')} />
      ) : (
        <Table<UnitAlias>
          size="small"
          rowKey="id"
          loading={loading}
          pagination={false}
          dataSource={data ?? []}
          columns={[
            { title: t('people.unit.name'), dataIndex: 'name' },
            { title: t('people.unit.creditCode'), dataIndex: 'creditCode', render: (code) => code ?? '-' },
            {
              title: t('people.unit.aliases.mergedAt'),
              dataIndex: 'createdAt',
              render: (at: string) => formatDateTime(at),
            },
          ]}
        />
      )}
    </Card>
  );
}

/**
 * /units/:id/profile: the unit's details, the names merged into it, the trainees it sent (by cohort), its doctors, its
 * experts and its audit trail.
 */
export default function UnitProfile() {
  return (
    <div data-testid="unit-profile">
      <ResourceProfile<Unit> descriptor={unitDescriptor}>
        {(row) => (
          <>
            <Aliases id={row.id} version={row.version} />
            <TraineesOf filter={{ workUnitId: row.id }} />
            <DoctorsOf filter={{ unitId: row.id }} />
            <ExpertsOf filter={{ unitId: row.id }} />
          </>
        )}
      </ResourceProfile>
    </div>
  );
}
