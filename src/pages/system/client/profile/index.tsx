import '@/pages/system/catalogue';
import { Card, Modal } from 'antd';
import { useState } from 'react';
import ResourceProfile from '@/components/resource/ResourceProfile';
import { useCanCheck } from '@/hooks/useCan';
import ClientActions from '../ClientActions';
import { clientDescriptor, type OauthClient } from '../descriptor';
import SecretModal from '../SecretModal';

/** /system/client/:id/profile: the client's details, its actions and its audit trail. */
export default function ClientProfile() {
  const can = useCanCheck();
  const [modal, contextHolder] = Modal.useModal();
  const [secret, setSecret] = useState<{ clientId: string; secret: string }>();
  return (
    <div data-testid="client-profile">
      <ResourceProfile<OauthClient> descriptor={clientDescriptor}>
        {(row) => (
          <Card size="small">
            <ClientActions
              row={row}
              can={can}
              confirm={modal.confirm}
              onSecret={(clientId, value) => setSecret({ clientId, secret: value })}
            />
          </Card>
        )}
      </ResourceProfile>
      <SecretModal shown={secret} onClose={() => setSecret(undefined)} />
      {contextHolder}
    </div>
  );
}
