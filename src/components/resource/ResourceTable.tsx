import { DeleteOutlined } from '@ant-design/icons';
import { type ActionType, type ProColumns, ProTable, type ProTableProps } from '@ant-design/pro-components';
import { Link } from '@umijs/max';
import { Button, message, Popconfirm } from 'antd';
import { type MutableRefObject, type ReactNode, useRef, useState } from 'react';
import type { PermissionCode } from '@/access';
import { LIST_PAGE_SIZE } from '@/constants';
import type { ResourceService } from '@/services/resource';
import { ignoreShownError } from '@/utils/request';
import ImportModal from './ImportModal';
import { toListQuery } from './params';
import ResourceForm from './ResourceForm';
import type { ResourceDescriptor } from './types';
import { useResourceColumns } from './useResourceColumns';
import { useResourceControls } from './useResourceControls';

export interface RowActionContext {
  reload: () => void;
  can: (code: PermissionCode) => boolean;
}

interface Props<Row extends { id: string; version: number }> {
  descriptor: ResourceDescriptor<Row, any, any>;
  /** Actions of the entity beyond edit / delete / profile, appended to each row. */
  rowActions?: (row: Row, context: RowActionContext) => ReactNode[];
  actionRef?: MutableRefObject<ActionType | undefined>;
  /** Defaults to the resource's HTTP contract; tests may hand another. */
  service?: ResourceService<Row, any, any>;
  /** Fixed filters sent with every list and export query (e.g. the dictionary type of its items). */
  params?: Record<string, string>;
  /** Initial values of the create form. */
  createDefaults?: Record<string, unknown>;
  /** After anything was written (save, delete, import): e.g. refresh a cache built from these rows. */
  onChanged?: () => void;
  /** ProTable props of a screen (headerTitle, onRow, search…), applied over the defaults. */
  tableProps?: Partial<ProTableProps<Row, any>>;
  /** After a create or edit saved, with the answer (e.g. a secret shown once). */
  onSaved?: (row: Row, mode: 'create' | 'update') => void;
}

/**
 * The list screen of a descriptor: search form, sortable columns with persisted settings, create,
 * edit, delete, batch delete, export and import, each behind its permission code.
 */
export default function ResourceTable<Row extends { id: string; version: number }>({
  descriptor,
  rowActions,
  actionRef: outerRef,
  service: given,
  params,
  createDefaults,
  onChanged,
  tableProps,
  onSaved,
}: Props<Row>) {
  const { t, code, can, allows, service, lastQuery, toolbar, editLink, deleteLink, lockIcon } = useResourceControls(
    descriptor,
    given,
  );
  const innerRef = useRef<ActionType>();
  const actionRef = outerRef ?? innerRef;
  const [editing, setEditing] = useState<{ record?: Row } | undefined>();
  const [importing, setImporting] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const reload = () => actionRef.current?.reload();

  const remove = async (ids: string[], batch = false) => {
    const done = await (batch ? service.batchDelete(ids) : service.remove(ids[0])).then(
      () => true,
      () => false,
    );
    if (!done) return;
    message.success(t('resource.deleted', { count: ids.length }));
    setSelected([]);
    actionRef.current?.clearSelected?.();
    reload();
    onChanged?.();
  };

  const baseColumns = useResourceColumns(descriptor.columns);
  const columns: ProColumns<Row>[] = [
    ...baseColumns.map(({ hideInDescriptions: _d, ...column }) => column as ProColumns<Row>),
    {
      title: t('resource.actions'),
      key: 'option',
      valueType: 'option',
      render: (_dom, row) =>
        [
          descriptor.profile && can(code.list) && (
            <Link key="profile" to={descriptor.profile(row)} data-testid="row-profile">
              {t('resource.profile')}
            </Link>
          ),
          editLink(row, () => setEditing({ record: row })),
          deleteLink(row, () => remove([row.id])),
          lockIcon(row),
          ...(rowActions?.(row, { reload, can }) ?? []),
        ].filter(Boolean),
    },
  ];

  return (
    <div data-testid="resource-table" data-resource={descriptor.resource}>
      <ProTable<Row>
        rowKey={descriptor.rowKey ?? 'id'}
        actionRef={actionRef}
        params={params}
        columns={columns}
        request={async (params, sort, filter) => {
          const query = toListQuery(params, sort, filter as never);
          lastQuery.current = query;
          return service.list(query);
        }}
        onRequestError={ignoreShownError}
        pagination={{ defaultPageSize: LIST_PAGE_SIZE, showSizeChanger: true }}
        columnsState={{ persistenceKey: `resource-table:${descriptor.resource}`, persistenceType: 'localStorage' }}
        search={{ labelWidth: 'auto' }}
        dateFormatter="string"
        scroll={{ x: 'max-content' }}
        toolBarRender={() =>
          toolbar(
            () => setEditing({}),
            () => setImporting(true),
          )
        }
        rowSelection={
          can(code.delete)
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys.map(String)),
                // a row that cannot be deleted offers no checkbox; its lock says why
                renderCell: (_checked, row, _index, node) => (allows(row, 'delete') ? node : null),
              }
            : false
        }
        tableAlertOptionRender={() => (
          <Popconfirm
            title={t('resource.batchDeleteConfirm', { count: selected.length })}
            onConfirm={() => remove(selected, true)}
          >
            <Button size="small" danger icon={<DeleteOutlined />} data-testid="table-batch-delete">
              {t('resource.batchDelete')}
            </Button>
          </Popconfirm>
        )}
        {...tableProps}
      />
      {editing && (
        <ResourceForm<Row>
          descriptor={descriptor}
          service={service}
          open
          record={editing.record}
          defaults={createDefaults}
          onOpenChange={(open) => !open && setEditing(undefined)}
          onSaved={(row) => {
            onSaved?.(row, editing.record ? 'update' : 'create');
            setEditing(undefined);
            reload();
            onChanged?.();
          }}
        />
      )}
      {can(code.import) && (
        <ImportModal
          open={importing}
          onClose={() => setImporting(false)}
          service={service}
          name={descriptor.resource}
          onImported={() => {
            reload();
            onChanged?.();
          }}
        />
      )}
    </div>
  );
}
