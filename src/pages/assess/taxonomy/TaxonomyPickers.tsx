import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Space, Tree, TreeSelect } from 'antd';
import { useState } from 'react';
import { ignoreShownError } from '@/utils/request';
import { fetchLevel, type TaxonomyKind, type TaxonomyNode } from './descriptor';

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

/** A tree of the bank, read a level at a time: the roots at once, a node's children when it is opened. */
function useTaxonomyNodes(kind: TaxonomyKind) {
  const [nodes, setNodes] = useState<FlatNode[]>([]);
  const { refresh } = useRequest(() => fetchLevel(kind), {
    refreshDeps: [kind],
    onSuccess: (roots) => setNodes(roots.map(flat)),
    onError: ignoreShownError,
  });
  const loadChildren = async (id: string) => {
    if (nodes.some((n) => n.pId === id)) return;
    const children = (await fetchLevel(kind, id)).map(flat);
    setNodes((current) => [...current.filter((n) => !children.some((c) => c.id === n.id)), ...children]);
  };
  return { nodes, loadChildren, reload: refresh };
}

/**
 * A category (one) or knowledge points (several) chosen from the tree, in a form or a search. `labels`: the names of
 * the values already chosen (a record's `categoryName`), shown before their level is read. `nullable`: clearing it
 * gives `null` (an edit form that sends the cleared value), not `undefined`.
 */
export function TaxonomySelect({
  kind,
  value,
  onChange,
  multiple,
  labels = {},
  placeholder,
  testId,
  nullable,
}: {
  kind: TaxonomyKind;
  value?: string | string[] | null;
  onChange?: (value: string | string[] | null | undefined) => void;
  multiple?: boolean;
  nullable?: boolean;
  labels?: Record<string, string>;
  placeholder?: string;
  testId?: string;
}) {
  const { nodes, loadChildren } = useTaxonomyNodes(kind);
  const ids = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  const labelOf = (id: string) => nodes.find((n) => n.id === id)?.title ?? labels[id] ?? id;
  const labelled = ids.map((id) => ({ value: id, label: labelOf(id) }));
  return (
    <TreeSelect
      data-testid={testId}
      treeDataSimpleMode
      treeData={nodes}
      loadData={({ id }) => loadChildren(String(id))}
      labelInValue
      multiple={multiple}
      allowClear
      showSearch
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
