import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Space, Tree, TreeSelect } from 'antd';
import { useRef, useState } from 'react';
import { ignoreShownError } from '@/utils/request';
import { fetchLevel, searchTree, type TaxonomyKind, type TaxonomyNode } from './descriptor';

interface FlatNode {
  id: string;
  pId: string | null;
  value: string;
  title: string;
  isLeaf: boolean;
}

const flat = (row: TaxonomyNode): FlatNode => ({
  id: row.id,
  pId: row.parentId,
  value: row.id,
  title: row.name,
  isLeaf: !row.hasChildren,
});

/**
 * A tree of the bank, read a level at a time: the roots at once, a node's children when it is opened, and (`search`)
 * the levels on the way to the nodes a typed text finds, however deep. `status`: its nodes of that status only.
 */
function useTaxonomyNodes(kind: TaxonomyKind, status?: 'enabled') {
  const [nodes, setNodes] = useState<FlatNode[]>([]);
  const { refresh } = useRequest(() => fetchLevel(kind, undefined, status), {
    refreshDeps: [kind, status],
    onSuccess: (roots) => setNodes(roots.map(flat)),
    onError: ignoreShownError,
  });
  const merge = (read: FlatNode[]) =>
    setNodes((current) => [...current.filter((n) => !read.some((c) => c.id === n.id)), ...read]);
  const loadChildren = async (id: string) => {
    if (nodes.some((n) => n.pId === id)) return;
    merge((await fetchLevel(kind, id, status)).map(flat));
  };
  const typed = useRef<ReturnType<typeof setTimeout>>();
  /**
   * What is typed, a moment after the typing stops: the levels leading to its matches join the tree, and `opened` is
   * told the nodes on the way (those whose children came), for the picker to open them.
   */
  const search = (text: string, opened: (ids: string[]) => void) => {
    clearTimeout(typed.current);
    if (!text.trim()) return;
    typed.current = setTimeout(
      () =>
        searchTree(kind, text.trim(), status).then((found) => {
          merge(found.map(flat));
          opened(found.filter((n) => found.some((c) => c.parentId === n.id)).map((n) => n.id));
        }, ignoreShownError),
      250,
    );
  };
  return { nodes, loadChildren, search, reload: refresh };
}

/**
 * A category (one) or knowledge points (several) chosen from the tree, in a form or a search. `labels`: the names of
 * the values already chosen (a record's `categoryName`), shown before their level is read. `nullable`: clearing it
 * gives `null` (an edit form that sends the cleared value), not `undefined`.
 */
export function TaxonomySelect({
  id,
  kind,
  value,
  onChange,
  multiple,
  labels = {},
  placeholder,
  testId,
  nullable,
  enabledOnly,
}: {
  /** The Form.Item's id: its label names the field. */
  id?: string;
  kind: TaxonomyKind;
  /** Only the enabled nodes are offered (what a new question is put in). */
  enabledOnly?: boolean;
  value?: string | string[] | null;
  onChange?: (value: string | string[] | null | undefined) => void;
  multiple?: boolean;
  nullable?: boolean;
  labels?: Record<string, string>;
  placeholder?: string;
  testId?: string;
}) {
  const { nodes, loadChildren, search } = useTaxonomyNodes(kind, enabledOnly ? 'enabled' : undefined);
  // opened here: a search opens the way to what it found, read after the picker opened what it had
  const [expanded, setExpanded] = useState<string[]>([]);
  const ids = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  const labelOf = (id: string) => nodes.find((n) => n.id === id)?.title ?? labels[id] ?? id;
  const labelled = ids.map((id) => ({ value: id, label: labelOf(id) }));
  return (
    <TreeSelect
      id={id}
      // out of a form (a list's filter) its placeholder is its only name
      aria-label={id ? undefined : placeholder}
      data-testid={testId}
      treeDataSimpleMode
      treeData={nodes}
      loadData={({ id }) => loadChildren(String(id))}
      labelInValue
      multiple={multiple}
      allowClear
      showSearch
      onSearch={(text) => search(text, (ids) => setExpanded((open) => [...new Set([...open, ...ids])]))}
      treeExpandedKeys={expanded}
      onTreeExpand={(keys) => setExpanded(keys.map(String))}
      treeNodeFilterProp="title"
      placeholder={placeholder}
      value={multiple ? labelled : labelled[0]}
      onChange={(picked: { value: string } | { value: string }[] | undefined) => {
        if (Array.isArray(picked)) onChange?.(picked.map((p) => p.value));
        else onChange?.(picked?.value ?? (nullable ? null : undefined));
      }}
      style={{ width: '100%' }}
    />
  );
}

/** The category tree beside the question list: choosing a node lists its questions and those of its sub-categories. */
export function CategoryTree({
  selected,
  onSelect,
  version,
}: {
  selected?: string;
  onSelect: (id: string | undefined) => void;
  /** Changes when the categories were edited: the tree is read again. */
  version: number;
}) {
  const intl = useIntl();
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="category-tree">
      <Button
        type={selected ? 'link' : 'text'}
        size="small"
        data-testid="category-all"
        onClick={() => onSelect(undefined)}
      >
        {intl.formatMessage({ id: 'assess.category.all' })}
      </Button>
      <CategoryLevels key={version} selected={selected} onSelect={onSelect} />
    </Space>
  );
}

function CategoryLevels({ selected, onSelect }: { selected?: string; onSelect: (id: string | undefined) => void }) {
  const { nodes, loadChildren } = useTaxonomyNodes('category');
  const tree = (parent: string | null): { key: string; title: string; isLeaf: boolean; children?: unknown[] }[] =>
    nodes
      .filter((n) => n.pId === parent)
      .map((n) => {
        const children = tree(n.id);
        return { key: n.id, title: n.title, isLeaf: n.isLeaf, ...(children.length > 0 && { children }) };
      });
  return (
    <Tree
      blockNode
      treeData={tree(null)}
      selectedKeys={selected ? [selected] : []}
      loadData={({ key }) => loadChildren(String(key))}
      onSelect={(keys) => onSelect(keys[0] === undefined ? undefined : String(keys[0]))}
      titleRender={(node) => <span data-testid="category-node">{String(node.title)}</span>}
    />
  );
}
