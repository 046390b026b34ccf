import { ModalForm, ProFormDatePicker } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { type ModalFuncProps, Space } from 'antd';
import dayjs from 'dayjs';
import ActionLink from '@/components/ActionLink';
import type { RowActionContext } from '@/components/resource/ResourceTable';
import message from '@/utils/message';
import { endOfDay, type Tenant } from './descriptor';
import { changeTenantStatus, renewTenant } from './service';

interface Props {
  row: Tenant;
  context: RowActionContext;
  confirm: (config: ModalFuncProps) => unknown;
}

/** Disable / enable (confirmed) and renew (a date in a confirmation form) of one tenant. */
export default function TenantActions({ row, context, confirm }: Props) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const status: 'disable' | 'enable' = row.status === 'enabled' ? 'disable' : 'enable';
  const done = () => {
    message.success(t('system.tenant.done'));
    context.reload();
  };
  const ask = () =>
    confirm({
      title: t(`system.tenant.action.${status}`),
      content: t(`system.tenant.confirm.${status}`, { name: row.name }),
      okText: t('resource.ok'),
      cancelText: t('resource.cancel'),
      okButtonProps: { 'data-testid': 'confirm-ok', danger: status === 'disable' },
      // a failed call closes the confirmation; the request layer has said why
      onOk: () => changeTenantStatus(row.id, status).then(done, () => undefined),
    });
  const actions = [
    context.can(`system:tenant:${status}`) && row.code !== 'platform' && (
      <ActionLink key={status} data-testid={`row-${status}`} onClick={ask}>
        {t(`system.tenant.action.${status}`)}
      </ActionLink>
    ),
    context.can('system:tenant:renew') && row.code !== 'platform' && (
      <ModalForm<{ expiresAt?: string }>
        key="renew"
        title={t('system.tenant.renew.title', { name: row.name })}
        trigger={<ActionLink data-testid="row-renew">{t('system.tenant.action.renew')}</ActionLink>}
        modalProps={{ destroyOnHidden: true }}
        initialValues={{ expiresAt: row.expiresAt ?? undefined }}
        submitter={{ submitButtonProps: { 'data-testid': 'renew-submit' } }}
        onFinish={async ({ expiresAt }) => {
          const ok = await renewTenant(row.id, endOfDay(expiresAt)).then(
            () => true,
            () => false,
          );
          if (ok) done();
          return ok;
        }}
      >
        <p>{t('system.tenant.renew.hint')}</p>
        <ProFormDatePicker
          name="expiresAt"
          label={t('system.tenant.expiresAt')}
          fieldProps={
            {
              disabledDate: (d: dayjs.Dayjs) => d.isBefore(dayjs().startOf('day')),
              'data-testid': 'renew-date',
            } as object
          }
        />
      </ModalForm>
    ),
  ].filter(Boolean);
  return actions.length ? <Space size={12}>{actions}</Space> : null;
}
