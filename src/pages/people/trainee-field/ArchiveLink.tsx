import { useIntl } from '@umijs/max';
import { Popconfirm } from 'antd';
import ActionLink from '@/components/ActionLink';
import message from '@/utils/message';
import { setFieldArchived, type TraineeField } from './descriptor';

/** Archive (after a confirmation saying what it does) or restore a field. */
export default function ArchiveLink({ row, onDone }: { row: TraineeField; onDone: () => void }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const archived = row.status === 'archived';
  const run = async () => {
    const done = await setFieldArchived(row, !archived).then(
      () => true,
      () => false,
    );
    if (!done) return;
    message.success(t('resource.saved'));
    onDone();
  };
  if (archived)
    return (
      <ActionLink data-testid="row-restore" onClick={run}>
        {t('people.trainee-field.restore')}
      </ActionLink>
    );
  return (
    <Popconfirm title={t('people.trainee-field.archive.confirm', { name: row.label })} onConfirm={run}>
      <ActionLink data-testid="row-archive">{t('people.trainee-field.archive')}</ActionLink>
    </Popconfirm>
  );
}
