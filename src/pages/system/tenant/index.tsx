import '@/pages/system/catalogue';
import { useIntl } from '@umijs/max';
import { Modal, Tabs } from 'antd';
import type { ReactNode } from 'react';
import ResourceTable from '@/components/resource/ResourceTable';
import useCan from '@/hooks/useCan';
import { type Tenant, tenantDescriptor } from './descriptor';
import { packageDescriptor, type TenantPackage } from './packages/descriptor';
import TenantActions from './TenantActions';

/** /system/tenant: tenants (provisioning, disable / enable / renew) and, on a second tab, their packages. */
export default function TenantScreen() {
  const intl = useIntl();
  const packagesShown = useCan('system:tenant-package:list');
  const [modal, contextHolder] = Modal.useModal();
  const tab = (key: 'tenants' | 'packages', children: ReactNode) => ({
    key,
    label: intl.formatMessage({ id: `system.tenant.tab.${key}` }),
    children,
  });
  const items = [
    tab(
      'tenants',
      <ResourceTable<Tenant>
        descriptor={tenantDescriptor}
        rowActions={(row, context) => [
          <TenantActions key="tenant" row={row} context={context} confirm={modal.confirm} />,
        ]}
      />,
    ),
    ...(packagesShown
      ? [
          tab(
            'packages',
            <ResourceTable<TenantPackage> descriptor={packageDescriptor} createDefaults={{ status: 'enabled' }} />,
          ),
        ]
      : []),
  ];
  return (
    <div data-testid="system-tenant">
      <Tabs items={items} destroyOnHidden={false} />
      {contextHolder}
    </div>
  );
}
