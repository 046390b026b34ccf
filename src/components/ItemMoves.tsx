import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { Button, Space } from 'antd';

/**
 * The moves of one item of an ordered list in a form (a paper's sections and questions, a group's items): up, down,
 * and out.
 */
export default function ItemMoves({
  index,
  count,
  move,
  remove,
  size,
}: {
  index: number;
  count: number;
  move: (from: number, to: number) => void;
  remove: () => void;
  size?: 'small';
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
      <Button type="text" size={size} icon={<DeleteOutlined />} aria-label={t('resource.delete')} onClick={remove} />
    </Space>
  );
}
