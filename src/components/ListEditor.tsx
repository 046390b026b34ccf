import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { Button, Input, Select, Space } from 'antd';

/** One input of a row: text, or one of fixed choices. */
export interface ListEditorColumn<Item> {
  key: keyof Item & string;
  placeholderId: string;
  width: number;
  /** Choices (value and i18n id of its label): a select that may be cleared. */
  choices?: { value: string; labelId: string }[];
}

interface Props<Item> {
  value?: Item[];
  onChange?: (value: Item[]) => void;
  columns: ListEditorColumn<Item>[];
  /** What "add" appends. */
  blank: Item;
  addLabelId: string;
  /** Test ids: `<testId>s-editor`, `<testId>-row`, `<testId>-<key>-<i>`, `<testId>-remove-<i>`, `<testId>s-add`. */
  testId: string;
}

/** A form field holding a list of small records (a business item's variables, a choice field's options). */
export default function ListEditor<Item extends Record<string, unknown>>({
  value = [],
  onChange,
  columns,
  blank,
  addLabelId,
  testId,
}: Props<Item>) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const change = (index: number, patch: Partial<Item>) =>
    onChange?.(value.map((item, i) => (i === index ? { ...item, ...patch } : item)));
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid={`${testId}s-editor`}>
      {value.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own; every input is controlled
        <Space key={i} wrap align="start" data-testid={`${testId}-row`}>
          {columns.map((column) =>
            column.choices ? (
              <Select
                key={column.key}
                data-testid={`${testId}-${column.key}-${i}`}
                placeholder={t(column.placeholderId)}
                value={item[column.key] as string | undefined}
                allowClear
                onChange={(chosen) => change(i, { [column.key]: chosen } as Partial<Item>)}
                style={{ width: column.width }}
                options={column.choices.map((c) => ({ value: c.value, label: t(c.labelId) }))}
              />
            ) : (
              <Input
                key={column.key}
                data-testid={`${testId}-${column.key}-${i}`}
                placeholder={t(column.placeholderId)}
                value={(item[column.key] as string | undefined) ?? ''}
                onChange={(e) => change(i, { [column.key]: e.target.value || undefined } as Partial<Item>)}
                style={{ width: column.width }}
              />
            ),
          )}
          <Button
            icon={<DeleteOutlined />}
            aria-label={t('resource.delete')}
            data-testid={`${testId}-remove-${i}`}
            onClick={() => onChange?.(value.filter((_, j) => j !== i))}
          />
        </Space>
      ))}
      <Button
        type="dashed"
        icon={<PlusOutlined />}
        data-testid={`${testId}s-add`}
        onClick={() => onChange?.([...value, blank])}
      >
        {t(addLabelId)}
      </Button>
    </Space>
  );
}
