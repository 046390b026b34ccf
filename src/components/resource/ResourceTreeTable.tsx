import { type ReactNode, useRef, useState } from 'react';
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
  code: string;
  parentCode: string | null;
  hasChildren?: boolean;
}

type Shown<Row> = Row & { children?: Shown<Row>[] };

interface Props<Row extends TreeRow> {
  descriptor: RowDescriptor<Row>;
  /** One level of the tree: the roots, or the children of a code (`GET /api/<res>/tree?parentCode=`). */
  loadChildren: (parentCode?: string) => Promise<Row[]>;
  /** Whether a node may get children (the deepest level may not). */
  canHaveChildren?: (row: Row) => boolean;
  /** Columns shown only with search results (a flat list), e.g. the full path. */
  flatColumns?: ListColumn<Row>[];
  /** Runs on search results before they show (e.g. resolving the names of their ancestors). */
  prepareFlat?: (rows: Row[]) => Promise<unknown>;
  rowActions?: (row: Row, context: RowActionContext) => ReactNode[];
  /** Replaces the generic import dialog (e.g. an import with a diff preview). */
  renderImport?: (props: { open: boolean; onClose: () => void; onImported: () => void }) => ReactNode;
  service?: ResourceService<Row, never, never>;
  createDefaults?: Record<string, unknown>;
}

const isSearching = (params: Record<string, unknown>) =>
  Object.entries(params).some(
    ([key, value]) => key !== 'current' && key !== 'pageSize' && value !== undefined && value !== null && value !== '',
  );

const node = <Row extends TreeRow>(row: Row): Shown<Row> => ({ ...row, children: row.hasChildren ? [] : undefined });

function replaceChildren<Row extends TreeRow>(
  rows: Shown<Row>[],
  parentCode: string,
  children: Shown<Row>[],
): Shown<Row>[] {
  return rows.map((row) => {
    if (row.code === parentCode) return { ...row, children: children.length ? children : undefined };
    return row.children?.length ? { ...row, children: replaceChildren(row.children, parentCode, children) } : row;
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
  canHaveChildren = () => true,
  flatColumns = [],
  prepareFlat,
  rowActions,
  renderImport,
  service: given,
  createDefaults,
}: Props<Row>) {
  const { t, code, can, service, lastQuery, toolbar, editLink, deleteLink, lockIcon, listColumns } =
    useResourceControls(descriptor, given);
  const actionRef = useRef<TableActions>();
  const [rows, setRows] = useState<Shown<Row>[]>([]);
  const [flat, setFlat] = useState(false);
  const [expanded, setExpanded] = useState<string[]>([]);
  const reload = () => actionRef.current?.reload();

  const expand = async (parentCode: string) => {
    const children = (await loadChildren(parentCode)).map(node);
    setRows((current) => replaceChildren(current, parentCode, children));
  };

  /** After a write: the level it happened in, fetched again (the top level through the table's request). */
  const refreshLevel = (parentCode: string | null | undefined) => {
    if (flat || !parentCode) reload();
    else expand(parentCode).catch(ignoreShownError);
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
        const parent = saved.parentCode ? findByCode(rows, saved.parentCode) : undefined;
        if (parent) setExpanded((keys) => (keys.includes(parent.id) ? keys : [...keys, parent.id]));
        refreshLevel(saved.parentCode);
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
    refreshLevel(row.parentCode);
  };

  const columns = listColumns(
    (row) => [
      can(code.create) && canHaveChildren(row) && (
        <ActionLink
          key="child"
          data-testid="row-add-child"
          onClick={() => edit({ defaults: { ...createDefaults, parentCode: row.code } })}
        >
          {t('resource.tree.addChild')}
        </ActionLink>
      ),
      editLink(row, () => edit({ record: row })),
      deleteLink(row, () => remove(row)),
      lockIcon(row),
      ...(rowActions?.(row, { reload: () => refreshLevel(row.parentCode), can }) ?? []),
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
            if (open && row.children?.length === 0) expand(row.code).catch(ignoreShownError);
          },
        }}
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

function findByCode<Row extends TreeRow>(rows: Shown<Row>[], code: string): Shown<Row> | undefined {
  for (const row of rows) {
    if (row.code === code) return row;
    const found = row.children?.length ? findByCode(row.children, code) : undefined;
    if (found) return found;
  }
  return undefined;
}
