import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Empty, Space, Spin, Tag, Timeline, Typography } from 'antd';
import { dictEnum } from '@/components/resource/dict';
import { formatDateTime } from '@/utils/dates';
import { ignoreShownError } from '@/utils/request';
import { fetchReviews, type Qualification } from './descriptor';

/** Every step of a qualification's review, newest first: who (or the daily job), when, from which state to which, why. */
export default function ReviewHistory({ row }: { row: Qualification }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const statuses = dictEnum('qualification_status');
  const { data: steps, loading } = useRequest(() => fetchReviews(row.id), {
    refreshDeps: [row.id, row.version],
    onError: ignoreShownError,
  });
  if (loading && !steps) return <Spin />;
  if (!steps?.length)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('people.qualification.history.empty')} />;
  return (
    <Timeline
      data-testid="qualification-history"
      items={steps.map((step) => ({
        key: step.id,
        children: (
          <div data-testid="qualification-history-item">
            <Space wrap>
              <Tag color={statuses.get(step.toState)?.color}>{t(`people.qualification.decision.${step.decision}`)}</Tag>
              <Typography.Text type="secondary">
                {statuses.get(step.fromState)?.text ?? step.fromState} →{' '}
                {statuses.get(step.toState)?.text ?? step.toState}
              </Typography.Text>
            </Space>
            {step.comment && <div>{step.comment}</div>}
            <Typography.Text type="secondary">
              {step.createdByName ?? t('people.qualification.system')} · {formatDateTime(step.createdAt)}
            </Typography.Text>
          </div>
        ),
      }))}
    />
  );
}
