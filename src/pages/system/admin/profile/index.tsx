import '@/pages/system/catalogue';
import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Card, Empty, Space, Table, Tag } from 'antd';
import ResourceProfile from '@/components/resource/ResourceProfile';
import { fetchLoginLogs, type LoginLog } from '@/services/audit';
import { formatDateTime } from '@/utils/dates';
import { ignoreShownError } from '@/utils/request';
import { type AdminUser, adminUserDescriptor } from '../descriptor';

function RecentSignIns({ userId }: { userId: string }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { data, loading } = useRequest(() => fetchLoginLogs(userId), {
    refreshDeps: [userId],
    onError: ignoreShownError,
  });
  return (
    <Card title={t('system.admin.signIns')} data-testid="admin-sign-ins">
      <Table<LoginLog>
        size="small"
        rowKey="id"
        loading={loading}
        pagination={false}
        dataSource={data?.data ?? []}
        columns={[
          {
            title: t('system.admin.signIns.at'),
            dataIndex: 'createdAt',
            render: (at: string) => formatDateTime(at),
          },
          {
            title: t('system.admin.signIns.type'),
            dataIndex: 'logType',
            render: (type: string) => intl.formatMessage({ id: `system.admin.logType.${type}`, defaultMessage: type }),
          },
          {
            title: t('system.admin.signIns.result'),
            dataIndex: 'result',
            render: (result: LoginLog['result'], log) => (
              <Tag color={result === 'success' ? 'success' : 'error'}>
                {t(`system.admin.signIns.${result}`)}
                {log.reason
                  ? ` · ${intl.formatMessage({ id: `system.admin.reason.${log.reason}`, defaultMessage: log.reason })}`
                  : ''}
              </Tag>
            ),
          },
          { title: t('system.admin.signIns.ip'), dataIndex: 'ip' },
          { title: t('system.admin.signIns.userAgent'), dataIndex: 'userAgent', ellipsis: true },
        ]}
      />
    </Card>
  );
}

/** /system/admin/:id/profile: the account, its roles, recent sign-ins and audit trail. */
export default function AdminUserProfile() {
  const intl = useIntl();
  return (
    <div data-testid="admin-profile">
      <ResourceProfile<AdminUser> descriptor={adminUserDescriptor}>
        {(row) => (
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <Card title={intl.formatMessage({ id: 'system.admin.roles' })} data-testid="admin-roles">
              {row.roles.length ? (
                row.roles.map((r) => <Tag key={r.id}>{`${r.name} (${r.code})`}</Tag>)
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
              )}
            </Card>
            <RecentSignIns userId={row.id} />
          </Space>
        )}
      </ResourceProfile>
    </div>
  );
}
