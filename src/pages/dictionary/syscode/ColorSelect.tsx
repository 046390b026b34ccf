import { useIntl } from '@umijs/max';
import { ColorPicker, Space, Tag, Tooltip } from 'antd';

/** antd's status and preset tag colours (dict_item.color, docs/domain.md §3.1). */
export const TAG_COLORS = [
  'default',
  'processing',
  'success',
  'warning',
  'error',
  'magenta',
  'red',
  'volcano',
  'orange',
  'gold',
  'lime',
  'green',
  'cyan',
  'blue',
  'geekblue',
  'purple',
];

const isHex = (color?: string | null): color is string => Boolean(color && /^#[0-9a-fA-F]{6}$/.test(color));

/** A colour as the user sees it: a square of the tag it makes, named in the interface language on hover. */
export function ColorSwatch({ color }: { color: string }) {
  const intl = useIntl();
  const name = TAG_COLORS.includes(color) ? intl.formatMessage({ id: `dictionary.color.${color}` }) : color;
  return (
    <Tooltip title={name}>
      <Tag
        color={color}
        // a swatch is a picture of its colour: its name is what a screen reader says (a span may not carry a label)
        role="img"
        aria-label={name}
        data-testid="color-swatch"
        data-color={color}
        style={{ width: 18, height: 18, padding: 0, marginInlineEnd: 0, verticalAlign: 'middle' }}
      />
    </Tooltip>
  );
}

interface Props {
  value?: string | null;
  onChange?: (value: string | null) => void;
  /** The text the preview shows in the chosen colour. */
  sample?: string;
}

/** The tag palette as swatches to click, a picker for any other colour (#rrggbb), and the tag the choice makes. */
export default function ColorSelect({ value, onChange, sample }: Props) {
  const intl = useIntl();
  return (
    <Space direction="vertical" size={8} data-testid="form-color">
      <Space size={6} wrap role="radiogroup" aria-label={intl.formatMessage({ id: 'dictionary.item.color' })}>
        {TAG_COLORS.map((color) => (
          // biome-ignore lint/a11y/useSemanticElements: a swatch is a coloured tag, not a native radio input; role and keys make it one
          <span
            key={color}
            role="radio"
            tabIndex={0}
            aria-checked={value === color}
            data-testid={`color-option-${color}`}
            onClick={() => onChange?.(value === color ? null : color)}
            onKeyDown={(event) => (event.key === 'Enter' || event.key === ' ') && onChange?.(color)}
            style={{
              cursor: 'pointer',
              display: 'inline-flex',
              padding: 2,
              borderRadius: 4,
              outline: value === color ? '2px solid #1677ff' : 'none',
            }}
          >
            <ColorSwatch color={color} />
          </span>
        ))}
        <ColorPicker
          size="small"
          allowClear
          value={isHex(value) ? value : undefined}
          onChangeComplete={(color) => onChange?.(color.toHexString())}
          onClear={() => onChange?.(null)}
          data-testid="color-picker"
        />
      </Space>
      <Tag color={value ?? undefined} data-testid="color-preview">
        {sample || intl.formatMessage({ id: 'dictionary.item.color.preview' })}
      </Tag>
    </Space>
  );
}
