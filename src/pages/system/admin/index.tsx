import type { ActionType } from '@ant-design/pro-components';
import { Modal } from 'antd';
import { useRef, useState } from 'react';
import OnceSecretModal from '@/components/OnceSecretModal';
import ResourceTable from '@/components/resource/ResourceTable';
import AdminActions from './AdminActions';
import { type AdminUser, adminUserDescriptor } from './descriptor';
import RoleAssignModal from './RoleAssignModal';
import { adminUsers } from './service';

/** /system/admin: the generic list of console accounts plus their own actions. */
export default function AdminUserList() {
  const [modal, contextHolder] = Modal.useModal();
  const actionRef = useRef<ActionType>();
  const [roleTarget, setRoleTarget] = useState<AdminUser>();
  const [password, setPassword] = useState<{ secret: string; values: { name: string } }>();
  return (
    <div data-testid="system-admin">
      <ResourceTable<AdminUser>
        descriptor={adminUserDescriptor}
        service={adminUsers}
        actionRef={actionRef}
        rowActions={(row, context) => [
          <AdminActions
            key="more"
            row={row}
            context={context}
            confirm={modal.confirm}
            onPassword={(user, secret) => setPassword({ secret, values: { name: user.displayName } })}
            onAssignRoles={setRoleTarget}
          />,
        ]}
      />
      <RoleAssignModal
        user={roleTarget}
        onClose={() => setRoleTarget(undefined)}
        onSaved={() => {
          setRoleTarget(undefined);
          actionRef.current?.reload();
        }}
      />
      <OnceSecretModal
        shown={password}
        titleId="system.admin.password.title"
        noticeId="system.admin.password.once"
        testId="temporary-password"
        onClose={() => setPassword(undefined)}
      />
      {contextHolder}
    </div>
  );
}
