import '@/pages/teaching/catalogue';
import { FolderOutlined } from '@ant-design/icons';
import { Link, useAccess, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Card, Empty, Space, Tag, Tree, type TreeProps, Typography } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '@/utils/dates';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import { type CourseItem, fetchCourseItems, reorderItems } from '../course-item/descriptor';
import { dropped, outline } from './outline';

const STATUS_COLOURS: Record<CourseItem['status'], string> = {
  draft: 'default',
  published: 'success',
  hidden: 'warning',
};

/** The course's items as a tree, dragged into a new order (into or out of chapters). */
export default function CourseOutline({
  courseId,
  manage,
  reloadKey,
  onReordered,
}: {
  courseId: string;
  /** A link to the course's item list. */
  manage?: boolean;
  /** Read again when it changes (the list beside it saved an item). */
  reloadKey?: unknown;
  onReordered?: () => void;
}) {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string) => intl.formatMessage({ id });
  const { data: items = [], refresh } = useRequest(() => fetchCourseItems(courseId), {
    refreshDeps: [courseId, reloadKey],
    onError: ignoreShownError,
  });
  const tree = outline(items);
  /** Chapters the user folded: every other one shows its items, those added to it since the outline was drawn too. */
  const [folded, setFolded] = useState<string[]>([]);
  const title = (item: CourseItem) => (
    <Space size={4}>
      {item.itemType === 'chapter' ? (
        <FolderOutlined />
      ) : (
        <Tag>{t(`teaching.course-item.itemType.${item.itemType}`)}</Tag>
      )}
      <Link to={`/teach/course/item/${item.id}/profile`}>{item.title}</Link>
      <Tag color={STATUS_COLOURS[item.status]}>{t(`teaching.course-item.status.${item.status}`)}</Tag>
      {item.availableFrom && (
        <Typography.Text type="secondary" data-testid={`item-available-${item.id}`}>
          {intl.formatMessage(
            { id: 'teaching.course-item.availableFrom.from' },
            { time: formatDateTime(item.availableFrom) },
          )}
        </Typography.Text>
      )}
    </Space>
  );
  const onDrop: TreeProps['onDrop'] = (info) => {
    const position = Number(String(info.node.pos).split('-').at(-1));
    const order = dropped(
      tree,
      String(info.dragNode.key),
      String(info.node.key),
      !info.dropToGap,
      info.dropPosition > position,
    );
    if (!order) return;
    reorderItems(courseId, order).then(() => {
      message.success(t('teaching.course.items.reordered'));
      refresh();
      onReordered?.();
    }, ignoreShownError);
  };
  return (
    <Card
      title={t('teaching.course.items')}
      data-testid="course-outline"
      extra={
        manage && <Link to={`/teach/course/item/list?courseId=${courseId}`}>{t('teaching.course.items.manage')}</Link>
      }
    >
      {tree.length === 0 ? (
        <Empty />
      ) : (
        <>
          {access['teaching:course-item:update'] && (
            <Typography.Paragraph type="secondary">{t('teaching.course.items.dragHint')}</Typography.Paragraph>
          )}
          <Tree
            blockNode
            expandedKeys={tree.filter((n) => !folded.includes(n.item.id)).map((n) => n.item.id)}
            onExpand={(_, { node, expanded }) =>
              setFolded((keys) => (expanded ? keys.filter((k) => k !== node.key) : [...keys, String(node.key)]))
            }
            draggable={access['teaching:course-item:update'] ? { icon: false } : false}
            allowDrop={({ dragNode, dropNode, dropPosition }) =>
              dropPosition === 0
                ? (dropNode as unknown as { itemType: string }).itemType === 'chapter' &&
                  (dragNode as unknown as { itemType: string }).itemType !== 'chapter'
                : true
            }
            onDrop={onDrop}
            treeData={tree.map((n) => ({
              key: n.item.id,
              itemType: n.item.itemType,
              title: title(n.item),
              children: n.children.map((c) => ({ key: c.id, itemType: c.itemType, title: title(c), isLeaf: true })),
              isLeaf: n.item.itemType !== 'chapter',
            }))}
          />
        </>
      )}
    </Card>
  );
}
