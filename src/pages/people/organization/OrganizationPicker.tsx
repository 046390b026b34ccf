import { TreeSelect } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { ignoreShownError } from '@/utils/request';
import { fetchOrganizationLevel, type OrganizationNode, organizations } from './service';

interface Option {
  id: string;
  pId: string;
  value: string;
  title: string;
  isLeaf: boolean;
  disabled?: boolean;
}

interface Props {
  /** None chosen: undefined, or null (a record's empty field). */
  value?: string | string[] | null;
  onChange?: (value: string | string[] | undefined) => void;
  multiple?: boolean;
  /** Choices above the tree's roots (the top of the tree, for a move). */
  before?: { value: string; title: string }[];
  /** A node offered disabled, with nothing under it (the node being moved). */
  exclude?: string;
  /** The only types that may be chosen (a department, say); the others show disabled, for where the choices sit. */
  types?: readonly OrganizationNode['orgType'][];
  disabled?: boolean;
  'data-testid'?: string;
}

/** How long typing pauses before the organisations matching it are asked for. */
const SEARCH_DELAY_MS = 300;
/** The most matches of a search brought into the tree. */
const SEARCH_MATCHES = 20;

/**
 * Organisations picked from the tree, one level at a time as it is opened; the chosen ones are shown in place (their
 * ancestors' levels are loaded first). What is typed finds organisations at any level by code or name: the matches are
 * brought into the tree with the levels above them, and the tree shows only them and where they sit. A form control:
 * `value` and `onChange`.
 */
export default function OrganizationPicker({ value, onChange, multiple, before = [], exclude, types, ...rest }: Props) {
  const [options, setOptions] = useState<Option[]>(
    before.map((b) => ({ id: b.value, pId: '', value: b.value, title: b.title, isLeaf: true })),
  );

  const toOption = (node: OrganizationNode, parent: string): Option => ({
    id: node.id,
    pId: parent,
    value: node.id,
    title: `${node.name} (${node.code})`,
    isLeaf: !node.hasChildren || node.id === exclude,
    disabled: node.id === exclude || (types !== undefined && !types.includes(node.orgType)),
  });

  /** The level under `parent` (the roots when empty), once. */
  const load = async (parent: string, known: Set<string>) => {
    if (known.has(parent)) return;
    known.add(parent);
    const nodes = await fetchOrganizationLevel(parent || undefined).catch(() => []);
    setOptions((current) => [...current, ...nodes.map((n) => toOption(n, parent))]);
  };

  // every level loaded or being loaded, whether for the chosen nodes, an expanded node or a search's matches
  const known = useRef(new Set<string>()).current;
  /** The levels above a node of `path` (`/1/7/42/`), top first, so that the node shows where it sits. */
  const loadAbove = async (path: string) => {
    for (const ancestor of path.split('/').filter(Boolean).slice(0, -1)) await load(ancestor, known);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the roots and the chosen nodes' ancestors, once
  useEffect(() => {
    (async () => {
      await load('', known);
      const chosen = value == null ? [] : Array.isArray(value) ? value : [value];
      for (const id of chosen) {
        const org = await organizations.get(id, { shownByCaller: [404] }).catch(() => undefined);
        if (org) await loadAbove(org.path);
      }
    })();
  }, []);

  const searching = useRef<ReturnType<typeof setTimeout>>();
  // while a search shows its matches, the levels above them are open
  const [opened, setOpened] = useState<string[]>();
  useEffect(() => () => clearTimeout(searching.current), []);
  const search = (typed: string) => {
    clearTimeout(searching.current);
    const keyword = typed.trim();
    if (!keyword) {
      setOpened(undefined);
      return;
    }
    searching.current = setTimeout(async () => {
      const found = await organizations
        .list({ keyword, current: '1', pageSize: String(SEARCH_MATCHES) })
        .then((answer) => answer.data, ignoreShownError);
      for (const org of found ?? []) await loadAbove(org.path);
      setOpened([...new Set((found ?? []).flatMap((org) => org.path.split('/').filter(Boolean).slice(0, -1)))]);
    }, SEARCH_DELAY_MS);
  };

  return (
    <TreeSelect
      {...rest}
      value={value ?? undefined}
      onChange={onChange}
      multiple={multiple}
      allowClear
      treeDataSimpleMode
      treeData={options}
      loadData={async ({ value: id }) => {
        if (!options.some((o) => o.pId === String(id))) await load(String(id), known);
      }}
      showSearch
      treeNodeFilterProp="title"
      onSearch={search}
      treeExpandedKeys={opened}
      onTreeExpand={(keys) => opened && setOpened(keys.map(String))}
      style={{ width: '100%' }}
    />
  );
}
