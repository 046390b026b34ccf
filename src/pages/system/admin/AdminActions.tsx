import { DownOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { Dropdown, type ModalFuncProps } from 'antd';
import ActionLink from '@/components/ActionLink';
import type { RowActionContext } from '@/components/resource/ResourceTable';
import message from '@/utils/message';
import type { AdminUser } from './descriptor';
import { changeStatus, forceLogout, resetPassword, type StatusAction } from './service';

const statusActions = (status: AdminUser['status']): StatusAction[] =>
  status === 'enabled' ? ['disable'] : status === 'disabled' ? ['enable'] : ['unlock', 'disable'];

interface Props {
  row: AdminUser;
  context: RowActionContext;
  confirm: (config: ModalFuncProps) => unknown;
  onPassword: (row: AdminUser, temporaryPassword: string) => void;
  onAssignRoles: (row: AdminUser) => void;
}

/** The account's own actions (docs/domain.md §2.4), each behind its code and a confirmation. */
export default function AdminActions({ row, context, confirm, onPassword, onAssignRoles }: Props) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const name = row.displayName || row.userName;

  const ask = (action: string, run: () => Promise<unknown>) =>
    confirm({
      title: t(`system.admin.action.${action}`),
      content: t(`system.admin.confirm.${action}`, { name }),
      okText: t('resource.ok'),
      cancelText: t('resource.cancel'),
      okButtonProps: { 'data-testid': 'confirm-ok' },
      // a failed call closes the confirmation; the request layer has said why
      onOk: () => run().catch(() => undefined),
    });

  const items = [
    context.can('system:admin:reset-password') && {
      key: 'reset-password',
      onClick: () =>
        ask('reset-password', async () => {
          const { temporaryPassword } = await resetPassword(row.id);
          onPassword(row, temporaryPassword);
          context.reload();
        }),
    },
    ...(context.can('system:admin:update-status') ? statusActions(row.status) : []).map((action) => ({
      key: action,
      onClick: () =>
        ask(action, async () => {
          await changeStatus(row.id, action);
          message.success(t('system.admin.done'));
          context.reload();
        }),
    })),
    context.can('system:admin:force-logout') && {
      key: 'force-logout',
      onClick: () =>
        ask('force-logout', async () => {
          const { revokedSessions } = await forceLogout(row.id);
          message.success(t('system.admin.signedOut', { count: String(revokedSessions) }));
        }),
    },
    context.can('system:admin:assign-role') && { key: 'assign-role', onClick: () => onAssignRoles(row) },
  ].filter((item): item is { key: string; onClick: () => void } => Boolean(item));

  if (items.length === 0) return null;
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: items.map((item) => ({
          key: item.key,
          onClick: item.onClick,
          label: <span data-testid={`row-action-${item.key}`}>{t(`system.admin.action.${item.key}`)}</span>,
        })),
      }}
    >
      <ActionLink data-testid="row-more">
        {t('resource.more')} <DownOutlined />
      </ActionLink>
    </Dropdown>
  );
}
