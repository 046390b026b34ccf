import '@/pages/people/catalogue';
import { useAccess, useIntl } from '@umijs/max';
import { type ButtonProps, Modal, Popconfirm } from 'antd';
import { useState } from 'react';
import ActionLink from '@/components/ActionLink';
import ResourceTreeTable from '@/components/resource/ResourceTreeTable';
import message from '@/utils/message';
import { type Organization, organizationDescriptor } from './descriptor';
import MoveDialog from './MoveDialog';
import { fetchOrganizationLevel, moveOrganization, organizations } from './service';

/** Types no other type may sit under (organization.rules.ts): no "add child" on them. */
const LEAVES: Organization['orgType'][] = ['teaching_group', 'office'];

/**
 * /user/organization: the tenant's organisation tree, one level at a time (a search lists matches flat with where
 * they sit); create at the top or under a node, edit, move a subtree ("move to", or drag a row onto its new parent),
 * disable or enable, delete (refused while a node has children), export and import.
 */
export default function OrganizationPage() {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const [moving, setMoving] = useState<{ row: Organization; done: () => void }>();
  /** A row dropped onto another: after a confirmation, moved under it (the server says why not, if it may not). */
  const dropOnto = (row: Organization, target: Organization, { reloadTree }: { reloadTree: () => void }) =>
    Modal.confirm({
      title: t('people.organization.move.confirm', { name: row.name, target: target.name }),
      okButtonProps: { 'data-testid': 'drop-confirm' } as ButtonProps,
      onOk: () =>
        moveOrganization(row.id, { parentId: target.id, version: row.version }).then(() => {
          message.success(t('people.organization.move.done'));
          reloadTree();
        }),
    });
  return (
    <div data-testid="people-organization">
      <ResourceTreeTable<Organization>
        descriptor={organizationDescriptor}
        loadChildren={fetchOrganizationLevel}
        treeKeys={{ key: 'id', parent: 'parentId' }}
        canHaveChildren={(row) => !LEAVES.includes(row.orgType)}
        createDefaults={{ status: 'enabled', sort: 0 }}
        onDropOnto={access['people:organization:move'] ? dropOnto : undefined}
        flatColumns={[
          {
            title: t('people.organization.ancestry'),
            key: 'ancestry',
            render: (_dom, row) => <span data-testid="organization-ancestry">{row.ancestry || '-'}</span>,
          },
        ]}
        rowActions={(row, { can, reload, reloadTree }) => {
          const actions = [];
          if (can('people:organization:move'))
            actions.push(
              <ActionLink key="move" data-testid="row-move" onClick={() => setMoving({ row, done: reloadTree })}>
                {t('people.organization.move')}
              </ActionLink>,
            );
          if (can('people:organization:update')) {
            const next = row.status === 'enabled' ? 'disabled' : 'enabled';
            const action = next === 'disabled' ? 'disable' : 'enable';
            const toggle = async () => {
              const done = await organizations.update(row.id, { status: next, version: row.version }).then(
                () => true,
                () => false,
              );
              if (!done) return;
              message.success(t(`people.organization.${next}`));
              reload();
            };
            actions.push(
              <Popconfirm key={action} title={`${t(`people.organization.${action}`)} ${row.name}?`} onConfirm={toggle}>
                <ActionLink data-testid={`row-${action}`}>{t(`people.organization.${action}`)}</ActionLink>
              </Popconfirm>,
            );
          }
          return actions;
        }}
      />
      <MoveDialog
        record={moving?.row}
        onClose={() => setMoving(undefined)}
        onMoved={() => {
          moving?.done();
          setMoving(undefined);
          message.success(t('people.organization.move.done'));
        }}
      />
    </div>
  );
}
