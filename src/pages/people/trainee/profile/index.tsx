import '@/pages/people/catalogue';
import { EditOutlined } from '@ant-design/icons';
import { ProForm } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Card, Empty, Space, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { dictEnum } from '@/components/resource/dict';
import ResourceProfile from '@/components/resource/ResourceProfile';
import useCan, { useCanCheck } from '@/hooks/useCan';
import IdNumber from '@/pages/people/person/IdNumber';
import { formatDateTime } from '@/utils/dates';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import CustomFields from '../../trainee-field/CustomFields';
import BaseChanges from '../BaseChanges';
import { fetchFields, fetchHistory, revealIdNo, submitTrainee, type Trainee, traineeDescriptor } from '../descriptor';
import TraineeActionDialog, { type Acting } from '../TraineeDialogs';
import TraineeForm from '../TraineeForm';

/** The trainee's lifecycle and audit: what can be done now, and every step so far. */
function Lifecycle({ row, onChanged }: { row: Trainee; onChanged: () => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const can = useCanCheck();
  const [acting, setActing] = useState<Acting>();
  const { data: history = [] } = useRequest(() => fetchHistory(row.id), {
    refreshDeps: [row.id, row.version],
    onError: ignoreShownError,
  });
  const statuses = dictEnum('trainee_status');
  const registrations = dictEnum('registration_status');
  const stateName = (kind: string, state: string) => {
    if (kind === 'base') return state;
    const [value, level] = state.split(':');
    const entry = (kind === 'status' ? statuses : registrations).get(value);
    return `${entry?.text ?? value}${level ? ` · ${level}` : ''}`;
  };
  const submit = () =>
    submitTrainee(row).then(() => {
      message.success(t('people.trainee.submitted'));
      onChanged();
    }, ignoreShownError);
  const done = () => {
    setActing(undefined);
    onChanged();
  };
  return (
    <Card
      title={t('people.trainee.history')}
      data-testid="trainee-lifecycle"
      extra={
        <Space>
          {can('trainee:trainee:change-status') && (
            <Button data-testid="trainee-transition" onClick={() => setActing({ action: 'transition', row })}>
              {t('people.trainee.transition')}
            </Button>
          )}
          {can('trainee:trainee:update') && ['not_submitted', 'rejected'].includes(row.registrationStatus) && (
            <Button data-testid="trainee-submit" onClick={submit}>
              {t('people.trainee.submit')}
            </Button>
          )}
          {can('trainee:trainee:audit') && row.registrationStatus === 'pending' && (
            <Button type="primary" data-testid="trainee-audit" onClick={() => setActing({ action: 'audit', row })}>
              {t('people.trainee.audit')}
            </Button>
          )}
        </Space>
      }
    >
      {history.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('people.trainee.history.empty')} />
      ) : (
        <Timeline
          items={history.map((h) => ({
            key: h.id,
            children: (
              <div data-testid="trainee-history-item">
                <Space wrap>
                  <Tag>{t(`people.trainee.history.kind.${h.kind}`)}</Tag>
                  <span>
                    {stateName(h.kind, h.fromState)} → {stateName(h.kind, h.toState)}
                  </span>
                  {h.effectiveDate && <Typography.Text type="secondary">{h.effectiveDate}</Typography.Text>}
                </Space>
                {h.reason && <div>{h.reason}</div>}
                <Typography.Text type="secondary">
                  {h.createdByName ?? '-'} · {formatDateTime(h.createdAt)}
                </Typography.Text>
              </div>
            ),
          }))}
        />
      )}
      <TraineeActionDialog acting={acting} onClose={() => setActing(undefined)} onDone={done} />
    </Card>
  );
}

/** The type's own fields with this trainee's values, as its form shows them. */
function CustomValues({ row }: { row: Trainee }) {
  const intl = useIntl();
  const { data: fields = [] } = useRequest(() => fetchFields(row.traineeTypeId), {
    refreshDeps: [row.traineeTypeId],
    onError: ignoreShownError,
  });
  if (fields.length === 0) return null;
  return (
    <Card title={intl.formatMessage({ id: 'people.trainee.customFields' })} data-testid="trainee-custom-values">
      <ProForm
        key={`${row.id}@${row.version}`}
        submitter={false}
        initialValues={{ customFields: row.customFields }}
        readonly
      >
        <CustomFields fields={fields} namePrefix={['customFields']} readonly />
      </ProForm>
    </Card>
  );
}

/** The trainee's details as the profile shows them: the ID number masked, revealed there to whoever may see it. */
const profileDescriptor = {
  ...traineeDescriptor,
  columns: traineeDescriptor.columns.map((column) =>
    column.dataIndex === 'idNoMasked'
      ? {
          ...column,
          render: (_dom: unknown, row: Trainee) => (
            <IdNumber
              masked={row.idNoMasked}
              reveal={() => revealIdNo(row.id)}
              permission="trainee:trainee:pii-view"
              testId="trainee-id-no"
            />
          ),
        }
      : column,
  ),
};

/**
 * /trainee/:id/profile: the trainee, their ID number (revealed on request), custom values, lifecycle, changes of base
 * and audit trail.
 */
export default function TraineeProfile() {
  const intl = useIntl();
  const [version, setVersion] = useState(0);
  const [editing, setEditing] = useState<Trainee>();
  const canEdit = useCan('trainee:trainee:update');
  const saved = () => {
    setEditing(undefined);
    setVersion((v) => v + 1);
  };
  return (
    <div data-testid="trainee-profile">
      <ResourceProfile<Trainee>
        key={version}
        descriptor={profileDescriptor}
        actions={(row) => [
          canEdit && (
            <Button key="edit" icon={<EditOutlined />} data-testid="trainee-edit" onClick={() => setEditing(row)}>
              {intl.formatMessage({ id: 'resource.edit' })}
            </Button>
          ),
        ]}
      >
        {(row) => (
          <>
            <CustomValues row={row} />
            <Lifecycle row={row} onChanged={() => setVersion((v) => v + 1)} />
            <BaseChanges row={row} onChanged={() => setVersion((v) => v + 1)} />
          </>
        )}
      </ResourceProfile>
      {editing && <TraineeForm record={editing} onClose={() => setEditing(undefined)} onSaved={saved} />}
    </div>
  );
}
