import { type DragEvent, type ReactNode, useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import { LIST_PAGE_SIZE } from '@/constants';
import type { ResourceService } from '@/services/resource';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import ListTable, { type TableActions } from './ListTable';
import { toListQuery } from './params';
import type { RowActionContext } from './ResourceTable';
import type { ListColumn, RowDescriptor } from './types';
import { useResourceControls } from './useResourceControls';
import { useResourceDialogs } from './useResourceDialogs';

export interface TreeRow {
  id: string;
  version: number;
  hasChildren?: boolean;
}

/** How a row names its node and its parent: by default `code` and `parentCode` (districts, industries). */
export interface TreeKeys<Row> {
  key: keyof Row & string;
  parent: keyof Row & string;
}

const byCode = { key: 'code', parent: 'parentCode' };

type Shown<Row> = Row & { children?: Shown<Row>[] };

interface Props<Row extends TreeRow> {
  descriptor: RowDescriptor<Row>;
  /** One level of the tree: the roots, or the children of a node (`GET /api/<res>/tree?parentCode=`). */
  loadChildren: (parentKey?: string) => Promise<Row[]>;
  /** The fields that link a node to its parent (default `code` and `parentCode`); the parent's is a create field. */
  treeKeys?: TreeKeys<Row>;
  /** Whether a node may get children (the deepest level may not). */
  canHaveChildren?: (row: Row) => boolean;
  /** Columns shown only with search results (a flat list), e.g. the full path. */
  flatColumns?: ListColumn<Row>[];
  /** Runs on search results before they show (e.g. resolving the names of their ancestors). */
  prepareFlat?: (rows: Row[]) => Promise<unknown>;
  /** `reload` fetches the row's level again, `reloadTree` the whole tree (after a move between levels). */
  rowActions?: (row: Row, context: RowActionContext & { reloadTree: () => void }) => ReactNode[];
  /** Replaces the generic import dialog (e.g. an import with a diff preview). */
  renderImport?: (props: { open: boolean; onClose: () => void; onImported: () => void }) => ReactNode;
  service?: ResourceService<Row, never, never>;
  createDefaults?: Record<string, unknown>;
  /**
   * Rows may be dragged onto another row (a move under it, as the entity decides); `reloadTree` shows the tree again
   * after the move. Without it rows are not draggable.
   */
  onDropOnto?: (dragged: Row, target: Row, context: { reloadTree: () => void }) => void;
}

const isSearching = (params: Record<string, unknown>) =>
  Object.entries(params).some(
    ([key, value]) => key !== 'current' && key !== 'pageSize' && value !== undefined && value !== null && value !== '',
  );

const node = <Row extends TreeRow>(row: Row): Shown<Row> => ({ ...row, children: row.hasChildren ? [] : undefined });

function replaceChildren<Row extends TreeRow>(
  rows: Shown<Row>[],
  keyOf: (row: Row) => string,
  parentKey: string,
  children: Shown<Row>[],
): Shown<Row>[] {
  return rows.map((row) => {
    if (keyOf(row) === parentKey) return { ...row, children: children.length ? children : undefined };
    return row.children?.length ? { ...row, children: replaceChildren(row.children, keyOf, parentKey, children) } : row;
  });
}

/**
 * A tree of a descriptor's rows (districts, industries): one level at a time, a node's children fetched when it
 * is expanded; any search answers a flat, paged list instead. Create (at the top or under a node), edit, delete,
 * export and import behind their permission codes.
 */
export default function ResourceTreeTable<Row extends TreeRow>({
  descriptor,
  loadChildren,
  treeKeys = byCode as TreeKeys<Row>,
  canHaveChildren = () => true,
  flatColumns = [],
  prepareFlat,
  rowActions,
  renderImport,
  service: given,
  createDefaults,
  onDropOnto,
}: Props<Row>) {
  const { t, code, can, service, lastQuery, toolbar, editLink, deleteLink, lockIcon, listColumns } =
    useResourceControls(descriptor, given);
  const actionRef = useRef<TableActions>();
  const [rows, setRows] = useState<Shown<Row>[]>([]);
  const [flat, setFlat] = useState(false);
  const [expanded, setExpanded] = useState<string[]>([]);
  const reload = () => actionRef.current?.reload();
  const dragged = useRef<Row>();
  const keyOf = (row: Row) => String(row[treeKeys.key]);
  const parentOf = (row: Row) => (row[treeKeys.parent] ?? null) as string | null;

  const expand = async (parentKey: string) => {
    const children = (await loadChildren(parentKey)).map(node);
    setRows((current) => replaceChildren(current, keyOf, parentKey, children));
  };

  /** After a write: the level it happened in, fetched again (the top level through the table's request). */
  const refreshLevel = (parentKey: string | null | undefined) => {
    if (flat || !parentKey) reload();
    else expand(parentKey).catch(ignoreShownError);
  };

  const { edit, openImport, dialogs } = useResourceDialogs<Row>({
    descriptor,
    service,
    canImport: can(code.import),
    renderImport,
    onImported: reload,
    onSaved: (saved, editing) => {
      if (editing.record) setRows((current) => replaceRow(current, { ...saved, children: undefined }));
      else {
        const parentKey = parentOf(saved);
        const parent = parentKey ? findByKey(rows, keyOf, parentKey) : undefined;
        if (parent) setExpanded((keys) => (keys.includes(parent.id) ? keys : [...keys, parent.id]));
        refreshLevel(parentKey);
      }
    },
  });

  const remove = async (row: Row) => {
    const done = await service.remove(row.id).then(
      () => true,
      () => false,
    );
    if (!done) return;
    message.success(t('resource.deleted', { count: 1 }));
    refreshLevel(parentOf(row));
  };

  const columns = listColumns(
    (row) => [
      can(code.create) && canHaveChildren(row) && (
        <ActionLink
          key="child"
          data-testid="row-add-child"
          onClick={() => edit({ defaults: { ...createDefaults, [treeKeys.parent]: keyOf(row) } })}
        >
          {t('resource.tree.addChild')}
        </ActionLink>
      ),
      editLink(row, () => edit({ record: row })),
      deleteLink(row, () => remove(row)),
      lockIcon(row),
      ...(rowActions?.(row, { reload: () => refreshLevel(parentOf(row)), reloadTree: reload, can }) ?? []),
    ],
    flat ? flatColumns.map((c) => ({ ...c, hideInSearch: true })) : [],
  );

  return (
    <div data-testid="resource-tree-table" data-resource={descriptor.resource} data-mode={flat ? 'flat' : 'tree'}>
      <ListTable<Row>
        rowKey={descriptor.rowKey ?? 'id'}
        actionRef={actionRef}
        columns={columns}
        dataSource={rows}
        request={async (params, sort, filter) => {
          lastQuery.current = toListQuery(params, sort, filter);
          const { current = 1, pageSize = LIST_PAGE_SIZE, ...search } = params;
          if (isSearching(search) || Object.keys(sort ?? {}).length) {
            const answer = await service.list(lastQuery.current);
            await prepareFlat?.(answer.data);
            setFlat(true);
            setRows(answer.data);
            return answer;
          }
          // the top level comes whole; the table pages it like any list
          const roots = (await loadChildren()).map(node);
          const page = roots.slice((current - 1) * pageSize, current * pageSize);
          setFlat(false);
          setExpanded([]);
          setRows(page);
          return { data: page, total: roots.length };
        }}
        expandable={{
          expandedRowKeys: expanded,
          onExpand: (open, row: Shown<Row>) => {
            setExpanded((keys) => (open ? [...keys, row.id] : keys.filter((k) => k !== row.id)));
            if (open && row.children?.length === 0) expand(keyOf(row)).catch(ignoreShownError);
          },
        }}
        onRow={
          onDropOnto &&
          ((row: Row) => ({
            draggable: true,
            'data-drag-id': row.id,
            onDragStart: (event: DragEvent<HTMLElement>) => {
              dragged.current = row;
              if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
            },
            onDragOver: (event: DragEvent<HTMLElement>) => {
              if (dragged.current && dragged.current.id !== row.id) event.preventDefault();
            },
            onDrop: (event: DragEvent<HTMLElement>) => {
              event.preventDefault();
              const from = dragged.current;
              dragged.current = undefined;
              if (from && from.id !== row.id) onDropOnto(from, row, { reloadTree: reload });
            },
            onDragEnd: () => {
              dragged.current = undefined;
            },
          }))
        }
        persistenceKey={`resource-tree:${descriptor.resource}`}
        toolbar={toolbar(() => edit({ defaults: createDefaults }), openImport)}
      />
      {dialogs}
    </div>
  );
}

/** An edited row in place, keeping the children already loaded under it. */
function replaceRow<Row extends TreeRow>(rows: Shown<Row>[], saved: Shown<Row>): Shown<Row>[] {
  return rows.map((row) => {
    if (row.id === saved.id) return { ...row, ...saved, children: row.children };
    return row.children?.length ? { ...row, children: replaceRow(row.children, saved) } : row;
  });
}

function findByKey<Row extends TreeRow>(
  rows: Shown<Row>[],
  keyOf: (row: Row) => string,
  key: string,
): Shown<Row> | undefined {
  for (const row of rows) {
    if (keyOf(row) === key) return row;
    const found = row.children?.length ? findByKey(row.children, keyOf, key) : undefined;
    if (found) return found;
  }
  return undefined;
}
