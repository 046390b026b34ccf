import { TreeSelect } from 'antd';
import { useEffect, useState } from 'react';
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

/**
 * Organisations picked from the tree, one level at a time as it is opened; the chosen ones are shown in place (their
 * ancestors' levels are loaded first). A form control: `value` and `onChange`.
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

  // biome-ignore lint/correctness/useExhaustiveDependencies: the roots and the chosen nodes' ancestors, once
  useEffect(() => {
    const known = new Set<string>();
    (async () => {
      await load('', known);
      const chosen = value == null ? [] : Array.isArray(value) ? value : [value];
      for (const id of chosen) {
        const org = await organizations.get(id, { shownByCaller: [404] }).catch(() => undefined);
        const ancestors = org?.path.split('/').filter(Boolean).slice(0, -1) ?? [];
        for (const ancestor of ancestors) await load(ancestor, known);
      }
    })();
  }, []);

  const loaded = new Set<string>();
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
        if (!options.some((o) => o.pId === String(id))) await load(String(id), loaded);
      }}
      showSearch={false}
      style={{ width: '100%' }}
    />
  );
}
