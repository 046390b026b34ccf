import '@/pages/system/catalogue';
import { useIntl } from '@umijs/max';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import useCan from '@/hooks/useCan';
import DataScopeModal from './DataScopeModal';
import { type Role, roleDescriptor } from './descriptor';
import MembersDrawer from './MembersDrawer';
import RolePermissionDrawer from './RolePermissionDrawer';

/** /system/role: the tenant's roles; their permissions (within the package), data scope and members. */
export default function RoleScreen() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const canAssignPermission = useCan('system:role:assign-permission');
  const canAssignDataScope = useCan('system:role:assign-data-scope');
  const canAssignUser = useCan('system:role:assign-user');
  const actionRef = useRef<TableActions>();
  const [permissionsOf, setPermissionsOf] = useState<Role>();
  const [scopeOf, setScopeOf] = useState<Role>();
  const [membersOf, setMembersOf] = useState<Role>();
  return (
    <div data-testid="system-role">
      <ResourceTable<Role>
        descriptor={roleDescriptor}
        createDefaults={{ status: 'enabled', sort: 0 }}
        actionRef={actionRef}
        rowActions={(row) => [
          <ActionLink key="permissions" data-testid="row-permissions" onClick={() => setPermissionsOf(row)}>
            {t('system.role.action.permissions')}
          </ActionLink>,
          canAssignDataScope && (
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
        editable={canAssignPermission}
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
      <MembersDrawer role={membersOf} editable={canAssignUser} onClose={() => setMembersOf(undefined)} />
    </div>
  );
}
