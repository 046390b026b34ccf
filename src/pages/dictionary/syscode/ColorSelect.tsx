import { useIntl } from '@umijs/max';
import { Select, Space, Tag } from 'antd';

/** antd's status and preset tag colours (dict_item.color, docs/domain.md §3.1). */
export const TAG_COLORS = [
  'default', 'processing', 'success', 'warning', 'error',
  'magenta', 'red', 'volcano', 'orange', 'gold', 'lime', 'green', 'cyan', 'blue', 'geekblue', 'purple',
];

interface Props {
  value?: string | null;
  onChange?: (value: string | null) => void;
  /** The text the preview shows in the chosen colour. */
  sample?: string;
}

/** A select of the preset tag colours, each option and the choice shown as the tag it makes. */
export default function ColorSelect({ value, onChange, sample }: Props) {
  const intl = useIntl();
  return (
    <Space>
      <Select
        data-testid="form-color"
        style={{ minWidth: 180 }}
        allowClear
        value={value ?? undefined}
        onChange={(next) => onChange?.(next ?? null)}
        placeholder={intl.formatMessage({ id: 'dictionary.item.color.placeholder' })}
        options={TAG_COLORS.map((color) => ({ value: color, label: <Tag color={color}>{color}</Tag> }))}
      />
      <Tag color={value ?? undefined} data-testid="color-preview">
        {sample || intl.formatMessage({ id: 'dictionary.item.color.preview' })}
      </Tag>
    </Space>
  );
}
