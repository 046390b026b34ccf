import '@/pages/dashboard/catalogue';
import { Link, useAccess, useIntl, useModel } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Card, Col, Descriptions, Empty, Row, Space, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { lazy, Suspense } from 'react';
import routes from '@/config/routes';
import { HOME_PATH } from '@/constants';
import { fetchWorkspace, type WorkspaceActivity } from '@/services/workspace';
import { openScreens } from '@/utils/navigation';
import { ignoreShownError } from '@/utils/request';
import RecentImports from './RecentImports';
import WorkspaceCards from './WorkspaceCards';

/** The charting library comes with the charts, to this screen alone and after its numbers. */
const WorkspaceCharts = lazy(() => import('./WorkspaceCharts'));

/** The cards of whoever administers accounts; the others are about training. */
const SECURITY = new Set(['accounts', 'lockedAccounts', 'roles', 'signIns', 'signInFailures']);

function greetingId(hour: number) {
  if (hour < 12) return 'workspace.greeting.morning';
  if (hour < 18) return 'workspace.greeting.afternoon';
  return 'workspace.greeting.evening';
}

/** The landing screen: who is signed in, what they can act on, what they did last, where they can go. */
export default function Workspace() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const { initialState } = useModel('@@initialState');
  const access = useAccess();
  const { data, loading } = useRequest(fetchWorkspace, { onError: ignoreShownError });
  const user = initialState?.currentUser;
  const screens = openScreens(routes, access);
  const shortcuts = screens.filter((screen) => screen.path !== HOME_PATH);
  const cards = data?.cards ?? [];
  const training = cards.filter((card) => !SECURITY.has(card.key));
  const actionName = (entry: WorkspaceActivity) =>
    (intl.locale === 'en-US' ? entry.actionNameEn : entry.actionName) ?? entry.action;

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="workspace">
      <Card>
        <Typography.Title level={3} style={{ marginTop: 0 }} data-testid="workspace-greeting">
          {t(greetingId(dayjs().hour()), { name: user?.displayName || user?.userName || '' })}
        </Typography.Title>
        <Descriptions column={{ xs: 1, md: 2 }}>
          <Descriptions.Item label={t('workspace.tenant')}>
            <span data-testid="workspace-tenant">{user?.tenant.name}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('workspace.roles')}>
            {user?.roles.length ? user.roles.map((r) => <Tag key={r.code}>{r.name}</Tag>) : t('workspace.noRoles')}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <WorkspaceCards cards={training} testId="workspace-cards" />
      {training.some((card) => card.series?.some((s) => s.points.length > 0)) && (
        <Suspense fallback={null}>
          <WorkspaceCharts cards={training} />
        </Suspense>
      )}
      <WorkspaceCards cards={cards.filter((card) => SECURITY.has(card.key))} testId="workspace-security-cards" />
      <RecentImports imports={data?.imports ?? []} screens={screens} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <Card title={t('workspace.activity')} loading={loading && !data} data-testid="workspace-activity">
            {data?.activity.length ? (
              // plain markup: antd's List would bring Pagination and Select into the first screen after sign-in
              <ol style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                {data.activity.map((entry) => (
                  <li
                    key={entry.id}
                    data-testid="workspace-activity-item"
                    style={{ display: 'flex', gap: 16, padding: '6px 0' }}
                  >
                    <Typography.Text type="secondary" style={{ flex: 'none' }}>
                      {dayjs(entry.createdAt).format('YYYY-MM-DD HH:mm')}
                    </Typography.Text>
                    <span>
                      {actionName(entry)}
                      {entry.summary && <Typography.Text type="secondary">{` · ${entry.summary}`}</Typography.Text>}
                    </span>
                  </li>
                ))}
              </ol>
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workspace.activity.none')} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card title={t('workspace.links')} data-testid="workspace-shortcuts">
            <Space wrap size={[16, 8]}>
              {shortcuts.map((screen) => (
                <Link key={screen.path} to={screen.path} data-testid="workspace-shortcut" data-path={screen.path}>
                  {t(screen.titleKey)}
                </Link>
              ))}
            </Space>
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
