import { Tooltip } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useState } from 'react';
import { DATE_FORMAT, DATE_TIME_FORMAT } from '@/utils/dates';
import type { ListColumn } from './types';

/** Where a list's columns stand and how their cells show (ListTable). */

/** How wide a cell's content grows before its text is cut short, unless its column gives a width. */
export const CELL_WIDTH = 200;
/** How wide a row's actions grow before they wrap onto a second line. */
export const ACTIONS_WIDTH = 280;

export const columnKey = <Row,>(column: ListColumn<Row>) =>
  String(column.key ?? (Array.isArray(column.dataIndex) ? column.dataIndex.join('.') : column.dataIndex));

/** Whether a column is the row's state, kept beside the actions: `status`, or one the descriptor fixes at the right. */
const isState = <Row,>(column: ListColumn<Row>) =>
  column.fixed === 'right' || (column.fixed === undefined && columnKey(column) === 'status');

/**
 * The columns in the order a wide list shows them: the first one fixed at the left (what the row is), the row's state
 * and its actions last and fixed at the right, so that a list wider than its room scrolls only what lies between.
 */
export function pinColumns<Row>(columns: ListColumn<Row>[]): ListColumn<Row>[] {
  const actions = columns.filter((column) => column.valueType === 'option');
  const states = columns.filter((column) => column.valueType !== 'option' && isState(column));
  const rest = columns.filter((column) => column.valueType !== 'option' && !isState(column));
  return [
    ...rest.map((column, i) =>
      i === 0 && column.fixed === undefined ? { ...column, fixed: 'left' as const } : column,
    ),
    ...[...states, ...actions].map((column) => ({ ...column, fixed: column.fixed ?? ('right' as const) })),
  ];
}

/**
 * A cell's content no wider than `width`: a longer text ends in an ellipsis, and the whole of it shows in a tooltip
 * while the pointer is over it. The tooltip is made only for a cell the pointer enters whose text is cut: a list's
 * cells are plain elements until then (an antd Tooltip in each cell cost the list's first row its time).
 */
export function Clamped({ width, children }: { width: number; children: ReactNode }) {
  const [whole, setWhole] = useState<string>();
  const [hovered, setHovered] = useState(false);
  const cell = (
    // biome-ignore lint/a11y/noStaticElementInteractions: a pointer's aid; the whole text stays the cell's own, for a reader
    <div
      style={{ maxWidth: width, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      onMouseEnter={(event) => {
        const box = event.currentTarget;
        setWhole(box.scrollWidth > box.clientWidth ? (box.textContent ?? undefined) : undefined);
        setHovered(true);
      }}
      onMouseLeave={() => setHovered(false)}
    >
      {children}
    </div>
  );
  if (!whole) return cell;
  return (
    <Tooltip title={whole} placement="topLeft" open={hovered}>
      {cell}
    </Tooltip>
  );
}

const FORMATS: Record<string, string> = { dateTime: DATE_TIME_FORMAT, date: DATE_FORMAT };

const fieldValue = (row: unknown, dataIndex: ListColumn<unknown>['dataIndex']) =>
  (Array.isArray(dataIndex) ? dataIndex : [dataIndex]).reduce<unknown>(
    (value, key) => (value as Record<string, unknown> | undefined)?.[key as string],
    row,
  );

/** A cell as ProTable would show it by its valueType: dates formatted, enums by their text, '-' when empty. */
export function plainCell<Row>(column: ListColumn<Row>, row: Row): ReactNode {
  const value = fieldValue(row, column.dataIndex);
  if (value === undefined || value === null || value === '') return '-';
  const format = FORMATS[String(column.valueType)];
  if (format) return dayjs(value as string).format(format);
  if (column.valueEnum instanceof Map) {
    const entry = column.valueEnum.get(value as string);
    return (entry as { text?: ReactNode } | undefined)?.text ?? String(value);
  }
  if (typeof value === 'boolean') return String(value);
  return value as ReactNode;
}

/** Which columns a user chose to show (the list's settings), kept in localStorage. */
export type ColumnsState = Record<string, { show?: boolean }>;

export function readColumnsState(key: string): ColumnsState {
  try {
    return JSON.parse(localStorage.getItem(key) ?? '{}') as ColumnsState;
  } catch {
    return {};
  }
}
