import '@/pages/system/catalogue';
import { Modal } from 'antd';
import { lazy, Suspense, useRef, useState } from 'react';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import AdminActions from './AdminActions';
import { type AdminUser, adminUserDescriptor } from './descriptor';

// both open from a row's menu: they load then, not with the list
const RoleAssignModal = lazy(() => import('./RoleAssignModal'));
const OnceSecretModal = lazy(() => import('@/components/OnceSecretModal'));

/** /system/admin: the generic list of console accounts plus their own actions. */
export default function AdminUserList() {
  const [modal, contextHolder] = Modal.useModal();
  const actionRef = useRef<TableActions>();
  const [roleTarget, setRoleTarget] = useState<AdminUser>();
  const [password, setPassword] = useState<{ secret: string; values: { name: string } }>();
  return (
    <div data-testid="system-admin">
      <ResourceTable<AdminUser>
        descriptor={adminUserDescriptor}
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
      <Suspense fallback={null}>
        {roleTarget && (
          <RoleAssignModal
            user={roleTarget}
            onClose={() => setRoleTarget(undefined)}
            onSaved={() => {
              setRoleTarget(undefined);
              actionRef.current?.reload();
            }}
          />
        )}
        {password && (
          <OnceSecretModal
            shown={password}
            titleId="system.admin.password.title"
            noticeId="system.admin.password.once"
            testId="temporary-password"
            onClose={() => setPassword(undefined)}
          />
        )}
      </Suspense>
      {contextHolder}
    </div>
  );
}
