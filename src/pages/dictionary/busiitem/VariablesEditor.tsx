import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { BusinessItemVariable } from '@server/modules/dictionary/busiitem/busiitem.schema';
import { useIntl } from '@umijs/max';
import { Button, Input, Select, Space } from 'antd';

const TYPES = ['string', 'number', 'date', 'url'] as const;

interface Props {
  value?: BusinessItemVariable[];
  onChange?: (value: BusinessItemVariable[]) => void;
}

/** The variables a business item offers templates: an editable list of name, label, example and type. */
export default function VariablesEditor({ value = [], onChange }: Props) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const change = (index: number, patch: Partial<BusinessItemVariable>) =>
    onChange?.(value.map((v, i) => (i === index ? { ...v, ...patch } : v)));
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="variables-editor">
      {value.map((variable, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own; every input is controlled
        <Space key={i} wrap align="start" data-testid="variable-row">
          <Input
            data-testid={`variable-name-${i}`}
            placeholder={t('dictionary.busiitem.variable.name')}
            value={variable.name}
            onChange={(e) => change(i, { name: e.target.value })}
            style={{ width: 130 }}
          />
          <Input
            data-testid={`variable-label-${i}`}
            placeholder={t('dictionary.busiitem.variable.label')}
            value={variable.label}
            onChange={(e) => change(i, { label: e.target.value })}
            style={{ width: 130 }}
          />
          <Input
            data-testid={`variable-example-${i}`}
            placeholder={t('dictionary.busiitem.variable.example')}
            value={variable.example}
            onChange={(e) => change(i, { example: e.target.value || undefined })}
            style={{ width: 150 }}
          />
          <Select
            data-testid={`variable-type-${i}`}
            placeholder={t('dictionary.busiitem.variable.type')}
            value={variable.type}
            allowClear
            onChange={(type) => change(i, { type })}
            style={{ width: 110 }}
            options={TYPES.map((type) => ({ value: type, label: t(`dictionary.busiitem.variable.type.${type}`) }))}
          />
          <Button
            icon={<DeleteOutlined />}
            aria-label={t('resource.delete')}
            data-testid={`variable-remove-${i}`}
            onClick={() => onChange?.(value.filter((_, j) => j !== i))}
          />
        </Space>
      ))}
      <Button
        type="dashed"
        icon={<PlusOutlined />}
        data-testid="variables-add"
        onClick={() => onChange?.([...value, { name: '', label: '' }])}
      >
        {t('dictionary.busiitem.variable.add')}
      </Button>
    </Space>
  );
}

/** Every variable named once: the server checks each name and label, not that they differ. */
export async function validateVariables(_rule: unknown, value?: BusinessItemVariable[]) {
  const list = value ?? [];
  if (new Set(list.map((v) => v.name)).size !== list.length) throw new Error('Variable names must be unique');
}
