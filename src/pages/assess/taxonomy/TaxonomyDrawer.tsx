import { useIntl } from '@umijs/max';
import { type ButtonProps, Drawer, Modal } from 'antd';
import ResourceTreeTable from '@/components/resource/ResourceTreeTable';
import message from '@/utils/message';
import { fetchLevel, TAXONOMIES, type TaxonomyKind, type TaxonomyNode } from './descriptor';

/**
 * A tree managed beside its list (the bank's categories or knowledge points, the course categories): the tree one level
 * at a time, a node added at the top or under another, edited, deleted (refused while it has children or records that
 * use it), moved by dragging it onto its new parent (the server refuses a move under itself).
 */
export default function TaxonomyDrawer({
  kind,
  open,
  onClose,
}: {
  kind: TaxonomyKind;
  open: boolean;
  onClose: () => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const { descriptor, service } = TAXONOMIES[kind];
  const dropOnto = (row: TaxonomyNode, target: TaxonomyNode, { reloadTree }: { reloadTree: () => void }) =>
    Modal.confirm({
      title: t('assess.taxonomy.move.confirm', { name: row.name, target: target.name }),
      okButtonProps: { 'data-testid': 'drop-confirm' } as ButtonProps,
      onOk: () =>
        service.update(row.id, { parentId: target.id, version: row.version }).then(() => {
          message.success(t('assess.taxonomy.move.done'));
          reloadTree();
        }),
    });
  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={900}
      destroyOnClose
      title={t(TAXONOMIES[kind].manageId)}
      data-testid={`taxonomy-${kind}`}
    >
      <ResourceTreeTable<TaxonomyNode>
        descriptor={descriptor}
        loadChildren={(parentId) => fetchLevel(kind, parentId)}
        treeKeys={{ key: 'id', parent: 'parentId' }}
        createDefaults={{ status: 'enabled', sort: 0 }}
        onDropOnto={dropOnto}
      />
    </Drawer>
  );
}
