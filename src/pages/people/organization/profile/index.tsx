import '@/pages/people/catalogue';
import { Link, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Card, Empty, Table, Tag } from 'antd';
import ResourceProfile from '@/components/resource/ResourceProfile';
import StaffOf from '@/pages/people/staff/StaffOf';
import TraineesOf from '@/pages/people/trainee/TraineesOf';
import { ignoreShownError } from '@/utils/request';
import { type Organization, organizationDescriptor } from '../descriptor';
import { fetchOrganizationLevel, type OrganizationNode } from '../service';

/** The organisations directly under this one. */
function Children({ id }: { id: string }) {
  const intl = useIntl();
  const t = (key: string) => intl.formatMessage({ id: key });
  const { data, loading } = useRequest(() => fetchOrganizationLevel(id), {
    refreshDeps: [id],
    onError: ignoreShownError,
  });
  return (
    <Card title={t('people.organization.children')} data-testid="organization-children">
      {data && data.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Table<OrganizationNode>
          size="small"
          rowKey="id"
          loading={loading}
          pagination={false}
          dataSource={data ?? []}
          columns={[
            {
              title: t('people.organization.name'),
              dataIndex: 'name',
              render: (name: string, row) => <Link to={`/user/organization/${row.id}/profile`}>{name}</Link>,
            },
            { title: t('people.organization.code'), dataIndex: 'code' },
            {
              title: t('people.organization.orgType'),
              dataIndex: 'orgType',
              render: (type: string) => <Tag>{t(`people.organization.orgType.${type}`)}</Tag>,
            },
          ]}
        />
      )}
    </Card>
  );
}

/**
 * /user/organization/:id/profile: the organisation's details, where it sits, the organisations under it, the trainees
 * of a training or specialty base, its members (staff), and its audit trail.
 */
export default function OrganizationProfile() {
  return (
    <div data-testid="organization-profile">
      <ResourceProfile<Organization> descriptor={organizationDescriptor}>
        {(row) => (
          <>
            <Children id={row.id} />
            <StaffOf filter={{ orgId: row.id }} />
            {row.orgType === 'training_base' && <TraineesOf filter={{ trainingBaseId: row.id }} />}
            {row.orgType === 'specialty_base' && <TraineesOf filter={{ specialtyBaseId: row.id }} />}
          </>
        )}
      </ResourceProfile>
    </div>
  );
}
