import '@/pages/teaching/catalogue';
import { DeleteOutlined, DownloadOutlined, EditOutlined, UploadOutlined } from '@ant-design/icons';
import { Link, useAccess, useIntl } from '@umijs/max';
import { useCountDown, useInterval, useRequest } from 'ahooks';
import {
  Alert,
  Button,
  Card,
  Col,
  Input,
  List,
  Modal,
  Popconfirm,
  QRCode,
  Row,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import ResourceProfile from '@/components/resource/ResourceProfile';
import TraineesAdder from '@/pages/people/trainee/TraineesAdder';
import { uploadFile } from '@/services/files';
import { downloadFile } from '@/services/resource';
import { formatDateTime } from '@/utils/dates';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import { CancelDialog } from '../ActivityDialogs';
import ActivityForm from '../ActivityForm';
import {
  type Activity,
  ATTENDANCE_COLOURS,
  ATTENDANCES,
  ATTENDED,
  activityDescriptor,
  addParticipants,
  BY_CODE,
  completeActivity,
  correctAttendance,
  fetchActivityFiles,
  fetchParticipants,
  fetchRatingCode,
  fetchSignInCode,
  LIVE,
  type Participant,
  publishActivity,
  RATING_DAYS,
  ratingLink,
  setActivityFiles,
  signInLink,
} from '../descriptor';

/** The QR code of the sign-in page with the code of the moment, renewed as it changes. */
function SignInPanel({ activity }: { activity: Activity }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, number>) => intl.formatMessage({ id }, values);
  const { data, refresh } = useRequest(() => fetchSignInCode(activity.id), { onError: ignoreShownError });
  const [, { seconds }] = useCountDown({
    leftTime: data ? data.refreshInSeconds * 1000 : undefined,
    // past the end there is no next code: the section says sign-in has closed instead
    onEnd: () => Date.now() <= Date.parse(activity.signInClosesAt) && refresh(),
  });
  if (!data) return null;
  const link = signInLink(data.code, activity.signInMode === 'qr_geo');
  return (
    <Card title={t('teaching.activity.signIn')} data-testid="activity-sign-in">
      <Space align="start" size="large">
        <QRCode type="svg" value={link} size={220} />
        <Space direction="vertical">
          <Typography.Text type="secondary">{t('teaching.activity.signIn.hint')}</Typography.Text>
          <Typography.Text data-testid="activity-sign-in-window">
            {intl.formatMessage(
              { id: 'teaching.activity.signIn.window' },
              {
                from: formatDateTime(activity.signInOpensAt),
                to: formatDateTime(activity.signInClosesAt),
              },
            )}
          </Typography.Text>
          <Typography.Text>{t('teaching.activity.signIn.expires', { seconds })}</Typography.Text>
          <Typography.Link href={link} target="_blank" data-testid="activity-sign-in-link" copyable={{ text: link }}>
            {t('teaching.activity.signIn.link')}
          </Typography.Link>
        </Space>
      </Space>
    </Card>
  );
}

/** The rating QR code, from the start: who came names themselves on the page it opens and rates, once. */
function RatingPanel({ activity }: { activity: Activity }) {
  const intl = useIntl();
  const { data } = useRequest(() => fetchRatingCode(activity.id), { onError: ignoreShownError });
  if (!data) return null;
  const link = ratingLink(data.code);
  return (
    <Card title={intl.formatMessage({ id: 'teaching.activity.ratingCode' })} data-testid="activity-rating">
      <Space align="start" size="large">
        <QRCode type="svg" value={link} size={160} />
        <Space direction="vertical">
          <Typography.Text type="secondary">
            {intl.formatMessage({ id: 'teaching.activity.ratingCode.hint' }, { until: formatDateTime(data.closesAt) })}
          </Typography.Text>
          <Typography.Link href={link} target="_blank" data-testid="activity-rating-link" copyable={{ text: link }}>
            {intl.formatMessage({ id: 'teaching.activity.ratingCode.link' })}
          </Typography.Link>
        </Space>
      </Space>
    </Card>
  );
}

/** The page's clock, so that what shows by time (the sign-in code, the rating code) follows it without a reload. */
function useNow(everyMs = 1000) {
  const [now, setNow] = useState(Date.now);
  useInterval(() => setNow(Date.now()), everyMs);
  return now;
}

/**
 * Sign-in by code of a published or ongoing activity, by the clock: when it opens, before; the code of the moment
 * while it is open; that it has closed, after its window (by default, the end). The rating code from the start, while ratings are taken.
 */
function TimedPanels({ activity }: { activity: Activity }) {
  const intl = useIntl();
  const access = useAccess();
  const now = useNow();
  const opens = Date.parse(activity.signInOpensAt);
  const ends = Date.parse(activity.signInClosesAt);
  const signingIn =
    LIVE.includes(activity.status) && BY_CODE.includes(activity.signInMode) && access['teaching:activity:attendance'];
  const notice = (id: string, time: number, testId: string) => (
    <Card title={intl.formatMessage({ id: 'teaching.activity.signIn' })} data-testid={testId}>
      <Typography.Text type="secondary">{intl.formatMessage({ id }, { time: formatDateTime(time) })}</Typography.Text>
    </Card>
  );
  return (
    <>
      {signingIn &&
        (now < opens ? (
          notice('teaching.activity.signIn.opensAt', opens, 'activity-sign-in-waiting')
        ) : now > ends ? (
          notice('teaching.activity.signIn.closed', ends, 'activity-sign-in-closed')
        ) : (
          <SignInPanel activity={activity} />
        ))}
      {access['teaching:activity:attendance'] && ratable(activity, now) && <RatingPanel activity={activity} />}
    </>
  );
}

/** Rated from the start to RATING_DAYS after the end, while it is evaluated and not cancelled. */
const ratable = (activity: Activity, now: number) =>
  activity.evaluationEnabled &&
  [...LIVE, 'completed'].includes(activity.status) &&
  Date.parse(activity.startAt) <= now &&
  now <= Date.parse(activity.endAt) + RATING_DAYS * 86_400_000;

/** Not a refusal: the host hosts (or co-hosts) another activity at an overlapping time, each linked. */
function HostOverlaps({ activity }: { activity: Activity }) {
  const intl = useIntl();
  if (activity.status === 'cancelled' || activity.hostOverlaps.length === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="activity-host-overlaps"
      message={intl.formatMessage({ id: 'teaching.activity.hostOverlaps' }, { host: activity.hostName })}
      description={
        <Space direction="vertical" size={0}>
          {activity.hostOverlaps.map((o) => (
            <Link key={o.id} to={`/teach/teaching/${o.id}/profile`}>
              {`${o.title}（${formatDateTime(o.startAt)} – ${formatDateTime(o.endAt)}）`}
            </Link>
          ))}
        </Space>
      }
    />
  );
}

type FileKind = 'materialFileIds' | 'photoFileIds';

/**
 * Its slides and evidence photos, each opened or downloaded by its signed link; added (uploaded, then held by the
 * activity) or let go after a confirmation, while it is not cancelled, by who may edit activities.
 */
function ActivityFiles({ activity, onChanged }: { activity: Activity; onChanged: () => void }) {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string) => intl.formatMessage({ id });
  const { data } = useRequest(() => fetchActivityFiles(activity.id), {
    refreshDeps: [activity.version],
    onError: ignoreShownError,
  });
  const [uploading, setUploading] = useState<FileKind>();
  const managing = activity.status !== 'cancelled' && access['teaching:activity:update'];
  const save = (kind: FileKind, ids: string[], done: string) =>
    setActivityFiles(activity, { [kind]: ids }).then(() => {
      message.success(t(done));
      onChanged();
    }, ignoreShownError);
  const column = (kind: FileKind, testId: string, accept?: string) => {
    const held = (kind === 'materialFileIds' ? data?.materials : data?.photos) ?? [];
    return (
      <Card
        size="small"
        type="inner"
        title={t(`teaching.activity.${kind}`)}
        data-testid={testId}
        extra={
          managing && (
            <Upload
              showUploadList={false}
              multiple={false}
              accept={accept}
              customRequest={({ file, onSuccess, onError }) => {
                setUploading(kind);
                uploadFile(file as File, { purpose: 'attachment' })
                  .then((stored) => {
                    onSuccess?.(stored);
                    return save(kind, [...activity[kind], stored.id], 'teaching.activity.files.added');
                  }, onError)
                  .finally(() => setUploading(undefined));
              }}
            >
              <Button size="small" icon={<UploadOutlined />} loading={uploading === kind} data-testid={`${testId}-add`}>
                {t('teaching.activity.files.add')}
              </Button>
            </Upload>
          )
        }
      >
        <List
          size="small"
          dataSource={held}
          locale={{ emptyText: t('teaching.activity.files.none') }}
          renderItem={(file) => (
            <List.Item
              actions={[
                <Typography.Link key="download" href={file.downloadUrl} data-testid={`file-download-${file.id}`}>
                  <DownloadOutlined /> {t('teaching.activity.files.download')}
                </Typography.Link>,
                managing && (
                  <Popconfirm
                    key="remove"
                    title={intl.formatMessage({ id: 'teaching.activity.files.remove.confirm' }, { name: file.name })}
                    onConfirm={() =>
                      save(
                        kind,
                        activity[kind].filter((id) => id !== file.id),
                        'teaching.activity.files.removed',
                      )
                    }
                  >
                    <Typography.Link type="danger" data-testid={`file-remove-${file.id}`}>
                      <DeleteOutlined />
                    </Typography.Link>
                  </Popconfirm>
                ),
              ]}
            >
              <Typography.Link href={file.previewUrl} target="_blank">
                {file.name}
              </Typography.Link>
            </List.Item>
          )}
        />
      </Card>
    );
  };
  return (
    <Card title={t('teaching.activity.files')} data-testid="activity-files">
      <Row gutter={16}>
        <Col span={12}>{column('materialFileIds', 'activity-materials')}</Col>
        <Col span={12}>{column('photoFileIds', 'activity-photos', 'image/*')}</Col>
      </Row>
    </Card>
  );
}

/** The list: each trainee's attendance (set by hand, with a note, for one or the chosen), sign-in and rating. */
function Participants({ activity, onChanged }: { activity: Activity; onChanged: () => void }) {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string) => intl.formatMessage({ id });
  const {
    data = [],
    loading,
    refresh,
  } = useRequest(() => fetchParticipants(activity.id), {
    refreshDeps: [activity.version],
    onError: ignoreShownError,
  });
  const [selected, setSelected] = useState<string[]>([]);
  const [note, setNote] = useState('');
  const [modal, confirmHolder] = Modal.useModal();
  const correcting = [...LIVE, 'completed'].includes(activity.status) && access['teaching:activity:attendance'];
  const attendanceLabel = (value: Participant['attendance']) => t(`teaching.activity.attendance.${value}`);

  /** Without a note (a row's own choice), each trainee keeps the note written before. */
  const correct = (traineeIds: string[], attendance: Participant['attendance'], withNote?: string) =>
    correctAttendance(
      activity.id,
      traineeIds.map((traineeId) =>
        withNote === undefined ? { traineeId, attendance } : { traineeId, attendance, note: withNote.trim() || null },
      ),
    ).then(() => {
      message.success(t('teaching.activity.attendance.corrected'));
      if (withNote !== undefined) setNote('');
      setSelected([]);
      refresh();
      onChanged();
    }, ignoreShownError);

  /** One who signed in and is set as not having come loses the time and way of their sign-in: asked first. */
  const correctRow = (row: Participant, attendance: Participant['attendance']) => {
    if (!row.signedInAt || ATTENDED.includes(attendance)) return correct([row.traineeId], attendance);
    modal.confirm({
      title: intl.formatMessage(
        { id: 'teaching.activity.attendance.dropSignIn' },
        { name: row.traineeName, attendance: attendanceLabel(attendance) },
      ),
      okButtonProps: { 'data-testid': 'attendance-confirm' },
      onOk: () => correct([row.traineeId], attendance),
    });
  };

  const exportSheet = () =>
    downloadFile(
      `/api/teaching/activity/${activity.id}/attendance-sheet`,
      undefined,
      `attendance-${activity.id}.xlsx`,
    ).catch(ignoreShownError);

  return (
    <Card
      title={`${t('teaching.activity.participants')} (${data.length})`}
      data-testid="activity-participants"
      extra={
        <Space wrap>
          {LIVE.includes(activity.status) && access['teaching:activity:attendance'] && (
            <TraineesAdder
              testId="participants"
              label={t('teaching.activity.participants.add')}
              listed={data.map((p) => p.traineeId)}
              add={(ids) =>
                addParticipants(activity.id, ids).then(() => {
                  message.success(t('teaching.activity.participants.added'));
                  onChanged();
                })
              }
            />
          )}
          {access['teaching:activity:export'] && (
            <Button icon={<DownloadOutlined />} onClick={exportSheet} data-testid="attendance-export">
              {t('teaching.activity.attendance.export')}
            </Button>
          )}
        </Space>
      }
    >
      {correcting && selected.length > 0 && (
        <Space style={{ marginBottom: 12 }} wrap data-testid="attendance-batch">
          <Input
            placeholder={t('teaching.activity.attendance.note')}
            value={note}
            maxLength={200}
            onChange={(e) => setNote(e.target.value)}
            style={{ width: 220 }}
          />
          {ATTENDANCES.filter((a) => a !== 'registered').map((attendance) => (
            <Button key={attendance} size="small" onClick={() => correct(selected, attendance, note)}>
              {attendanceLabel(attendance)}
            </Button>
          ))}
        </Space>
      )}
      {confirmHolder}
      <Table<Participant>
        size="small"
        rowKey="traineeId"
        loading={loading}
        dataSource={data}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        rowSelection={
          correcting ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) } : undefined
        }
        columns={[
          { title: t('teaching.activity.traineeNo'), dataIndex: 'traineeNo', width: 120 },
          { title: t('teaching.activity.traineeName'), dataIndex: 'traineeName', width: 100 },
          { title: t('teaching.activity.traineeTypeName'), dataIndex: 'traineeTypeName', width: 120 },
          { title: t('teaching.activity.baseName'), dataIndex: 'baseName' },
          {
            title: t('teaching.activity.attendance'),
            dataIndex: 'attendance',
            width: 150,
            render: (value: Participant['attendance'], row) =>
              correcting ? (
                <Select
                  size="small"
                  value={value}
                  style={{ width: 120 }}
                  data-testid={`attendance-${row.traineeNo}`}
                  onChange={(next) => correctRow(row, next)}
                  options={ATTENDANCES.map((a) => ({ value: a, label: attendanceLabel(a) }))}
                />
              ) : (
                <Tag color={ATTENDANCE_COLOURS[value]}>{attendanceLabel(value)}</Tag>
              ),
          },
          {
            title: t('teaching.activity.signedInAt'),
            dataIndex: 'signedInAt',
            width: 170,
            render: (value: string | null, row) =>
              value ? (
                <span data-testid={`signed-in-${row.traineeNo}`}>
                  {formatDateTime(value)}{' '}
                  {row.signInMethod && <Tag>{t(`teaching.activity.signInMethod.${row.signInMethod}`)}</Tag>}
                  {row.signInDistanceM !== null && (
                    <Tag data-testid={`distance-${row.traineeNo}`}>
                      {intl.formatMessage({ id: 'teaching.activity.distance' }, { metres: row.signInDistanceM })}
                    </Tag>
                  )}
                </span>
              ) : (
                '-'
              ),
          },
          { title: t('teaching.activity.attendance.note'), dataIndex: 'note', ellipsis: true },
          {
            title: t('teaching.activity.rating'),
            dataIndex: 'rating',
            width: 70,
            render: (v: number | null) => v ?? '-',
          },
          { title: t('teaching.activity.comment'), dataIndex: 'comment', ellipsis: true },
        ]}
      />
    </Card>
  );
}

/**
 * /teach/teaching/:id/profile: the activity's details; published, completed or cancelled from here; while sign-in is
 * open, the QR code of the moment; its list with attendance (corrected by hand), walk-ins added, ratings; the
 * attendance sheet; its audit trail.
 */
export default function ActivityProfile() {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string) => intl.formatMessage({ id });
  const [cancelling, setCancelling] = useState<Activity>();
  const [editing, setEditing] = useState<Activity>();
  return (
    <div data-testid="activity-profile">
      <ResourceProfile<Activity> descriptor={activityDescriptor}>
        {(activity, reload) => (
          <>
            <Space>
              {access['teaching:activity:update'] && activityDescriptor.allows?.(activity, 'update', access) && (
                <Button
                  icon={<EditOutlined />}
                  onClick={() => setEditing(activity)}
                  data-testid="activity-profile-edit"
                >
                  {t('resource.edit')}
                </Button>
              )}
              {activity.status === 'draft' && access['teaching:activity:publish'] && (
                <Popconfirm
                  title={t('teaching.activity.publish.confirm')}
                  onConfirm={() => publishActivity(activity).then(reload, ignoreShownError)}
                >
                  <Button type="primary" data-testid="activity-profile-publish">
                    {t('teaching.activity.publish')}
                  </Button>
                </Popconfirm>
              )}
              {LIVE.includes(activity.status) && access['teaching:activity:publish'] && (
                <Popconfirm
                  title={t('teaching.activity.complete.confirm')}
                  onConfirm={() => completeActivity(activity).then(reload, ignoreShownError)}
                >
                  <Button data-testid="activity-complete">{t('teaching.activity.complete')}</Button>
                </Popconfirm>
              )}
              {['draft', ...LIVE].includes(activity.status) && access['teaching:activity:publish'] && (
                <Button danger onClick={() => setCancelling(activity)}>
                  {t('teaching.activity.cancel')}
                </Button>
              )}
            </Space>
            <HostOverlaps activity={activity} />
            <TimedPanels activity={activity} />
            <ActivityFiles activity={activity} onChanged={reload} />
            {activity.status !== 'draft' && <Participants activity={activity} onChanged={reload} />}
            {editing && (
              <ActivityForm
                record={editing}
                onClose={() => setEditing(undefined)}
                onSaved={() => {
                  setEditing(undefined);
                  reload();
                }}
              />
            )}
            <CancelDialog
              activity={cancelling}
              onClose={() => setCancelling(undefined)}
              onDone={() => {
                setCancelling(undefined);
                reload();
              }}
            />
          </>
        )}
      </ResourceProfile>
    </div>
  );
}
