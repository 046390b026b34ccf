import '@/pages/teaching/catalogue';
import { DownloadOutlined, EditOutlined } from '@ant-design/icons';
import { useAccess, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Card, Input, Modal, Popconfirm, Progress, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import ResourceForm from '@/components/resource/ResourceForm';
import ResourceProfile from '@/components/resource/ResourceProfile';
import TraineesAdder from '@/pages/people/trainee/TraineesAdder';
import { downloadFile } from '@/services/resource';
import { formatDateTime } from '@/utils/dates';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import CourseOutline from '../CourseOutline';
import {
  assignCourse,
  type Course,
  courseDescriptor,
  type Enrolment,
  enrolTrainees,
  fetchEnrolments,
  offlineCourse,
  publishCourse,
  unenrolTrainees,
} from '../descriptor';

const ENROLMENT_STATUSES: Enrolment['status'][] = ['not_started', 'in_progress', 'completed', 'failed'];

/**
 * Who is on the course, with their progress and completion (found by name or number, by status); the report as xlsx.
 * Trainees enrolled by hand, or taken off it after a confirmation that says their progress goes; one who completed it
 * stays (their record of its credit hours): no removal is offered.
 */
function Enrolments({ course, reload }: { course: Course; reload: () => void }) {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const { data = [], loading } = useRequest(() => fetchEnrolments(course.id), {
    refreshDeps: [course.version],
    onError: ignoreShownError,
  });
  const managing = access['teaching:course:assign'] && course.status !== 'archived';
  const remove = (row: Enrolment) =>
    Modal.confirm({
      title: t('teaching.course.enrolment.remove.title', { name: row.traineeName }),
      content: t(
        row.progressPercent > 0
          ? 'teaching.course.enrolment.remove.progress'
          : 'teaching.course.enrolment.remove.confirm',
        { percent: row.progressPercent },
      ),
      okButtonProps: { danger: true },
      onOk: () =>
        unenrolTrainees(course.id, [row.traineeId]).then(() => {
          message.success(t('teaching.course.enrolment.removed'));
          reload();
        }, ignoreShownError),
    });
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<Enrolment['status']>();
  const words = search.trim().toLowerCase();
  const shown = data.filter(
    (e) =>
      (!status || e.status === status) &&
      (!words || e.traineeName.toLowerCase().includes(words) || e.traineeNo.toLowerCase().includes(words)),
  );
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
      <Space style={{ marginBottom: 12 }} wrap>
        {managing && course.status === 'published' && (
          <TraineesAdder
            testId="enrolment"
            label={t('teaching.course.enrolment.add')}
            placeholder={t('teaching.course.enrolment.pick')}
            statuses={['in_training', 'extended']}
            listed={data.map((e) => e.traineeId)}
            add={(ids) =>
              enrolTrainees(course.id, ids).then(({ count }) => {
                message.success(t('teaching.course.assigned', { count }));
                reload();
              })
            }
          />
        )}
        <Input.Search
          allowClear
          placeholder={t('teaching.course.enrolment.search')}
          onSearch={setSearch}
          onChange={(e) => !e.target.value && setSearch('')}
          style={{ width: 240 }}
          data-testid="enrolment-search"
        />
        <Select<Enrolment['status']>
          allowClear
          placeholder={t('teaching.course.enrolment.allStatuses')}
          aria-label={t('teaching.course.enrolment.allStatuses')}
          value={status}
          onChange={setStatus}
          style={{ width: 160 }}
          data-testid="enrolment-status"
          options={ENROLMENT_STATUSES.map((value) => ({
            value,
            label: t(`teaching.course.enrolment.status.${value}`),
          }))}
        />
      </Space>
      <Table<Enrolment>
        size="small"
        rowKey="traineeId"
        loading={loading}
        dataSource={shown}
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
            render: (at: string | null) => (at ? formatDateTime(at) : '-'),
          },
          ...(managing
            ? [
                {
                  width: 80,
                  render: (_: unknown, row: Enrolment) =>
                    row.status !== 'completed' && (
                      <Button
                        type="link"
                        size="small"
                        danger
                        data-testid={`enrolment-remove-${row.traineeNo}`}
                        onClick={() => remove(row)}
                      >
                        {t('teaching.course.enrolment.remove')}
                      </Button>
                    ),
                },
              ]
            : []),
        ]}
      />
    </Card>
  );
}

/**
 * /teach/course/:id/profile: the course's settings (its cover, teachers, CME credits) and description; edited,
 * published, taken offline or assigned from here; its items in order (dragged into a new one); its enrolments with
 * progress and completion, and the report; its audit trail.
 */
export default function CourseProfile() {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string, values?: Record<string, number>) => intl.formatMessage({ id }, values);
  const [editing, setEditing] = useState<Course>();
  return (
    <div data-testid="course-profile">
      <ResourceProfile<Course> descriptor={courseDescriptor}>
        {(course, reload) => (
          <>
            <Space>
              {access['teaching:course:update'] && courseDescriptor.allows?.(course, 'update', access) && (
                <Button icon={<EditOutlined />} onClick={() => setEditing(course)} data-testid="course-profile-edit">
                  {t('resource.edit')}
                </Button>
              )}
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
                <Popconfirm
                  title={t('teaching.course.offline.confirm')}
                  onConfirm={() => offlineCourse(course).then(reload, ignoreShownError)}
                >
                  <Button data-testid="course-profile-offline">{t('teaching.course.offline')}</Button>
                </Popconfirm>
              )}
            </Space>
            {course.descriptionHtml && (
              <Card title={t('teaching.course.descriptionHtml')} data-testid="course-description">
                {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server before it was kept */}
                <div dangerouslySetInnerHTML={{ __html: course.descriptionHtml }} />
              </Card>
            )}
            <CourseOutline courseId={course.id} manage />
            <Enrolments course={course} reload={reload} />
            {editing && (
              <ResourceForm<Course>
                descriptor={courseDescriptor}
                open
                record={editing}
                onOpenChange={(open) => !open && setEditing(undefined)}
                onSaved={() => {
                  setEditing(undefined);
                  reload();
                }}
              />
            )}
          </>
        )}
      </ResourceProfile>
    </div>
  );
}
