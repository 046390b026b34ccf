import { useIntl } from '@umijs/max';
import { type ModalFuncProps, Space } from 'antd';
import type { PermissionCode } from '@/access';
import ActionLink from '@/components/ActionLink';
import message from '@/utils/message';
import type { OauthClient } from './descriptor';
import { revokeTokens, rotateSecret } from './service';

interface Props {
  row: OauthClient;
  can: (code: PermissionCode) => boolean;
  confirm: (config: ModalFuncProps) => unknown;
  onSecret: (clientId: string, secret: string) => void;
}

/** Rotate the secret (confidential clients) and revoke every token, each after a confirmation. */
export default function ClientActions({ row, can, confirm, onSecret }: Props) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const ask = (action: 'rotate-secret' | 'revoke-tokens', run: () => Promise<unknown>) =>
    confirm({
      title: t(`system.client.action.${action}`),
      content: t(`system.client.confirm.${action}`, { clientId: row.clientId }),
      okText: t('resource.ok'),
      cancelText: t('resource.cancel'),
      okButtonProps: { 'data-testid': 'confirm-ok', danger: true },
      onOk: () => run().catch(() => undefined),
    });
  const actions = [
    can('system:client:rotate-secret') && row.clientType === 'confidential' && (
      <ActionLink
        key="rotate"
        data-testid="row-rotate-secret"
        onClick={() =>
          ask('rotate-secret', async () => onSecret(row.clientId, (await rotateSecret(row.id)).clientSecret))
        }
      >
        {t('system.client.action.rotate-secret')}
      </ActionLink>
    ),
    can('system:client:revoke-tokens') && (
      <ActionLink
        key="revoke"
        data-testid="row-revoke-tokens"
        onClick={() =>
          ask('revoke-tokens', async () => {
            const { revokedSessions } = await revokeTokens(row.id);
            message.success(t('system.client.revoked', { count: revokedSessions }));
          })
        }
      >
        {t('system.client.action.revoke-tokens')}
      </ActionLink>
    ),
  ].filter(Boolean);
  return actions.length ? <Space size={12}>{actions}</Space> : null;
}
