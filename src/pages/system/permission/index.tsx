import '@/pages/system/catalogue';
import { PlusOutlined } from '@ant-design/icons';
import { type ActionType, type ProColumns, ProTable } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { Button, Popconfirm } from 'antd';
import { type Key, useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import ResourceForm from '@/components/resource/ResourceForm';
import { useResourceColumns } from '@/components/resource/useResourceColumns';
import useCan from '@/hooks/useCan';
import { fetchPermissionTree, type PermissionNode } from '@/services/permission';
import { resourceService } from '@/services/resource';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import { type Permission, permissionDescriptor } from './descriptor';

export const permissions = resourceService<Permission>('system/permission');

type Row = Omit<PermissionNode, 'children'> & { children?: Row[] };

/**
 * The tree cut to nodes matching the search (keyword over name, code, path; type; status), with
 * their ancestors; leaves lose their empty `children` so the table shows no expander on them.
 */
export function searchTree(
  nodes: PermissionNode[],
  search: { keyword?: string; type?: string; status?: string },
): Row[] {
  const keyword = search.keyword?.trim().toLowerCase();
  const matches = (n: PermissionNode) =>
    (!keyword || [n.name, n.code, n.path, n.localeKey].some((v) => v?.toLowerCase().includes(keyword))) &&
    (!search.type || n.type === search.type) &&
    (!search.status || n.status === search.status);
  return nodes.flatMap(({ children, ...node }) => {
    const kept = searchTree(children ?? [], search);
    if (!kept.length && !matches({ ...node, children: [] })) return [];
    return [kept.length ? { ...node, children: kept } : node];
  });
}

/** /system/permission: the tree of directories, menus and buttons; create (also under a node), edit, delete. */
export default function PermissionScreen() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const canCreate = useCan('system:permission:create');
  const canUpdate = useCan('system:permission:update');
  const canDelete = useCan('system:permission:delete');
  const actionRef = useRef<ActionType>();
  const [editing, setEditing] = useState<{ record?: Permission; parentId?: string }>();
  const [expanded, setExpanded] = useState<readonly Key[]>([]);
  const base = useResourceColumns(permissionDescriptor.columns);

  const remove = async (row: Row) => {
    const done = await permissions.remove(row.id).then(
      () => true,
      () => false,
    );
    if (!done) return;
    message.success(intl.formatMessage({ id: 'resource.deleted' }, { count: 1 }));
    actionRef.current?.reload();
  };

  const columns: ProColumns<Row>[] = [
    ...base.map(({ hideInDescriptions: _d, sorter: _s, ...c }) => c as ProColumns<Row>),
    {
      title: t('resource.actions'),
      key: 'option',
      valueType: 'option',
      fixed: 'right',
      render: (_dom, row) =>
        [
          canCreate && row.type !== 'button' && (
            <ActionLink key="child" data-testid="row-add-child" onClick={() => setEditing({ parentId: row.id })}>
              {t('system.permission.addChild')}
            </ActionLink>
          ),
          canUpdate && (
            <ActionLink key="edit" data-testid="row-edit" onClick={() => setEditing({ record: row as Permission })}>
              {t('resource.edit')}
            </ActionLink>
          ),
          canDelete && (
            <Popconfirm
              key="delete"
              title={t('system.permission.deleteConfirm')}
              onConfirm={() => remove(row)}
              okButtonProps={{ 'data-testid': 'delete-ok' } as never}
            >
              <ActionLink data-testid="row-delete">{t('resource.delete')}</ActionLink>
            </Popconfirm>
          ),
        ].filter(Boolean),
    },
  ];

  return (
    <div data-testid="system-permission">
      <ProTable<Row>
        rowKey="id"
        actionRef={actionRef}
        columns={columns}
        request={async (params) => {
          const tree = await fetchPermissionTree();
          const data = searchTree(tree, params as Record<string, string>);
          return { data, success: true, total: data.length };
        }}
        onRequestError={ignoreShownError}
        pagination={false}
        expandable={{ expandedRowKeys: expanded, onExpandedRowsChange: setExpanded }}
        // its few fields all shown: no 展开 link (antd's primary blue as text, below 4.5:1 in the dark theme)
        search={{ labelWidth: 'auto', defaultCollapsed: false, collapseRender: false }}
        scroll={{ x: 'max-content' }}
        columnsState={{ persistenceKey: 'resource-table:permissions', persistenceType: 'localStorage' }}
        toolBarRender={() => [
          canCreate && (
            <Button
              key="create"
              type="primary"
              icon={<PlusOutlined />}
              data-testid="table-create"
              onClick={() => setEditing({})}
            >
              {t('resource.create')}
            </Button>
          ),
        ]}
      />
      {editing && (
        <ResourceForm<Permission>
          descriptor={permissionDescriptor}
          open
          record={editing.record}
          defaults={{ type: editing.parentId ? 'button' : 'menu', status: 'enabled', parentId: editing.parentId }}
          onOpenChange={(open) => !open && setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            actionRef.current?.reload();
          }}
        />
      )}
    </div>
  );
}
