import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Card, Empty, Timeline, Typography } from 'antd';
import { type AuditLog, fetchAuditLogs } from '@/services/audit';
import { changedFields, summaryWithoutFields } from '@/utils/auditSummary';
import { formatDateTime } from '@/utils/dates';
import { ignoreShownError } from '@/utils/request';

/** The server's summary without the changed fields' API names (`mobile, status`), which the timeline labels instead. */
const summaryOf = (log: AuditLog) =>
  summaryWithoutFields(log.summary, [...Object.keys(log.before ?? {}), ...Object.keys(log.after ?? {})]);

/**
 * The record's audit trail, newest first, read again each time the record is (an action's reload adds its entry). A
 * change names the fields it changed by their labels (`labels`: a field's i18n id, as the profile titles it); fields
 * the profile does not show are left out, and so are a creation's.
 */
export default function AuditTimeline({
  resourceType,
  resourceId,
  record,
  labels = {},
}: {
  resourceType: string;
  resourceId: string;
  /** The record as last read: a new reading reads the trail again. */
  record: object;
  labels?: Record<string, string>;
}) {
  const intl = useIntl();
  const { data, loading } = useRequest(() => fetchAuditLogs(resourceType, resourceId), {
    refreshDeps: [resourceType, resourceId, record],
    onError: ignoreShownError,
  });
  const verb = (log: AuditLog) => {
    const action = log.action.split(':').pop() ?? log.action;
    return intl.formatMessage({ id: `resource.audit.action.${action}`, defaultMessage: log.action });
  };
  const rows = data?.data ?? [];
  return (
    <Card
      title={intl.formatMessage({ id: 'resource.audit.title' })}
      loading={loading && !data}
      data-testid="audit-timeline"
    >
      {rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Timeline
          items={rows.map((log) => {
            const fields = log.before
              ? changedFields(log.before, log.after).flatMap((field) => {
                  const id = labels[field];
                  return id ? [intl.formatMessage({ id })] : [];
                })
              : [];
            return {
              key: log.id,
              children: (
                <div data-testid="audit-entry" data-action={log.action}>
                  <Typography.Text strong>{verb(log)}</Typography.Text>
                  {' · '}
                  {log.actorId ? (log.actorName ?? '-') : intl.formatMessage({ id: 'resource.audit.system' })}
                  {' · '}
                  <Typography.Text type="secondary">{formatDateTime(log.createdAt)}</Typography.Text>
                  {summaryOf(log) && <div>{summaryOf(log)}</div>}
                  {fields.length > 0 && (
                    <Typography.Text type="secondary">
                      {intl.formatMessage({ id: 'resource.audit.fields' }, { fields: fields.join(', ') })}
                    </Typography.Text>
                  )}
                </div>
              ),
            };
          })}
        />
      )}
    </Card>
  );
}
