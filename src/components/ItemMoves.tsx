import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, HolderOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { Button, Popconfirm, Space } from 'antd';
import { type DragEvent, useRef } from 'react';

/**
 * Drag to order the items of a list in a form (the arrows of `ItemMoves` stay for the keyboard): each item's handle
 * (`handle(i)`, on a `DragHandle`) is dragged onto another item (`target(j)`, on the element that takes the drop), and
 * `move(i, j)` puts it in that place. Lists nested in one another each have their own: a drop is the inner list's.
 */
export function useDragMove(move: (from: number, to: number) => void) {
  const dragged = useRef<number>();
  return {
    handle: (index: number) => ({
      draggable: true,
      onDragStart: (event: DragEvent<HTMLElement>) => {
        event.stopPropagation();
        dragged.current = index;
        if (event.dataTransfer) {
          event.dataTransfer.effectAllowed = 'move';
          event.dataTransfer.setData('text/plain', String(index));
        }
      },
      onDragEnd: () => {
        dragged.current = undefined;
      },
    }),
    target: (index: number) => ({
      onDragOver: (event: DragEvent<HTMLElement>) => {
        if (dragged.current !== undefined && dragged.current !== index) event.preventDefault();
      },
      onDrop: (event: DragEvent<HTMLElement>) => {
        const from = dragged.current;
        if (from === undefined) return;
        event.preventDefault();
        event.stopPropagation();
        dragged.current = undefined;
        if (from !== index) move(from, index);
      },
    }),
  };
}

/** What is held to drag an item (`useDragMove`'s `handle`). */
export function DragHandle(
  props: ReturnType<ReturnType<typeof useDragMove>['handle']> & { testId?: string; title: string },
) {
  const { testId, title, ...drag } = props;
  return (
    <span {...drag} data-testid={testId} title={title} style={{ cursor: 'grab', padding: '0 4px' }}>
      <HolderOutlined />
    </span>
  );
}

/**
 * The moves of one item of an ordered list in a form (a paper's sections and questions, a group's items): up, down,
 * and out (after a confirmation saying `confirmRemove`, when given).
 */
export default function ItemMoves({
  index,
  count,
  move,
  remove,
  size,
  confirmRemove,
}: {
  index: number;
  count: number;
  move: (from: number, to: number) => void;
  remove: () => void;
  size?: 'small';
  confirmRemove?: string;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  return (
    <Space size={0}>
      <Button
        type="text"
        size={size}
        icon={<ArrowUpOutlined />}
        aria-label={t('resource.moveUp')}
        disabled={index === 0}
        onClick={() => move(index, index - 1)}
      />
      <Button
        type="text"
        size={size}
        icon={<ArrowDownOutlined />}
        aria-label={t('resource.moveDown')}
        disabled={index === count - 1}
        onClick={() => move(index, index + 1)}
      />
      {confirmRemove ? (
        <Popconfirm title={confirmRemove} onConfirm={remove}>
          <Button type="text" size={size} icon={<DeleteOutlined />} aria-label={t('resource.delete')} />
        </Popconfirm>
      ) : (
        <Button type="text" size={size} icon={<DeleteOutlined />} aria-label={t('resource.delete')} onClick={remove} />
      )}
    </Space>
  );
}
