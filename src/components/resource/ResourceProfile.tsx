import { ProDescriptions, type ProDescriptionsItemProps } from '@ant-design/pro-components';
import { useIntl, useParams } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Card, Space } from 'antd';
import { type ReactNode, useState } from 'react';
import { useRecordFrame } from '@/components/layout/frame';
import type { ResourceService } from '@/services/resource';
import { asTitle } from '@/utils/i18n';
import { statusOf } from '@/utils/request';
import AuditTimeline from './AuditTimeline';
import RecordNotFound from './RecordNotFound';
import { recordName } from './ResourceForm';
import type { ResourceColumn, RowDescriptor } from './types';
import { useResourceColumns } from './useResourceColumns';
import { useResourceService } from './useResourceControls';

interface Props<Row extends { id: string; version: number }> {
  descriptor: RowDescriptor<Row>;
  /** By default the route's `:id` (`/system/admin/:id/profile`). */
  id?: string;
  /** Sections of the entity between the details and the audit trail; gets the loaded row, and reads it again. */
  children?: (row: Row, reload: () => void) => ReactNode;
  /** What may be done with the record (edit, publish…): buttons in the profile's header, beside its title. */
  actions?: (row: Row, reload: () => void) => ReactNode[];
  service?: ResourceService<Row, never, never>;
}

/** The i18n id of each field the profile shows, by its name: how the audit trail names a changed field. */
const fieldLabels = <Row,>(columns: ResourceColumn<Row>[]): Record<string, string> =>
  Object.fromEntries(
    columns
      .filter((c) => c.hideInDescriptions !== true && !c.searchOnly && typeof c.dataIndex === 'string')
      .map((c) => [c.dataIndex as string, c.titleId]),
  );

/**
 * A record's profile: the descriptor's columns as details, the entity's own sections, its audit trail. Its tab
 * is titled with the record's name; a record that does not exist shows as not found, with no tab.
 */
export default function ResourceProfile<Row extends { id: string; version: number }>({
  descriptor,
  id: givenId,
  children,
  actions,
  service: givenService,
}: Props<Row>) {
  const intl = useIntl();
  const { id: routeId = '' } = useParams<{ id: string }>();
  const id = givenId ?? routeId;
  const service = useResourceService(descriptor, givenService);
  const [missing, setMissing] = useState(false);
  // a missing record is said by the page itself (RecordNotFound), not by a message as well
  const {
    data: row,
    loading,
    refresh,
  } = useRequest(() => service.get(id, { shownByCaller: [404] }), {
    refreshDeps: [id],
    onSuccess: () => setMissing(false),
    onError: (error) => setMissing(statusOf(error) === 404),
  });
  const frame = useRecordFrame(descriptor.titleId, row && recordName(descriptor, row), missing);
  const columns = useResourceColumns(descriptor.columns)
    .filter(({ hideInDescriptions: hidden }) => !(typeof hidden === 'function' ? row && hidden(row) : hidden))
    .map(({ hideInDescriptions: _h, ...column }) => column);
  if (missing) return <RecordNotFound backPath={frame?.backPath} />;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="resource-profile">
      <Card loading={loading && !row}>
        <ProDescriptions<Row>
          title={asTitle(intl.formatMessage({ id: descriptor.titleId }))}
          extra={
            row &&
            actions && (
              <Space wrap className="no-print" data-testid="profile-actions">
                {actions(row, refresh).filter(Boolean)}
              </Space>
            )
          }
          dataSource={row}
          columns={columns as ProDescriptionsItemProps<Row>[]}
          column={{ xs: 1, md: 2, xl: 3 }}
        />
      </Card>
      {row && children?.(row, refresh)}
      {row && (
        <AuditTimeline
          resourceType={descriptor.auditType}
          resourceId={id}
          record={row}
          labels={fieldLabels(descriptor.columns)}
        />
      )}
    </Space>
  );
}
