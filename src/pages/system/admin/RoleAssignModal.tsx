import { ModalForm, ProFormSelect } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { message } from 'antd';
import type { AdminUser } from './descriptor';
import { assignRoles, fetchRoleOptions } from './service';

interface Props {
  user?: AdminUser;
  onClose: () => void;
  onSaved: () => void;
}

/** Replaces an account's roles with a selection of the tenant's roles. */
export default function RoleAssignModal({ user, onClose, onSaved }: Props) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  return (
    <ModalForm<{ roleIds: string[] }>
      key={user?.id}
      open={Boolean(user)}
      title={t('system.admin.roles.title', { name: user?.displayName ?? '' })}
      initialValues={{ roleIds: user?.roleIds ?? [] }}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      submitter={{ submitButtonProps: { 'data-testid': 'roles-submit' } }}
      onFinish={async ({ roleIds }) => {
        if (!user) return false;
        const saved = await assignRoles(user.id, roleIds ?? []).then(
          () => true,
          () => false,
        );
        if (!saved) return false;
        message.success(t('resource.saved'));
        onSaved();
        return true;
      }}
    >
      <ProFormSelect
        name="roleIds"
        label={t('system.admin.roles')}
        mode="multiple"
        request={async () => (await fetchRoleOptions()).map((r) => ({ label: `${r.name} (${r.code})`, value: r.id }))}
        fieldProps={{ 'data-testid': 'roles-select' } as object}
      />
    </ModalForm>
  );
}
