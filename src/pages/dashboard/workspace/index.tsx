import { ApiOutlined, SafetyOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { Link, useIntl, useModel } from '@umijs/max';
import { useRequest } from 'ahooks';
import { ignoreShownError } from '@/utils/request';
import { Badge, Card, Col, Descriptions, Row, Space, Statistic, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { fetchHealth, fetchMe } from '@/services/auth';

function greetingId(hour: number) {
  if (hour < 12) return 'workspace.greeting.morning';
  if (hour < 18) return 'workspace.greeting.afternoon';
  return 'workspace.greeting.evening';
}

/** The landing screen: who is signed in, where, with what, and whether the service is well. */
export default function Workspace() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const { initialState } = useModel('@@initialState');
  const { data: me } = useRequest(fetchMe, { cacheKey: 'auth-me', onError: ignoreShownError });
  const { data: health } = useRequest(fetchHealth, { onError: ignoreShownError });
  const user = me ?? initialState?.currentUser;

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="workspace">
      <Card>
        <Typography.Title level={3} style={{ marginTop: 0 }} data-testid="workspace-greeting">
          {t(greetingId(dayjs().hour()), { name: user?.displayName ?? user?.userName ?? '' })}
        </Typography.Title>
        <Descriptions column={{ xs: 1, md: 2 }}>
          <Descriptions.Item label={t('workspace.tenant')}>
            <span data-testid="workspace-tenant">{user?.tenant.name}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('workspace.roles')}>
            {user?.roles.length ? user.roles.map((r) => <Tag key={r.code}>{r.name}</Tag>) : t('workspace.noRoles')}
          </Descriptions.Item>
          <Descriptions.Item label={t('workspace.clientType')}>{user?.clientType}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Card>
            <Statistic
              title={t('workspace.permissions')}
              value={user?.permissions.length ?? 0}
              prefix={<SafetyOutlined />}
              valueRender={(node) => <span data-testid="workspace-permission-count">{node}</span>}
            />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card>
            <Statistic
              title={t('workspace.roles')}
              value={user?.roles.length ?? 0}
              prefix={<TeamOutlined />}
            />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card title={t('workspace.health')} size="small">
            <Space direction="vertical">
              <Badge
                data-testid="workspace-health"
                status={health?.status === 'ok' ? 'success' : 'error'}
                text={t(health?.status === 'ok' ? 'workspace.health.ok' : 'workspace.health.down')}
              />
              <span>
                {t('workspace.engine')}: {health?.engine ?? '-'}
              </span>
            </Space>
          </Card>
        </Col>
      </Row>
      <Card title={t('workspace.links')}>
        <Space size="large">
          <Link to="/account/center">
            <UserOutlined /> {t('workspace.link.account')}
          </Link>
          <a href="/api/docs" target="_blank" rel="noreferrer">
            <ApiOutlined /> {t('workspace.link.apiDocs')}
          </a>
        </Space>
      </Card>
    </Space>
  );
}
