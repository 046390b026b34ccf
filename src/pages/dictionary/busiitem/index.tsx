import '@/pages/dictionary/catalogue';
import ResourceTable from '@/components/resource/ResourceTable';
import { type BusinessItem, businessItemDescriptor } from './descriptor';

/** /dictionary/busiitem: the catalogue of business events. */
export default function BusinessItemPage() {
  return (
    <div data-testid="dictionary-busiitem">
      <ResourceTable<BusinessItem>
        descriptor={businessItemDescriptor}
        createDefaults={{
          status: 'enabled',
          notifiable: false,
          variables: [],
          defaultChannels: ['in_app'],
          auditLevel: 'normal',
        }}
      />
    </div>
  );
}
