import { useIntl } from '@umijs/max';
import { Button, Empty, Input, Space, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo, useState } from 'react';
import { type PermissionNode, permissionName, searchTree } from '@/services/permission';

interface Props {
  tree: PermissionNode[];
  value?: string[];
  onChange?: (ids: string[]) => void;
  disabled?: boolean;
}

interface Index {
  parent: Map<string, string | null>;
  descendants: Map<string, string[]>;
  all: string[];
}

function indexTree(tree: PermissionNode[]): Index {
  const parent = new Map<string, string | null>();
  const descendants = new Map<string, string[]>();
  const all: string[] = [];
  const walk = (nodes: PermissionNode[], up: string | null): string[] =>
    nodes.flatMap((node) => {
      parent.set(node.id, up);
      all.push(node.id);
      const below = walk(node.children ?? [], node.id);
      descendants.set(node.id, below);
      return [node.id, ...below];
    });
  walk(tree, null);
  return { parent, descendants, all };
}

/**
 * Checking a node also checks its ancestors (a button needs its menu, a menu its directory) and
 * everything below it; unchecking takes everything below it too. The value is exactly the ids held.
 */
export function toggle(index: Index, held: string[], id: string, checked: boolean): string[] {
  const next = new Set(held);
  const below = index.descendants.get(id) ?? [];
  if (checked) {
    for (const x of [id, ...below]) next.add(x);
    for (let up = index.parent.get(id); up; up = index.parent.get(up)) next.add(up);
  } else {
    for (const x of [id, ...below]) next.delete(x);
  }
  return index.all.filter((x) => next.has(x));
}

const TYPE_COLOR: Record<string, string> = { directory: 'purple', menu: 'blue', button: 'default' };

const idsOf = (nodes: PermissionNode[]): string[] => nodes.flatMap((n) => [n.id, ...idsOf(n.children ?? [])]);

/**
 * A checkable tree of permissions (directories, menus, buttons) as a form control of permission ids: names in the
 * interface language first, codes beside them, a search over both. It takes the height it needs; its container
 * scrolls.
 */
export default function PermissionTree({ tree, value = [], onChange, disabled }: Props) {
  const intl = useIntl();
  const index = useMemo(() => indexTree(tree), [tree]);
  const [expanded, setExpanded] = useState<string[]>();
  const [search, setSearch] = useState('');
  const shown = useMemo(() => searchTree(tree, search), [tree, search]);
  const data = useMemo(() => {
    const toData = (nodes: PermissionNode[]): DataNode[] =>
      nodes.map((node) => ({
        key: node.id,
        title: (
          <span data-testid="permission-node" data-code={node.code ?? node.localeKey ?? node.name}>
            <span data-testid="permission-name">{permissionName(node, intl.locale)}</span>
            {node.code && (
              <Typography.Text type="secondary" style={{ marginLeft: 8, fontSize: 12 }}>
                {node.code}
              </Typography.Text>
            )}
            <Tag color={TYPE_COLOR[node.type]} bordered={false} style={{ marginLeft: 8 }}>
              {intl.formatMessage({ id: `permission.type.${node.type}` })}
            </Tag>
          </span>
        ),
        children: node.children?.length ? toData(node.children) : undefined,
      }));
    return toData(shown);
  }, [shown, intl]);
  if (!tree.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  const topLevel = tree.map((n) => n.id);
  // while searching every hit is opened up to its buttons
  const expandedKeys = search.trim() ? idsOf(shown) : (expanded ?? topLevel);
  return (
    <div data-testid="permission-tree">
      <Input.Search
        allowClear
        placeholder={intl.formatMessage({ id: 'permission.tree.search' })}
        onChange={(event) => setSearch(event.target.value)}
        data-testid="permission-search"
        style={{ marginBottom: 8 }}
      />
      <Space wrap style={{ marginBottom: 8 }}>
        <Button size="small" disabled={disabled} onClick={() => onChange?.(index.all)} data-testid="permission-all">
          {intl.formatMessage({ id: 'permission.tree.all' })}
        </Button>
        <Button size="small" disabled={disabled} onClick={() => onChange?.([])} data-testid="permission-none">
          {intl.formatMessage({ id: 'permission.tree.none' })}
        </Button>
        <Button size="small" onClick={() => setExpanded(expanded?.length === index.all.length ? topLevel : index.all)}>
          {intl.formatMessage({ id: 'permission.tree.expand' })}
        </Button>
        <span>{intl.formatMessage({ id: 'permission.tree.count' }, { count: value.length })}</span>
      </Space>
      {shown.length ? (
        <Tree
          checkable
          checkStrictly
          selectable={false}
          disabled={disabled}
          treeData={data}
          expandedKeys={expandedKeys}
          onExpand={(keys) => setExpanded(keys.map(String))}
          checkedKeys={{ checked: value, halfChecked: [] }}
          onCheck={(_keys, info) => onChange?.(toggle(index, value, String(info.node.key), info.checked))}
        />
      ) : (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={intl.formatMessage({ id: 'permission.tree.noMatch' })}
        />
      )}
    </div>
  );
}
