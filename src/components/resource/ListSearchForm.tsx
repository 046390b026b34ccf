import { CalendarOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { Button, Card, Form, Input, Select, Space } from 'antd';
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import type { ListParams } from './params';
import { searchable } from './SearchFormRoom';
import type { ListColumn } from './types';

/** Date pickers are the heaviest field: they load when one is first used, not with the list. */
const DateSearchField = lazy(() => import('./DateSearchField'));

function DateField({ range, ...props }: { range: boolean; id?: string; value?: string | string[] }) {
  const [active, setActive] = useState(Boolean(props.value));
  const idle = (
    <Input
      // the Form.Item's id: its label names this field too
      id={props.id}
      readOnly
      suffix={<CalendarOutlined />}
      onFocus={() => setActive(true)}
      onMouseEnter={() => setActive(true)}
      data-testid="date-search-idle"
    />
  );
  if (!active) return idle;
  return (
    <Suspense fallback={idle}>
      <DateSearchField range={range} {...props} />
    </Suspense>
  );
}

const fieldName = <Row,>(column: ListColumn<Row>) =>
  String(column.key ?? (Array.isArray(column.dataIndex) ? column.dataIndex.join('.') : column.dataIndex));

function field<Row>(column: ListColumn<Row>, props: Record<string, unknown>): ReactNode {
  if (column.searchField) return column.searchField(props);
  if (column.valueEnum instanceof Map) {
    const options = [...column.valueEnum.entries()].map(([value, entry]) => ({
      value,
      label: (entry as { text?: ReactNode }).text ?? String(value),
    }));
    return <Select allowClear options={options} style={{ minWidth: 160 }} {...props} />;
  }
  if (column.valueType === 'date' || column.valueType === 'dateRange')
    return <DateField range={column.valueType === 'dateRange'} {...props} />;
  return <Input allowClear {...props} />;
}

/** A column's search field; a Form.Item gives it `value` and `onChange`, which it hands on. */
function SearchField<Row>({ column, ...item }: { column: ListColumn<Row> } & Record<string, unknown>) {
  return field(column, { ...((column.fieldProps ?? {}) as Record<string, unknown>), ...item });
}

/** The search form of a list: one field per searchable column (text, enum, date, date range); search and reset. */
export default function ListSearchForm<Row>({
  columns,
  values,
  onSearch,
  heightKey,
}: {
  columns: ListColumn<Row>[];
  /** The search in force (a link's filters among them): the form shows it. */
  values?: ListParams;
  onSearch: (values: ListParams) => void;
  /** Where its rendered height is remembered, for the room kept while it waits (SearchFormRoom). */
  heightKey?: string;
}) {
  const intl = useIntl();
  const [form] = Form.useForm();
  const card = useRef<HTMLDivElement>(null);
  const fields = columns.filter(searchable);
  const valuesKey = JSON.stringify(values ?? {});
  // biome-ignore lint/correctness/useExhaustiveDependencies: the values as one key, not a new object each render
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(JSON.parse(valuesKey));
  }, [form, valuesKey]);
  useEffect(() => {
    const height = card.current?.offsetHeight;
    if (heightKey && height) localStorage.setItem(heightKey, String(height));
  });
  if (!fields.length) return null;
  return (
    <Card ref={card} styles={{ body: { paddingBottom: 0 } }}>
      <Form form={form} layout="inline" onFinish={onSearch} data-testid="table-search">
        {fields.map((column) => (
          <Form.Item
            key={fieldName(column)}
            name={fieldName(column)}
            label={column.title as ReactNode}
            style={{ marginBottom: 24, minWidth: 240 }}
          >
            <SearchField column={column} />
          </Form.Item>
        ))}
        <Form.Item style={{ marginBottom: 24 }}>
          <Space>
            <Button
              onClick={() => {
                form.resetFields();
                onSearch({});
              }}
              data-testid="table-search-reset"
            >
              {intl.formatMessage({ id: 'table.search.reset' })}
            </Button>
            <Button type="primary" htmlType="submit" data-testid="table-search-submit">
              {intl.formatMessage({ id: 'table.search.submit' })}
            </Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
