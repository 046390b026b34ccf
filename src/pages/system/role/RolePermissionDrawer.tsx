import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Alert, Button, Drawer, Space, Spin } from 'antd';
import { useEffect, useState } from 'react';
import PermissionTree from '@/components/permission/PermissionTree';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import type { Role } from './descriptor';
import { fetchRolePermissions, saveRolePermissions } from './service';

interface Props {
  role?: Role;
  /** The user holds system:role:assign-permission. */
  editable: boolean;
  onClose: () => void;
}

/** The role's permissions as a checkable tree limited to the tenant's package (GET/PUT /api/system/role/{id}/permissions). */
export default function RolePermissionDrawer({ role, editable, onClose }: Props) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const [value, setValue] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const { data, loading } = useRequest(() => (role ? fetchRolePermissions(role.id) : Promise.resolve(undefined)), {
    refreshDeps: [role?.id],
    onError: ignoreShownError,
  });
  useEffect(() => setValue(data?.permissionIds ?? []), [data]);
  const fixed = role?.type === 'system';
  const save = async () => {
    if (!role) return;
    setSaving(true);
    const saved = await saveRolePermissions(role.id, value).then(
      () => true,
      () => false,
    );
    setSaving(false);
    if (!saved) return;
    message.success(t('resource.saved'));
    onClose();
  };
  return (
    <Drawer
      open={Boolean(role)}
      width={640}
      title={t('system.role.permissions.title', { name: role?.name ?? '' })}
      onClose={onClose}
      destroyOnHidden
      extra={
        editable &&
        !fixed && (
          <Space>
            <Button onClick={onClose}>{t('resource.cancel')}</Button>
            <Button type="primary" loading={saving} onClick={save} data-testid="role-permissions-save">
              {t('system.action.save')}
            </Button>
          </Space>
        )
      }
    >
      <div data-testid="role-permissions">
        {fixed && (
          <Alert type="info" showIcon message={t('system.role.permissions.system')} style={{ marginBottom: 12 }} />
        )}
        {loading && !data ? (
          <Spin />
        ) : (
          <PermissionTree tree={data?.tree ?? []} value={value} onChange={setValue} disabled={!editable || fixed} />
        )}
      </div>
    </Drawer>
  );
}
