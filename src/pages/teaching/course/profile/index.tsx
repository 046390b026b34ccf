import '@/pages/teaching/catalogue';
import { DownloadOutlined, FolderOutlined } from '@ant-design/icons';
import { Link, useAccess, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Card, Empty, Popconfirm, Progress, Space, Table, Tag, Tree, type TreeProps, Typography } from 'antd';
import ResourceProfile from '@/components/resource/ResourceProfile';
import { downloadFile } from '@/services/resource';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import { type CourseItem, fetchCourseItems, reorderItems } from '../../course-item/descriptor';
import {
  assignCourse,
  type Course,
  courseDescriptor,
  type Enrolment,
  fetchEnrolments,
  offlineCourse,
  publishCourse,
} from '../descriptor';
import { dropped, outline } from '../outline';

const STATUS_COLOURS: Record<CourseItem['status'], string> = {
  draft: 'default',
  published: 'success',
  hidden: 'warning',
};

/** The course's items as a tree, dragged into a new order (into or out of chapters). */
function Outline({ course }: { course: Course }) {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string) => intl.formatMessage({ id });
  const { data: items = [], refresh } = useRequest(() => fetchCourseItems(course.id), { onError: ignoreShownError });
  const tree = outline(items);
  const title = (item: CourseItem) => (
    <Space size={4}>
      {item.itemType === 'chapter' ? (
        <FolderOutlined />
      ) : (
        <Tag>{t(`teaching.course-item.itemType.${item.itemType}`)}</Tag>
      )}
      <Link to={`/teach/course/item/${item.id}/profile`}>{item.title}</Link>
      <Tag color={STATUS_COLOURS[item.status]}>{t(`teaching.course-item.status.${item.status}`)}</Tag>
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
    reorderItems(course.id, order).then(() => {
      message.success(t('teaching.course.items.reordered'));
      refresh();
    }, ignoreShownError);
  };
  return (
    <Card
      title={t('teaching.course.items')}
      data-testid="course-outline"
      extra={<Link to={`/teach/course/item/list?courseId=${course.id}`}>{t('teaching.course.items.manage')}</Link>}
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
            defaultExpandAll
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

/** Who is on the course, with their progress and completion; the report as xlsx. */
function Enrolments({ course }: { course: Course }) {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string) => intl.formatMessage({ id });
  const { data = [], loading } = useRequest(() => fetchEnrolments(course.id), {
    refreshDeps: [course.version],
    onError: ignoreShownError,
  });
  const exportReport = () =>
    downloadFile(`/api/teaching/course/${course.id}/report`, undefined, `course-${course.code}.xlsx`).catch(
      ignoreShownError,
    );
  return (
    <Card
      title={`${t('teaching.course.enrolments')} (${data.length})`}
      data-testid="course-enrolments"
      extra={
        access['teaching:course:export'] && (
          <Button icon={<DownloadOutlined />} onClick={exportReport} data-testid="course-report">
            {t('teaching.course.report')}
          </Button>
        )
      }
    >
      <Table<Enrolment>
        size="small"
        rowKey="traineeId"
        loading={loading}
        dataSource={data}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        columns={[
          { title: t('teaching.activity.traineeNo'), dataIndex: 'traineeNo', width: 130 },
          { title: t('teaching.activity.traineeName'), dataIndex: 'traineeName', width: 110 },
          { title: t('teaching.activity.traineeTypeName'), dataIndex: 'traineeTypeName', width: 120 },
          { title: t('teaching.activity.baseName'), dataIndex: 'baseName' },
          {
            title: t('teaching.course.enrolment.progressPercent'),
            dataIndex: 'progressPercent',
            width: 200,
            render: (percent: number) => <Progress percent={percent} size="small" />,
          },
          {
            title: t('teaching.course.enrolment.status'),
            dataIndex: 'status',
            width: 100,
            render: (status: Enrolment['status']) => (
              <Tag color={status === 'completed' ? 'success' : status === 'in_progress' ? 'processing' : 'default'}>
                {t(`teaching.course.enrolment.status.${status}`)}
              </Tag>
            ),
          },
          {
            title: t('teaching.course.enrolment.completedAt'),
            dataIndex: 'completedAt',
            width: 170,
            render: (at: string | null) => (at ? new Date(at).toLocaleString() : '-'),
          },
        ]}
      />
    </Card>
  );
}

/**
 * /teach/course/:id/profile: the course's settings; published, taken offline or assigned from here; its items in
 * order (dragged into a new one); its enrolments with progress and completion, and the report; its audit trail.
 */
export default function CourseProfile() {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string, values?: Record<string, number>) => intl.formatMessage({ id }, values);
  return (
    <div data-testid="course-profile">
      <ResourceProfile<Course> descriptor={courseDescriptor}>
        {(course, reload) => (
          <>
            <Space>
              {['draft', 'offline'].includes(course.status) && access['teaching:course:publish'] && (
                <Button
                  type="primary"
                  data-testid="course-profile-publish"
                  onClick={() => publishCourse(course).then(reload, ignoreShownError)}
                >
                  {t('teaching.course.publish')}
                </Button>
              )}
              {course.status === 'published' && access['teaching:course:assign'] && (
                <Popconfirm
                  title={t('teaching.course.assign.confirm')}
                  onConfirm={() =>
                    assignCourse(course).then(({ enrolled }) => {
                      message.success(t('teaching.course.assigned', { count: enrolled }));
                      reload();
                    }, ignoreShownError)
                  }
                >
                  <Button data-testid="course-profile-assign">{t('teaching.course.assign')}</Button>
                </Popconfirm>
              )}
              {course.status === 'published' && access['teaching:course:publish'] && (
                <Button onClick={() => offlineCourse(course).then(reload, ignoreShownError)}>
                  {t('teaching.course.offline')}
                </Button>
              )}
            </Space>
            <Outline course={course} />
            <Enrolments course={course} />
          </>
        )}
      </ResourceProfile>
    </div>
  );
}
