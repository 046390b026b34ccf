import { ProForm } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { TreeSelect } from 'antd';
import { useEffect, useState } from 'react';
import RecordModalForm from '@/components/RecordModalForm';
import { ignoreShownError } from '@/utils/request';
import type { Organization } from './descriptor';
import { fetchOrganizationLevel, moveOrganization, type OrganizationNode } from './service';

/** The top of the tree, as the picker offers it (sent as `parentId: null`). */
const TOP = 'top';

interface Option {
  id: string;
  pId: string;
  value: string;
  title: string;
  isLeaf: boolean;
  disabled?: boolean;
}

/**
 * "Move to": the new parent picked from the tree, one level at a time. The node itself and everything under it are
 * not offered (the server refuses them too, as it refuses a type the new parent may not hold: shown on the field).
 */
export default function MoveDialog({
  record,
  onClose,
  onMoved,
}: {
  record?: Organization;
  onClose: () => void;
  onMoved: () => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const [options, setOptions] = useState<Option[]>([]);

  const toOption = (node: OrganizationNode, parent: string): Option => ({
    id: node.id,
    pId: parent,
    value: node.id,
    title: `${node.name} (${node.code})`,
    // a subtree under the moved node is not offered: its own node is shown, disabled, and never expanded
    isLeaf: !node.hasChildren || node.id === record?.id,
    disabled: node.id === record?.id,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per record
  useEffect(() => {
    if (!record) return;
    setOptions([{ id: TOP, pId: '', value: TOP, title: t('people.organization.move.top'), isLeaf: true }]);
    fetchOrganizationLevel()
      .then((roots) => setOptions((current) => [...current, ...roots.map((n) => toOption(n, ''))]))
      .catch(ignoreShownError);
  }, [record?.id]);

  const loadData = async ({ value }: { value?: string | number }) => {
    const id = String(value);
    if (options.some((o) => o.pId === id)) return;
    const children = await fetchOrganizationLevel(id).catch(() => []);
    setOptions((current) => [...current, ...children.map((n) => toOption(n, id))]);
  };

  return (
    <RecordModalForm<{ parentId?: string }>
      record={record}
      title={t('people.organization.move.title', { name: record?.name ?? '' })}
      initialValues={{}}
      submitTestId="move-submit"
      save={(values, options) =>
        moveOrganization(
          record?.id ?? '',
          {
            parentId: values.parentId && values.parentId !== TOP ? values.parentId : null,
            version: record?.version ?? 0,
          },
          options,
        )
      }
      onClose={onClose}
      onSaved={onMoved}
    >
      <ProForm.Item name="parentId" label={t('people.organization.move.target')} rules={[{ required: true }]}>
        <TreeSelect
          data-testid="move-target"
          treeDataSimpleMode
          treeData={options}
          loadData={loadData}
          showSearch={false}
          style={{ width: '100%' }}
          treeNodeFilterProp="title"
        />
      </ProForm.Item>
    </RecordModalForm>
  );
}
