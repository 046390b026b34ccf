import '@/pages/system/catalogue';
import { Modal } from 'antd';
import { useState } from 'react';
import ResourceTable from '@/components/resource/ResourceTable';
import ClientActions from './ClientActions';
import { clientDefaults, clientDescriptor, type OauthClient } from './descriptor';
import SecretModal from './SecretModal';

/** /system/client: OAuth clients; a confidential client's secret is shown once after create and after rotate. */
export default function ClientScreen() {
  const [modal, contextHolder] = Modal.useModal();
  const [secret, setSecret] = useState<{ clientId: string; secret: string }>();
  return (
    <div data-testid="system-client">
      <ResourceTable<OauthClient>
        descriptor={clientDescriptor}
        createDefaults={clientDefaults}
        onSaved={(row, mode) =>
          mode === 'create' && row.clientSecret && setSecret({ clientId: row.clientId, secret: row.clientSecret })
        }
        rowActions={(row, context) => [
          <ClientActions
            key="client"
            row={row}
            can={context.can}
            confirm={modal.confirm}
            onSecret={(clientId, value) => setSecret({ clientId, secret: value })}
          />,
        ]}
      />
      <SecretModal shown={secret} onClose={() => setSecret(undefined)} />
      {contextHolder}
    </div>
  );
}
