import '@/pages/community/catalogue';
import { ProFormDependency, ProFormDigit, ProFormSelect, ProFormTextArea } from '@ant-design/pro-components';
import type {
  CreateReport,
  ReportCase,
  ReportRow,
  ResolveCase,
} from '@server/modules/community/report/report.resource';
import { Link, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import RecordModalForm from '@/components/RecordModalForm';
import { dictEnum } from '@/components/resource/dict';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import { formatDateTime } from '@/utils/dates';
import request, { ignoreShownError } from '@/utils/request';

export type { ReportCase };

export const reportCases = resourceService<ReportCase, CreateReport, ResolveCase>('community/report');
export const fetchCases = (query: Record<string, string>) => reportCases.list(query);
const fetchReports = (id: string) => request.get<ReportRow[]>(`/api/community/report/${id}/reports`);

const STATUS_COLOURS: Record<ReportCase['status'], string> = {
  pending: 'processing',
  resolved: 'success',
  dismissed: 'default',
  ignored: 'default',
};
const ACTIONS: ResolveCase['action'][] = ['hide', 'delete', 'dismiss', 'ignore', 'warn_author', 'mute_author'];

type Intl = ReturnType<typeof useIntl>;

/** Where a case's target is seen: a post or reply on the post's profile. */
const TargetLink = ({ row }: { row: ReportCase }) =>
  row.targetSnapshot.postId ? (
    <Link to={`/post/${row.targetSnapshot.postId}/profile/`}>{row.targetSnapshot.title ?? row.targetId}</Link>
  ) : (
    <span>{row.targetSnapshot.authorName ?? row.targetId}</span>
  );

/** The columns a case shows in a small table (a post's profile). */
export const caseColumns = (intl: Intl): ColumnsType<ReportCase> => {
  const t = (id: string) => intl.formatMessage({ id });
  return [
    { title: t('community.report.createdAt'), render: (_, r) => formatDateTime(r.createdAt) },
    { title: t('community.report.reportCount'), dataIndex: 'reportCount' },
    {
      title: t('community.report.reasons'),
      render: (_, r) => r.reasons.map((reason) => <Tag key={reason}>{t(`community.report.reason.${reason}`)}</Tag>),
    },
    {
      title: t('community.report.status'),
      render: (_, r) => <Tag color={STATUS_COLOURS[r.status]}>{t(`community.report.status.${r.status}`)}</Tag>,
    },
    {
      title: t('community.report.resolution'),
      render: (_, r) => (r.resolution ? t(`community.report.resolution.${r.resolution}`) : '-'),
    },
  ];
};

/** Report cases (docs/domain.md §5.6): /report/list, API community/report, permission prefix community:report. */
export const reportDescriptor = describeResource<ReportCase, CreateReport, ResolveCase>(
  'community/report',
  (column) => ({
    auditType: 'report_case',
    recordName: (row) => row.targetSnapshot.title ?? row.targetId,
    allows: (row, action) => action === 'delete' && row.status !== 'pending',
    form: { create: ['targetType', 'targetId', 'reason', 'description'], update: [] },
    columns: [
      column('targetType', {
        options: (['post', 'reply', 'user'] as const).map((value) => ({
          value,
          labelId: `community.report.targetType.${value}`,
        })),
        required: true,
      }),
      column('targetId', { hideInTable: true, required: true }),
      column('target', {
        hideInSearch: true,
        hideInForm: true,
        render: (_dom, row) => (
          <Space direction="vertical" size={0}>
            <TargetLink row={row} />
            {row.targetSnapshot.excerpt && (
              <Typography.Text type="secondary" ellipsis style={{ maxWidth: 320 }}>
                {row.targetSnapshot.excerpt}
              </Typography.Text>
            )}
          </Space>
        ),
      }),
      column('author', { hideInSearch: true, hideInForm: true, render: (_d, row) => row.targetSnapshot.authorName }),
      column('targetStatus', {
        hideInSearch: true,
        hideInForm: true,
        render: (_d, row) => (
          <Space size={4}>
            <TargetStatus row={row} />
            {row.autoHidden && (
              <Tag color="warning" data-testid="case-auto-hidden">
                <FormattedAutoHidden />
              </Tag>
            )}
          </Space>
        ),
      }),
      column('reportCount', { hideInSearch: true, hideInForm: true, sorter: true }),
      column('reasons', {
        hideInSearch: true,
        hideInForm: true,
        render: (_d, row) => row.reasons.map((reason) => <ReasonTag key={reason} reason={reason} />),
      }),
      column('reason', {
        hideInTable: true,
        hideInSearch: true,
        hideInDescriptions: true,
        required: true,
        options: (['spam', 'abuse', 'off_topic', 'misinformation', 'privacy_leak', 'illegal', 'other'] as const).map(
          (value) => ({ value, labelId: `community.report.reason.${value}` }),
        ),
      }),
      column('description', { valueType: 'textarea', hideInTable: true, hideInSearch: true, hideInDescriptions: true }),
      column('status', {
        hideInForm: true,
        options: (Object.keys(STATUS_COLOURS) as ReportCase['status'][]).map((value) => ({
          value,
          labelId: `community.report.status.${value}`,
          color: STATUS_COLOURS[value],
        })),
      }),
      column('resolution', {
        hideInSearch: true,
        hideInForm: true,
        options: (['keep', 'hide', 'delete', 'delete_and_block_author', 'warn_author', 'mute_author'] as const).map(
          (value) => ({ value, labelId: `community.report.resolution.${value}` }),
        ),
      }),
      column('handledByName', { hideInSearch: true, hideInForm: true, hideInTable: true }),
      column('handleNote', { hideInSearch: true, hideInForm: true, hideInTable: true }),
      column('createdAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
    ],
  }),
);

/** The reported content's status now by its label: a post's or reply's, a user's from the admin_user_status dictionary. */
function TargetStatus({ row }: { row: ReportCase }) {
  const intl = useIntl();
  if (!row.targetStatus) return <>-</>;
  if (row.targetType === 'user')
    return <>{dictEnum('admin_user_status').get(row.targetStatus)?.text ?? row.targetStatus}</>;
  // a reply's statuses are a post's
  return <>{intl.formatMessage({ id: `community.post.status.${row.targetStatus}` })}</>;
}

function FormattedAutoHidden() {
  return <>{useIntl().formatMessage({ id: 'community.report.autoHidden' })}</>;
}
function ReasonTag({ reason }: { reason: string }) {
  return <Tag>{useIntl().formatMessage({ id: `community.report.reason.${reason}` })}</Tag>;
}

/** The reports a case gathers, in the order they came. */
function CaseReports({ id }: { id: string }) {
  const intl = useIntl();
  const t = (key: string) => intl.formatMessage({ id: key });
  const { data = [] } = useRequest(() => fetchReports(id), { onError: ignoreShownError });
  return (
    <Table<ReportRow>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={data}
      data-testid="case-reports"
      columns={[
        { title: t('community.report.reporterName'), dataIndex: 'reporterName' },
        { title: t('community.report.reason'), render: (_, r) => t(`community.report.reason.${r.reason}`) },
        { title: t('community.report.description'), dataIndex: 'description' },
        { title: t('community.report.createdAt'), render: (_, r) => formatDateTime(r.createdAt) },
      ]}
    />
  );
}

/** A pending case handled: what is done to the content or its author, and a note; recorded and audited. */
function ResolveDialog({ row, onClose, onDone }: { row?: ReportCase; onClose: () => void; onDone: () => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const actions = ACTIONS.filter((a) => row?.targetType !== 'user' || (a !== 'hide' && a !== 'delete'));
  return (
    <RecordModalForm<{ action: ResolveCase['action']; note?: string; muteDays?: number }>
      record={row}
      title={t('community.report.resolve')}
      initialValues={{ action: row?.targetType === 'user' ? 'warn_author' : 'hide' }}
      submitTestId="case-resolve-submit"
      save={(values, options) =>
        reportCases.action(row?.id ?? '', 'resolve', { ...values, version: row?.version }, options)
      }
      onClose={onClose}
      onSaved={onDone}
    >
      <ProFormSelect
        name="action"
        label={t('community.report.action')}
        rules={[{ required: true }]}
        fieldProps={{ 'data-testid': 'case-action' } as object}
        options={actions.map((value) => ({ value, label: t(`community.report.action.${value}`) }))}
      />
      <ProFormDependency name={['action']}>
        {({ action }) =>
          action === 'mute_author' && (
            <ProFormDigit name="muteDays" label={t('community.report.muteDays')} min={1} max={365} initialValue={7} />
          )
        }
      </ProFormDependency>
      <ProFormTextArea name="note" label={t('community.report.note')} fieldProps={{ maxLength: 500 }} />
    </RecordModalForm>
  );
}

/**
 * /report/list: one case per reported post, reply or user while it is pending, with its count of reporters and its
 * distinct reasons; each handled (hide or delete the content, dismiss, ignore, warn or suspend the author).
 */
export default function ReportPage() {
  const intl = useIntl();
  const actionRef = useRef<TableActions>();
  const [resolving, setResolving] = useState<ReportCase>();
  return (
    <div data-testid="community-report">
      <ResourceTable<ReportCase>
        descriptor={reportDescriptor}
        actionRef={actionRef}
        createDefaults={{ targetType: 'post' }}
        tableProps={{ expandable: { expandedRowRender: (row) => <CaseReports id={row.id} /> } }}
        rowActions={(row, { can }) => [
          row.status === 'pending' && can('community:report:resolve') && (
            <ActionLink key="resolve" data-testid="case-resolve" onClick={() => setResolving(row)}>
              {intl.formatMessage({ id: 'community.report.resolve' })}
            </ActionLink>
          ),
        ]}
      />
      <ResolveDialog
        row={resolving}
        onClose={() => setResolving(undefined)}
        onDone={() => {
          setResolving(undefined);
          actionRef.current?.reload();
        }}
      />
    </div>
  );
}
