import { ProFormDatePicker, ProFormSelect, ProFormTextArea } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Card, Space, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import RecordModalForm from '@/components/RecordModalForm';
import { dictEnum } from '@/components/resource/dict';
import { useCanCheck } from '@/hooks/useCan';
import { ignoreShownError } from '@/utils/request';
import {
  decideBaseChange,
  fetchBaseChanges,
  IN_TRAINING,
  orgChoices,
  requestBaseChange,
  type Trainee,
  type TraineeBaseChange,
} from './descriptor';
import { DecisionFields } from './TraineeDialogs';

/**
 * A trainee's changes of training base: the requests so far with their decisions, a new request while the trainee is
 * in training (none awaiting a decision), and the decision on the one awaiting it. An approval moves the trainee.
 */
export default function BaseChanges({ row, onChanged }: { row: Trainee; onChanged: () => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const can = useCanCheck();
  const [acting, setActing] = useState<'request' | 'decide'>();
  const { data: changes = [] } = useRequest(() => fetchBaseChanges(row.id), {
    refreshDeps: [row.id, row.version],
    onError: ignoreShownError,
  });
  const statuses = dictEnum('base_change_status');
  const pending = changes.some((c) => c.status === 'pending');
  const allowed = can('trainee:trainee:change-base');
  const where = (base: string | null, specialty: string | null) => [base ?? '-', specialty].filter(Boolean).join(' / ');
  return (
    <Card
      title={t('people.trainee.baseChanges')}
      data-testid="trainee-base-changes"
      extra={
        allowed && (
          <Space>
            {IN_TRAINING.includes(row.status) && !pending && (
              <Button data-testid="base-change-request" onClick={() => setActing('request')}>
                {t('people.trainee.baseChange.request')}
              </Button>
            )}
            {pending && (
              <Button type="primary" data-testid="base-change-decide" onClick={() => setActing('decide')}>
                {t('people.trainee.baseChange.decide')}
              </Button>
            )}
          </Space>
        )
      }
    >
      <Table<TraineeBaseChange>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={changes}
        locale={{ emptyText: t('people.trainee.baseChange.none') }}
        columns={[
          {
            title: t('people.trainee.baseChange.move'),
            render: (_, c) =>
              `${where(c.fromTrainingBaseName, c.fromSpecialtyBaseName)} → ${where(c.toTrainingBaseName, c.toSpecialtyBaseName)}`,
          },
          { title: t('people.trainee.transition.reason'), dataIndex: 'reason' },
          { title: t('people.trainee.transition.effectiveDate'), dataIndex: 'effectiveDate' },
          {
            title: t('people.trainee.status'),
            dataIndex: 'status',
            render: (status: string) => (
              <Tag color={statuses.get(status)?.color}>{statuses.get(status)?.text ?? status}</Tag>
            ),
          },
          {
            title: t('people.trainee.baseChange.decision'),
            render: (_, c) =>
              c.decidedByName ? [c.decidedByName, c.decisionComment].filter(Boolean).join(' · ') : '-',
          },
        ]}
      />
      <RecordModalForm<Record<string, string>>
        record={acting && { id: `${acting}:${row.id}` }}
        title={t(acting === 'decide' ? 'people.trainee.baseChange.decide' : 'people.trainee.baseChange.request')}
        initialValues={acting === 'decide' ? { decision: 'approve' } : { effectiveDate: dayjs().format('YYYY-MM-DD') }}
        submitTestId={`base-change-${acting ?? 'request'}-submit`}
        save={(values, options) =>
          acting === 'decide'
            ? decideBaseChange(row, values as never)
            : requestBaseChange(row, values as never, options)
        }
        onClose={() => setActing(undefined)}
        onSaved={() => {
          setActing(undefined);
          onChanged();
        }}
      >
        {acting === 'decide' ? (
          <DecisionFields />
        ) : (
          <>
            <ProFormSelect
              name="toTrainingBaseId"
              label={t('people.trainee.baseChange.to')}
              request={() => orgChoices('training_base')}
              rules={[{ required: true }]}
              fieldProps={{ 'data-testid': 'base-change-to' } as object}
            />
            <ProFormSelect
              name="toSpecialtyBaseId"
              label={t('people.trainee.specialtyBaseId')}
              request={() => orgChoices('specialty_base')}
            />
            <ProFormTextArea
              name="reason"
              label={t('people.trainee.transition.reason')}
              rules={[{ required: true, max: 500 }]}
              fieldProps={{ 'data-testid': 'base-change-reason' } as object}
            />
            <ProFormDatePicker
              name="effectiveDate"
              label={t('people.trainee.transition.effectiveDate')}
              rules={[{ required: true }]}
            />
          </>
        )}
      </RecordModalForm>
    </Card>
  );
}
