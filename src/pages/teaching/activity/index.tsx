import '@/pages/teaching/catalogue';
import { BarChartOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { Button, Popconfirm } from 'antd';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import { CancelDialog, StatsDrawer } from './ActivityDialogs';
import ActivityForm from './ActivityForm';
import { type Activity, activityDescriptor, LIVE, publishActivity } from './descriptor';

/**
 * /teach/teaching/list: the departments' teaching activities by title or place, type, status and date; planned in a
 * drawer, published to their audience, cancelled with a reason; attendance and ratings on each profile; statistics by
 * month, department and type.
 */
export default function ActivityListPage() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const actionRef = useRef<TableActions>();
  const [cancelling, setCancelling] = useState<Activity>();
  const [stats, setStats] = useState(false);
  const reload = () => actionRef.current?.reload();
  return (
    <div data-testid="teaching-activity">
      <ResourceTable<Activity>
        descriptor={activityDescriptor}
        actionRef={actionRef}
        renderForm={(props) => <ActivityForm {...props} />}
        toolbarExtra={[
          <Button
            key="stats"
            icon={<BarChartOutlined />}
            data-testid="activity-stats-open"
            onClick={() => setStats(true)}
          >
            {t('teaching.activity.stats')}
          </Button>,
        ]}
        rowActions={(row, { can }) => [
          row.status === 'draft' && can('teaching:activity:publish') && (
            <Popconfirm
              key="publish"
              title={t('teaching.activity.publish.confirm')}
              onConfirm={() =>
                publishActivity(row).then(() => {
                  message.success(t('teaching.activity.published'));
                  reload();
                }, ignoreShownError)
              }
            >
              <ActionLink data-testid="activity-publish">{t('teaching.activity.publish')}</ActionLink>
            </Popconfirm>
          ),
          ['draft', ...LIVE].includes(row.status) && can('teaching:activity:publish') && (
            <ActionLink key="cancel" danger data-testid="activity-cancel" onClick={() => setCancelling(row)}>
              {t('teaching.activity.cancel')}
            </ActionLink>
          ),
        ]}
      />
      <CancelDialog
        activity={cancelling}
        onClose={() => setCancelling(undefined)}
        onDone={() => {
          setCancelling(undefined);
          reload();
        }}
      />
      <StatsDrawer open={stats} onClose={() => setStats(false)} />
    </div>
  );
}
