import { ModalForm, ProFormTextArea } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { type ButtonProps, DatePicker, Drawer, Form, Segmented, Space, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { dictEnum } from '@/components/resource/dict';
import { LazyOrganizationPicker } from '@/pages/people/organization/pickers';
import { readerTimeZone } from '@/utils/dates';
import { fieldErrorsOn } from '@/utils/formErrors';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import {
  type Activity,
  type ActivityStats,
  cancelActivity,
  fetchHostStats,
  fetchStats,
  type HostStats,
} from './descriptor';

/** Cancel an activity, with the reason (required). */
export function CancelDialog({
  activity,
  onClose,
  onDone,
}: {
  activity?: Activity;
  onClose: () => void;
  onDone: (row: Activity) => void;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [form] = Form.useForm();
  return (
    <ModalForm<{ reason: string }>
      form={form}
      open={Boolean(activity)}
      title={`${t('teaching.activity.cancel')} · ${activity?.title ?? ''}`}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      submitter={{ submitButtonProps: { 'data-testid': 'cancel-submit' } as ButtonProps }}
      onFinish={async ({ reason }) => {
        if (!activity) return false;
        try {
          const row = await cancelActivity(activity, reason, fieldErrorsOn(form));
          message.success(t('teaching.activity.cancelled'));
          onDone(row);
          return true;
        } catch {
          return false;
        }
      }}
    >
      <ProFormTextArea
        name="reason"
        label={t('teaching.activity.cancelReason')}
        rules={[{ required: true }]}
        fieldProps={{ maxLength: 500, 'data-testid': 'cancel-reason' } as object}
      />
    </ModalForm>
  );
}

const percent = (value: number | null) => (value === null ? '-' : `${Math.round(value * 1000) / 10}%`);

/**
 * Published and completed activities by month, department and type, or by host (co-hosts too), over a range of days (a
 * year by default), of one department or all.
 */
export function StatsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [by, setBy] = useState<'org' | 'host'>('org');
  const [orgId, setOrgId] = useState<string>();
  const types = dictEnum('activity_type');
  const query = () => ({
    timeZone: readerTimeZone(),
    ...(range && { from: range[0].format('YYYY-MM-DD'), to: range[1].format('YYYY-MM-DD') }),
    ...(orgId && { orgId }),
  });
  const { data = [], loading } = useRequest(() => fetchStats(query()), {
    ready: open && by === 'org',
    refreshDeps: [open, range, by, orgId],
    onError: ignoreShownError,
  });
  const { data: hosts = [], loading: hostsLoading } = useRequest(() => fetchHostStats(query()), {
    ready: open && by === 'host',
    refreshDeps: [open, range, by, orgId],
    onError: ignoreShownError,
  });
  const figures = [
    { title: t('teaching.activity.stats.participants'), dataIndex: 'participants', width: 90 },
    { title: t('teaching.activity.stats.attended'), dataIndex: 'attended', width: 90 },
    {
      title: t('teaching.activity.stats.attendanceRate'),
      dataIndex: 'attendanceRate',
      width: 90,
      render: percent,
    },
    {
      title: t('teaching.activity.avgRating'),
      dataIndex: 'avgRating',
      width: 90,
      render: (v: number | null) => v ?? '-',
    },
  ];
  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={900}
      title={t('teaching.activity.stats.title')}
      destroyOnHidden
      data-testid="activity-stats"
    >
      <Space style={{ marginBottom: 16 }} wrap>
        <Segmented
          value={by}
          onChange={(value) => setBy(value as 'org' | 'host')}
          options={[
            { value: 'org', label: t('teaching.activity.stats.byOrg') },
            {
              value: 'host',
              label: <span data-testid="activity-stats-by-host">{t('teaching.activity.stats.byHost')}</span>,
            },
          ]}
        />
        {t('teaching.activity.stats.range')}
        <DatePicker.RangePicker value={range} onChange={(value) => setRange(value as [Dayjs, Dayjs] | null)} />
        {t('teaching.activity.orgId')}
        <div style={{ width: 240 }}>
          <LazyOrganizationPicker
            value={orgId}
            onChange={(value) => setOrgId(value as string | undefined)}
            data-testid="activity-stats-org"
          />
        </div>
      </Space>
      {by === 'org' ? (
        <Table<ActivityStats>
          size="small"
          loading={loading}
          rowKey={(r) => `${r.month}-${r.orgId}-${r.activityType}`}
          dataSource={data}
          pagination={{ pageSize: 50, hideOnSinglePage: true }}
          columns={[
            { title: t('teaching.activity.stats.month'), dataIndex: 'month', width: 90 },
            { title: t('teaching.activity.orgName'), dataIndex: 'orgName' },
            {
              title: t('teaching.activity.activityType'),
              dataIndex: 'activityType',
              render: (type: string) => <Tag color={types.get(type)?.color}>{types.get(type)?.text ?? type}</Tag>,
            },
            { title: t('teaching.activity.stats.activities'), dataIndex: 'activities', width: 70 },
            ...figures,
          ]}
        />
      ) : (
        <Table<HostStats>
          size="small"
          loading={hostsLoading}
          rowKey="doctorId"
          dataSource={hosts}
          pagination={{ pageSize: 50, hideOnSinglePage: true }}
          data-testid="activity-host-stats"
          columns={[
            { title: t('teaching.activity.stats.doctor'), dataIndex: 'doctorName' },
            { title: t('teaching.activity.stats.hosted'), dataIndex: 'hosted', width: 70 },
            { title: t('teaching.activity.stats.coHosted'), dataIndex: 'coHosted', width: 90 },
            ...figures,
          ]}
        />
      )}
    </Drawer>
  );
}
