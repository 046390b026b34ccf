import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { Button, Popconfirm, Space } from 'antd';

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
