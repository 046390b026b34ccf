import { Link, useIntl } from '@umijs/max';
import { Card, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import type { WorkspaceImport } from '@/services/workspace';
import type { OpenScreen } from '@/utils/navigation';

const COLOR: Record<WorkspaceImport['status'], string> = {
  queued: 'default',
  validating: 'processing',
  applying: 'processing',
  undoing: 'warning',
  done: 'success',
  failed: 'error',
  cancelled: 'default',
};

/** The tenant's latest imports the user may make, each with the list of what it brought. */
export default function RecentImports({ imports, screens }: { imports: WorkspaceImport[]; screens: OpenScreen[] }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  if (imports.length === 0) return null;
  return (
    <Card title={t('workspace.imports')} data-testid="workspace-imports">
      <ol style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {imports.map((job) => {
          const screen = screens.find((s) => s.access === job.listPermission);
          return (
            <li key={job.id} data-testid="workspace-import" style={{ display: 'flex', gap: 12, padding: '6px 0' }}>
              <Typography.Text type="secondary" style={{ flex: 'none' }}>
                {dayjs(job.createdAt).format('YYYY-MM-DD HH:mm')}
              </Typography.Text>
              <span style={{ flex: 1, minWidth: 0 }}>
                {screen ? <Link to={screen.path}>{t(screen.titleKey)}</Link> : job.resource}
                <Typography.Text type="secondary">{` · ${job.fileName}`}</Typography.Text>
                {job.total !== null && (
                  <Typography.Text type="secondary">{` · ${t('workspace.imports.rows', { total: job.total })}`}</Typography.Text>
                )}
              </span>
              <Tag color={COLOR[job.status]}>{t(`workspace.imports.status.${job.status}`)}</Tag>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
