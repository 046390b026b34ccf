import { ProFormSelect } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import RecordModalForm from '@/components/RecordModalForm';
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
    <RecordModalForm<{ roleIds: string[] }>
      record={user}
      title={t('system.admin.roles.title', { name: user?.displayName ?? '' })}
      initialValues={{ roleIds: user?.roleIds ?? [] }}
      submitTestId="roles-submit"
      save={({ roleIds }, options) => assignRoles(user!.id, roleIds ?? [], options)}
      onClose={onClose}
      onSaved={onSaved}
    >
      <ProFormSelect
        name="roleIds"
        label={t('system.admin.roles')}
        mode="multiple"
        request={async () => (await fetchRoleOptions()).map((r) => ({ label: `${r.name} (${r.code})`, value: r.id }))}
        fieldProps={{ 'data-testid': 'roles-select' } as object}
      />
    </RecordModalForm>
  );
}
