import { DeleteOutlined } from '@ant-design/icons';
import { useNavigate } from '@umijs/max';
import { Button, Popconfirm } from 'antd';
import { type MutableRefObject, type ReactNode, useRef, useState } from 'react';
import type { PermissionCode } from '@/access';
import type { ResourceService } from '@/services/resource';
import message from '@/utils/message';
import ListTable, { type ListTableProps, type TableActions } from './ListTable';
import { toListQuery, withoutPaging } from './params';
import type { ListColumn, RowDescriptor } from './types';
import { useResourceControls } from './useResourceControls';
import { type FormDialogProps, useResourceDialogs } from './useResourceDialogs';

export interface RowActionContext {
  reload: () => void;
  can: (code: PermissionCode) => boolean;
}

/** What a bulk action of the chosen rows may do besides: export them (the toolbar's export, of these only). */
export interface BatchActionContext extends RowActionContext {
  exportSelected: (ids: string[]) => Promise<void>;
  exporting: boolean;
}

interface Props<Row extends { id: string; version: number }> {
  descriptor: RowDescriptor<Row>;
  /** Actions of the entity beyond edit / delete / profile, appended to each row. */
  rowActions?: (row: Row, context: RowActionContext) => ReactNode[];
  actionRef?: MutableRefObject<TableActions | undefined>;
  /** Defaults to the resource's HTTP contract; tests may hand another. */
  service?: ResourceService<Row, never, never>;
  /** Fixed filters sent with every list and export query (e.g. the dictionary type of its items). */
  params?: Record<string, string>;
  /** Initial values of the create form. */
  createDefaults?: Record<string, unknown>;
  /** After anything was written (save, delete, import): e.g. refresh a cache built from these rows. */
  onChanged?: () => void;
  /** List props of a screen (headerTitle, onRow, search…), applied over the defaults. */
  tableProps?: Partial<ListTableProps<Row>>;
  /** After a create or edit saved, with the answer (e.g. a secret shown once). */
  onSaved?: (row: Row, mode: 'create' | 'update') => void;
  /** Columns besides the descriptor's (made at run time: a type's custom fields), before the actions. */
  extraColumns?: ListColumn<Row>[];
  /** The screen's own create/edit form, instead of the descriptor's. */
  renderForm?: (props: FormDialogProps<Row>) => ReactNode;
  /** The screen's own import dialog, instead of the generic one (an import made for a choice in it). */
  renderImport?: (props: { open: boolean; onClose: () => void; onImported: () => void }) => ReactNode;
  /** Actions on the chosen rows besides delete (rows are chosen for these even without the delete permission). */
  batchActions?: (ids: string[], context: BatchActionContext) => ReactNode[];
  /** Buttons of the screen before the generic ones in the toolbar (statistics, say). */
  toolbarExtra?: ReactNode[];
  /**
   * What the list shows when it holds nothing and no filter is set (what to create first, and why), given the create
   * form's opener when the user may create; an empty answer to a filter keeps antd's "no data".
   */
  emptyState?: (create: (() => void) | undefined) => ReactNode;
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
  extraColumns,
  renderForm,
  renderImport,
  batchActions,
  toolbarExtra = [],
  emptyState,
}: Props<Row>) {
  const {
    t,
    code,
    can,
    allows,
    service,
    lastQuery,
    toolbar,
    exporting,
    exportSelected,
    editLink,
    deleteLink,
    lockIcon,
    listColumns,
  } = useResourceControls(descriptor, given);
  const innerRef = useRef<TableActions>();
  const actionRef = outerRef ?? innerRef;
  const reload = () => actionRef.current?.reload();
  const changed = () => {
    reload();
    onChanged?.();
  };
  const navigate = useNavigate();
  const [filtered, setFiltered] = useState(false);
  const {
    edit: openForm,
    openImport,
    dialogs,
  } = useResourceDialogs<Row>({
    descriptor,
    service,
    canImport: can(code.import),
    renderForm,
    renderImport,
    onSaved: (row, editing) => {
      onSaved?.(row, editing.record ? 'update' : 'create');
      changed();
    },
    onImported: changed,
  });
  const { formPage } = descriptor;
  const edit: typeof openForm = formPage ? ({ record }) => navigate(formPage(record)) : openForm;

  const remove = async (ids: string[], batch = false) => {
    const done = await (batch ? service.batchDelete(ids) : service.remove(ids[0])).then(
      () => true,
      () => false,
    );
    if (!done) return;
    message.success(t('resource.deleted', { count: ids.length }));
    actionRef.current?.clearSelected?.();
    changed();
  };

  const columns = listColumns(
    (row) => [
      editLink(row, () => edit({ record: row })),
      deleteLink(row, () => remove([row.id])),
      lockIcon(row),
      ...(rowActions?.(row, { reload, can }) ?? []),
    ],
    extraColumns,
  );

  return (
    <div data-testid="resource-table" data-resource={descriptor.resource}>
      <ListTable<Row>
        rowKey={descriptor.rowKey ?? 'id'}
        actionRef={actionRef}
        params={params}
        columns={columns}
        request={(query, sort, filter) => {
          lastQuery.current = toListQuery(query, sort, filter);
          setFiltered(Object.keys(withoutPaging(lastQuery.current)).some((k) => k !== 'sort'));
          return service.list(lastQuery.current);
        }}
        persistenceKey={`resource-table:${descriptor.resource}`}
        toolbar={[...toolbarExtra, ...toolbar(() => edit({ defaults: createDefaults }), openImport)]}
        rowSelection={
          (can(code.delete) || batchActions) && {
            // a row that cannot be deleted offers no checkbox (its lock says why), unless there is more to do with it
            renderCell: (_checked, row, _index, node) => (batchActions || allows(row, 'delete') ? node : null),
          }
        }
        batchActions={(selected) => (
          <>
            {can(code.delete) && (
              <Popconfirm
                title={t('resource.batchDeleteConfirm', { count: selected.length })}
                onConfirm={() => remove(selected.map(String), true)}
              >
                <Button size="small" danger icon={<DeleteOutlined />} data-testid="table-batch-delete">
                  {t('resource.batchDelete')}
                </Button>
              </Popconfirm>
            )}
            {batchActions?.(selected.map(String), { reload, can, exportSelected, exporting })}
          </>
        )}
        emptyText={
          emptyState && !filtered
            ? emptyState(can(code.create) ? () => edit({ defaults: createDefaults }) : undefined)
            : undefined
        }
        {...tableProps}
      />
      {dialogs}
    </div>
  );
}
