import '@/pages/teaching/catalogue';
import { ModalForm, ProFormDigit, ProFormSelect } from '@ant-design/pro-components';
import { useAccess, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, type ButtonProps, Card, Form, Progress, Table, Tag } from 'antd';
import ResourceProfile from '@/components/resource/ResourceProfile';
import { formatDateTime } from '@/utils/dates';
import { fieldErrorsOn } from '@/utils/formErrors';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import {
  type CourseItem,
  courseItemDescriptor,
  fetchItemProgress,
  type ItemProgress,
  MEDIA_TYPES,
  recordProgress,
} from '../descriptor';
import ItemContent from '../ItemContent';
import MediaFile from '../MediaFile';

/** Progress of a trainee on the course, recorded by hand (a session attended, a quiz taken on paper). */
function RecordProgress({
  item,
  trainees,
  onDone,
}: {
  item: CourseItem;
  trainees: ItemProgress[];
  onDone: () => void;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [form] = Form.useForm();
  return (
    <ModalForm<{ traineeId: string; percent: number; score?: number }>
      form={form}
      title={t('teaching.course-item.progress.record')}
      trigger={
        <Button data-testid="progress-record" disabled={item.status !== 'published'}>
          {t('teaching.course-item.progress.record')}
        </Button>
      }
      initialValues={{ percent: 100 }}
      modalProps={{ destroyOnHidden: true }}
      submitter={{ submitButtonProps: { 'data-testid': 'progress-submit' } as ButtonProps }}
      onFinish={async (values) => {
        try {
          await recordProgress(item.id, values, fieldErrorsOn(form));
          message.success(t('teaching.course-item.progress.recorded'));
          onDone();
          return true;
        } catch {
          return false;
        }
      }}
    >
      <ProFormSelect
        name="traineeId"
        label={t('teaching.activity.traineeName')}
        rules={[{ required: true }]}
        showSearch
        options={trainees.map((p) => ({ value: p.traineeId, label: `${p.traineeName} (${p.traineeNo})` }))}
        fieldProps={{ 'data-testid': 'progress-trainee' } as object}
      />
      <ProFormDigit
        name="percent"
        label={t('teaching.course-item.progress.percent')}
        min={0}
        max={100}
        rules={[{ required: true }]}
      />
      {item.itemType === 'quiz' && (
        <ProFormDigit
          name="score"
          label={t('teaching.course-item.progress.score')}
          min={0}
          rules={[{ required: true }]}
        />
      )}
    </ModalForm>
  );
}

/** Each trainee on the course, with their progress on the item. */
function ProgressOf({ item }: { item: CourseItem }) {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string) => intl.formatMessage({ id });
  const {
    data = [],
    loading,
    refresh,
  } = useRequest(() => fetchItemProgress(item.id), {
    refreshDeps: [item.version],
    onError: ignoreShownError,
  });
  return (
    <Card
      title={`${t('teaching.course-item.progress')} (${data.filter((p) => p.completed).length} / ${data.length})`}
      data-testid="item-progress"
      extra={
        access['teaching:course-item:progress'] &&
        item.itemType !== 'chapter' && <RecordProgress item={item} trainees={data} onDone={refresh} />
      }
    >
      <Table<ItemProgress>
        size="small"
        rowKey="traineeId"
        loading={loading}
        dataSource={data}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        columns={[
          { title: t('teaching.activity.traineeNo'), dataIndex: 'traineeNo', width: 140 },
          { title: t('teaching.activity.traineeName'), dataIndex: 'traineeName', width: 120 },
          {
            title: t('teaching.course-item.progress.percent'),
            dataIndex: 'percent',
            render: (percent: number) => <Progress percent={percent} size="small" />,
          },
          ...(item.itemType === 'quiz'
            ? [{ title: t('teaching.course-item.progress.score'), dataIndex: 'score', width: 90 }]
            : []),
          {
            title: t('teaching.course-item.progress.completed'),
            dataIndex: 'completed',
            width: 110,
            render: (done: boolean, row: ItemProgress) =>
              done ? (
                <Tag color="success" data-testid={`progress-done-${row.traineeNo}`}>
                  {t('teaching.course-item.progress.completed')}
                </Tag>
              ) : (
                '-'
              ),
          },
          {
            title: t('teaching.course-item.progress.updatedAt'),
            dataIndex: 'updatedAt',
            width: 180,
            render: (at: string | null) => (at ? formatDateTime(at) : '-'),
          },
        ]}
      />
    </Card>
  );
}

/**
 * /teach/course/item/:id/profile: the item's details, a video's or audio's file with where its reading stands
 * (replaced, read again), its text, live session or document of the base, each trainee's progress on it (recorded by
 * hand too), its audit trail.
 */
export default function CourseItemProfile() {
  return (
    <div data-testid="course-item-profile">
      <ResourceProfile<CourseItem> descriptor={courseItemDescriptor}>
        {(item, reload) =>
          item.itemType !== 'chapter' && (
            <>
              {MEDIA_TYPES.includes(item.itemType) && <MediaFile item={item} reload={reload} />}
              <ItemContent item={item} />
              <ProgressOf item={item} />
            </>
          )
        }
      </ResourceProfile>
    </div>
  );
}
