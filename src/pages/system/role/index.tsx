import { useAccess, useIntl } from '@umijs/max';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import DataScopeModal from './DataScopeModal';
import { type Role, roleDescriptor } from './descriptor';
import MembersDrawer from './MembersDrawer';
import RolePermissionDrawer from './RolePermissionDrawer';
import { roles } from './service';

export const ROLE_CODES = {
  assignPermission: 'system:role:assign-permission',
  assignDataScope: 'system:role:assign-data-scope',
  assignUser: 'system:role:assign-user',
} as const;

/** /system/role: the tenant's roles; their permissions (within the package), data scope and members. */
export default function RoleScreen() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const access = useAccess() as Record<string, boolean>;
  const actionRef = useRef<TableActions>();
  const [permissionsOf, setPermissionsOf] = useState<Role>();
  const [scopeOf, setScopeOf] = useState<Role>();
  const [membersOf, setMembersOf] = useState<Role>();
  return (
    <div data-testid="system-role">
      <ResourceTable<Role>
        descriptor={roleDescriptor}
        service={roles}
        createDefaults={{ status: 'enabled', sort: 0 }}
        actionRef={actionRef}
        rowActions={(row) => [
          <ActionLink key="permissions" data-testid="row-permissions" onClick={() => setPermissionsOf(row)}>
            {t('system.role.action.permissions')}
          </ActionLink>,
          access[ROLE_CODES.assignDataScope] && (
            <ActionLink key="scope" data-testid="row-data-scope" onClick={() => setScopeOf(row)}>
              {t('system.role.action.dataScope')}
            </ActionLink>
          ),
          <ActionLink key="members" data-testid="row-members" onClick={() => setMembersOf(row)}>
            {t('system.role.action.members')}
          </ActionLink>,
        ]}
      />
      <RolePermissionDrawer
        role={permissionsOf}
        editable={Boolean(access[ROLE_CODES.assignPermission])}
        onClose={() => setPermissionsOf(undefined)}
      />
      <DataScopeModal
        role={scopeOf}
        onClose={() => setScopeOf(undefined)}
        onSaved={() => {
          setScopeOf(undefined);
          actionRef.current?.reload();
        }}
      />
      <MembersDrawer
        role={membersOf}
        editable={Boolean(access[ROLE_CODES.assignUser])}
        onClose={() => setMembersOf(undefined)}
      />
    </div>
  );
}
